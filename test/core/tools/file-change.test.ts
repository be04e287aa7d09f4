import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, it } from "node:test";
import { applyEdit, proposedFileChange } from "../../../src/core/tools/file-change.js";
import { createEditTool, createWriteTool } from "../../../src/core/tools/index.js";
import { tempDir } from "../../util/temp-dir.js";

describe("proposedFileChange: what write and edit would leave, nothing written", () => {
  let dir = "";
  beforeEach(() => {
    dir = tempDir("agent-tree-change-").dir;
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("an edit's proposal is exactly what the edit tool then writes (CRLF file included)", async () => {
    const file = path.join(dir, "a.txt");
    fs.writeFileSync(file, "one\r\ntwo\r\nthree\r\n");
    const args = { path: "a.txt", oldText: "two\nthree", newText: "2\n3" };
    const proposal = await proposedFileChange(dir, "edit", args);
    assert.ok(proposal);
    assert.equal(proposal.before, "one\r\ntwo\r\nthree\r\n");
    assert.equal(fs.readFileSync(file, "utf8"), proposal.before, "proposing writes nothing");
    const result = await createEditTool(dir).execute(args, { cwd: dir });
    assert.notEqual(result.isError, true);
    assert.equal(fs.readFileSync(file, "utf8"), proposal.after);
    assert.equal(proposal.after, "one\r\n2\r\n3\r\n");
  });

  it("a write to a new file proposes it from nothing; the write tool writes the same", async () => {
    const args = { path: "sub/new.txt", content: "fresh\n" };
    const proposal = await proposedFileChange(dir, "write", args);
    assert.deepEqual(
      { path: proposal?.path, before: proposal?.before, after: proposal?.after },
      { path: "sub/new.txt", before: undefined, after: "fresh\n" },
    );
    assert.equal(fs.existsSync(path.join(dir, "sub")), false);
    await createWriteTool(dir).execute(args, { cwd: dir });
    assert.equal(fs.readFileSync(path.join(dir, "sub/new.txt"), "utf8"), proposal?.after);
  });

  it("an edit that would fail rejects with the tool's own message; other tools and outside paths have no proposal", async () => {
    fs.writeFileSync(path.join(dir, "b.txt"), "x x");
    await assert.rejects(proposedFileChange(dir, "edit", { path: "b.txt", oldText: "x", newText: "y" }), /2 times/);
    await assert.rejects(proposedFileChange(dir, "edit", { path: "none.txt", oldText: "x", newText: "y" }));
    await assert.rejects(proposedFileChange(dir, "write", { path: "../escape.txt", content: "x" }), /outside/i);
    assert.equal(await proposedFileChange(dir, "bash", { command: "ls" }), undefined);
  });

  it("applyEdit refuses identical texts and text that is not there", () => {
    const same = applyEdit("abc", "b", "b");
    assert.equal(same.ok, false);
    assert.match(same.ok ? "" : same.error("f"), /identical/);
    assert.equal(applyEdit("abc", "z", "y").ok, false);
  });
});
