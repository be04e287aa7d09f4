/**
 * Start-up clean-up never removes a copy another window is still making, or whose branch it still runs
 * (branch-copy.ts, "The maker's claim"): a child process makes copies while this one sweeps the copies folder over
 * and over with a clean-up that takes every copy for an orphan (none has a branch yet); every copy survives, with
 * its files. Once the child is killed, the next clean-up removes them and their claims. In one process, a copy is
 * safe until its maker releases it.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { BranchCopy, listBranchCopies, removeOrphanCopies } from "../../../src/core/parallel/branch-copy.js";
import { tempWorkspacePerTest, writeFiles } from "../checkpoints/helpers.js";

const t = tempWorkspacePerTest();
const COPIES = 4;

/** A checkpoint of a small workspace: its id and store. */
async function checkpoint(): Promise<{ id: string; storeDir: string }> {
  writeFiles(t.ws, { "app.txt": "original\n", "lib/util.txt": "util\n" });
  const cps = await t.open();
  return { id: (await cps.checkpoint({ reason: "test" })).id, storeDir: cps.storeDir };
}

describe("clean-up and copies being made", { timeout: 120_000 }, () => {
  it("a clean-up racing another process's copies removes none of them; after that process died, all", async () => {
    const { id, storeDir } = await checkpoint();
    const copiesDir = path.join(t.root, "copies");
    const child = spawn(
      process.execPath,
      ["--import", "tsx", path.join(__dirname, "copy-maker-child.ts"), t.ws, storeDir, id, copiesDir, String(COPIES)],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    try {
      // Sweep as fast as it goes until the child made every copy (bounded: the child ends within a minute).
      let sweeps = 0;
      const removed: string[] = [];
      while (!stdout.includes("done\n")) {
        if (child.exitCode !== null) assert.fail(`the child ended: ${stderr}`);
        removed.push(...(await removeOrphanCopies(copiesDir, () => true)));
        sweeps++;
        if (sweeps > 10_000) assert.fail("the child did not finish");
      }
      assert.deepEqual(removed, [], "no copy of the living maker was removed");
      const made = stdout.match(/^made .+$/gm)?.map((l) => l.slice(5)) ?? [];
      assert.equal(made.length, COPIES);
      const found = await listBranchCopies(copiesDir);
      assert.deepEqual(found.map((c) => c.root).sort(), [...made].sort(), "only the copies: no claim listed as one");
      for (const root of made)
        assert.equal(fs.readFileSync(path.join(root, "files", "app.txt"), "utf8"), "original\n", "with its files");

      child.kill("SIGKILL");
      await exited;
      const after = await removeOrphanCopies(copiesDir, () => true);
      assert.deepEqual(after.sort(), [...made].sort(), "the dead maker's copies are orphans");
      assert.deepEqual(fs.readdirSync(copiesDir), [], "their claims went with them");
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("in one process, a copy is kept until its maker lets it go", async () => {
    const { id, storeDir } = await checkpoint();
    const copiesDir = path.join(t.root, "copies");
    const copy = await BranchCopy.materialize({ folder: t.ws, storeDir, checkpointId: id, copiesDir });
    assert.deepEqual(await removeOrphanCopies(copiesDir, () => true), []);
    await copy.ready;
    assert.deepEqual(await removeOrphanCopies(copiesDir, () => true), []);
    copy.release();
    assert.deepEqual(await removeOrphanCopies(copiesDir, () => true), [copy.root]);
    assert.deepEqual(fs.readdirSync(copiesDir), []);
  });
});
