/**
 * A folder mention reads the folder's `.gitignore` as the file walker does (src/core/tools/walk.ts): a
 * `.gitignore -> /dev/zero` is not followed (reading it cost ~600 MB per send), a FIFO one does not block the send,
 * and the listing still comes. Memory is checked by the process's peak resident size, which reading /dev/zero
 * would raise by hundreds of MB; the FIFO by the test's own bound (a blocked send never ends).
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { buildAttachment } from "../../../src/core/mentions/file-attachment.js";
import { tempDir } from "../../util/temp-dir.js";

/** The peak resident size of this process so far, in MB. */
function peakRssMb(): number {
  return process.resourceUsage().maxRSS / 1024;
}

describe("a folder mention with a hostile .gitignore", { timeout: 30_000 }, () => {
  const tmp = tempDir("hostile-gitignore-");
  const ws = tmp.dir;
  before(() => {
    for (const name of ["zero", "fifo", "ok"]) {
      fs.mkdirSync(path.join(ws, name));
      fs.writeFileSync(path.join(ws, name, "kept.txt"), "x");
      fs.writeFileSync(path.join(ws, name, "build.log"), "x");
    }
    fs.symlinkSync("/dev/zero", path.join(ws, "zero", ".gitignore"));
    execFileSync("mkfifo", [path.join(ws, "fifo", ".gitignore")]);
    fs.writeFileSync(path.join(ws, "ok", ".gitignore"), "*.log\n");
  });
  after(() => tmp.cleanup());

  it("a .gitignore linked to /dev/zero is not read: the listing comes, memory stays where it was", async () => {
    const before = peakRssMb();
    const a = await buildAttachment(ws, { path: "zero" });
    const grown = peakRssMb() - before;
    assert.match(a.block, /\.gitignore\nbuild\.log\nkept\.txt\n<\/folder>$/);
    assert.ok(grown < 64, `the peak resident size grew by ${Math.round(grown)} MB`);
  });

  it("a FIFO .gitignore does not block the mention", async () => {
    const a = await buildAttachment(ws, { path: "fifo" });
    assert.match(a.block, /\.gitignore\nbuild\.log\nkept\.txt\n<\/folder>$/);
  });

  it("a regular .gitignore is still honoured", async () => {
    const a = await buildAttachment(ws, { path: "ok" });
    assert.match(a.block, /\.gitignore\nkept\.txt\n<\/folder>$/);
  });
});
