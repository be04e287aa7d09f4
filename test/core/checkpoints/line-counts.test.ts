/** Lines added and removed between two checkpoints (the chat's list of a run's changed files). */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { parseNumstat } from "../../../src/core/checkpoints/tree-diff.js";
import { tempWorkspacePerTest, writeFiles } from "./helpers.js";

const t = tempWorkspacePerTest();

describe("checkpoint line counts", { timeout: 60_000 }, () => {
  it("counts lines per file, keyed by the new path; a binary file has no counts", async () => {
    writeFiles(t.ws, {
      "a.txt": "one\ntwo\nthree\n",
      "old.txt": "keep\nthese\nlines\nhere\n",
      "img.bin": Buffer.from([0, 1, 2]),
    });
    const cp = await t.open({});
    const first = await cp.checkpoint();
    writeFiles(t.ws, { "a.txt": "one\n2\nthree\nfour\n", "img.bin": Buffer.from([0, 9, 9, 9]), "new.txt": "x\n" });
    fs.renameSync(path.join(t.ws, "old.txt"), path.join(t.ws, "renamed.txt"));
    const second = await cp.checkpoint();
    const counts = await cp.lineCounts(first.id, second.id);
    assert.deepEqual(Object.fromEntries(counts), {
      "a.txt": { added: 2, removed: 1 },
      "img.bin": {},
      "new.txt": { added: 1, removed: 0 },
      "renamed.txt": { added: 0, removed: 0 },
    });
    const changes = await cp.diff(first.id, second.id);
    assert.ok(
      changes.every((c) => counts.has(c.path)),
      "every changed file of diff() has its counts under the same path",
    );
  });

  it("parses numstat records, renames included", () => {
    const out = "3\t1\ta.txt\0-\t-\tpic.png\0" + "0\t0\t\0from.txt\0to.txt\0";
    assert.deepEqual(Object.fromEntries(parseNumstat(out)), {
      "a.txt": { added: 3, removed: 1 },
      "pic.png": {},
      "to.txt": { added: 0, removed: 0 },
    });
  });
});
