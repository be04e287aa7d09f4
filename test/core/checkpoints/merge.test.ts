/**
 * Three-way merges of another branch's files into the workspace, with the real git: changes only the other branch
 * made are applied, both-sided text changes are merged or get conflict markers, binary and delete/modify conflicts
 * keep the changed side, created and deleted files, folder/file clashes, the user's own merge settings ignored,
 * unsaved files, the undo that puts everything back exactly, all-or-nothing on a failure midway, and several
 * folders together.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
  DirtyFilesError,
  FolderCheckpoints,
  RestoreFailedError,
  WorkspaceCheckpoints,
  nodeRestoreFileSystem,
  type MergedFile,
  type RestoreFileSystem,
} from "../../../src/core/checkpoints/index.js";
import {
  assertRollsBackAtEach,
  FailingRenames,
  folderPicture,
  read,
  tempWorkspacePerTest,
  writeFiles,
} from "./helpers.js";

const t = tempWorkspacePerTest();

/** File edits: text or bytes to write, null to delete. */
type Edits = Record<string, string | Buffer | null>;

function edit(dir: string, edits: Edits): void {
  for (const [rel, content] of Object.entries(edits)) {
    if (content === null) fs.rmSync(path.join(dir, rel), { force: true, recursive: true });
    else writeFiles(dir, { [rel]: content });
  }
}

/**
 * The three states of a merge in one folder: `base` is recorded, `theirs` edits it and is recorded (the other
 * branch), then the folder goes back to `base` and `ours` edits it (the current files, not recorded).
 */
async function threeStates(
  cp: FolderCheckpoints,
  base: Edits,
  theirs: Edits,
  ours: Edits,
): Promise<{ baseId: string; theirsId: string }> {
  edit(cp.folder, base);
  const baseId = (await cp.checkpoint()).id;
  edit(cp.folder, theirs);
  const theirsId = (await cp.checkpoint()).id;
  await cp.restore(baseId);
  edit(cp.folder, ours);
  return { baseId, theirsId };
}

function outcomes(files: readonly MergedFile[]): Record<string, string> {
  return Object.fromEntries(files.map((f) => [f.path, `${f.outcome} (${f.change})`]));
}

const LINES = "one\ntwo\nthree\nfour\nfive\nsix\nseven\n";

describe("merging another branch's files", { timeout: 60_000 }, () => {
  it("applies what only the other branch changed — edits, new files in new folders, deletions — and keeps ours", async () => {
    const cp = await t.open();
    const { baseId, theirsId } = await threeStates(
      cp,
      { "a.txt": "a0\n", "gone.txt": "bye\n", "mine.txt": "m0\n" },
      { "a.txt": "a-theirs\n", "gone.txt": null, "new/deep/n.txt": "created\n" },
      { "mine.txt": "m-ours\n", "local.txt": "only here\n" },
    );
    const result = await cp.merge(baseId, theirsId);
    assert.deepEqual(outcomes(result.files), {
      "a.txt": "applied (modified)",
      "gone.txt": "applied (deleted)",
      "new/deep/n.txt": "applied (added)",
    });
    assert.equal(read(t.ws, "a.txt"), "a-theirs\n");
    assert.equal(read(t.ws, "gone.txt"), undefined);
    assert.equal(read(t.ws, "new/deep/n.txt"), "created\n");
    assert.equal(read(t.ws, "mine.txt"), "m-ours\n", "our own edit stays");
    assert.equal(read(t.ws, "local.txt"), "only here\n", "our new file stays");
    assert.deepEqual(
      result.changes.map((c) => `${c.action} ${c.path}`),
      ["modify a.txt", "delete gone.txt", "create new/deep/n.txt"],
    );
    assert.notEqual(result.beforeId, result.targetId);
  });

  it("merges text both sides changed in different places, without markers", async () => {
    const cp = await t.open();
    const { baseId, theirsId } = await threeStates(
      cp,
      { "f.txt": LINES },
      { "f.txt": LINES.replace("two", "TWO (theirs)") },
      { "f.txt": LINES.replace("six", "SIX (ours)") },
    );
    const result = await cp.merge(baseId, theirsId);
    assert.deepEqual(outcomes(result.files), { "f.txt": "merged (modified)" });
    assert.equal(read(t.ws, "f.txt"), LINES.replace("two", "TWO (theirs)").replace("six", "SIX (ours)"));
  });

  it("writes standard conflict markers where both changed the same lines, whatever the user's merge.conflictStyle", async () => {
    // The user's global git config asks for diff3 markers: the merge must not follow it.
    const home = path.join(t.root, "home");
    fs.mkdirSync(home);
    fs.writeFileSync(path.join(home, ".gitconfig"), "[merge]\n\tconflictStyle = diff3\n");
    const cp = await t.open({ env: { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") } });
    const { baseId, theirsId } = await threeStates(
      cp,
      { "f.txt": LINES },
      { "f.txt": LINES.replace("four", "4 from theirs") },
      { "f.txt": LINES.replace("four", "4 from ours") },
    );
    const plan = await cp.planMerge(baseId, theirsId);
    assert.deepEqual(outcomes(plan.files), { "f.txt": "conflict (modified)" });
    assert.equal(read(t.ws, "f.txt"), LINES.replace("four", "4 from ours"), "planning writes nothing");
    const result = await cp.merge(baseId, theirsId);
    assert.deepEqual(outcomes(result.files), { "f.txt": "conflict (modified)" });
    assert.equal(
      read(t.ws, "f.txt"),
      "one\ntwo\nthree\n<<<<<<< current\n4 from ours\n=======\n4 from theirs\n>>>>>>> other branch\nfive\nsix\nseven\n",
    );
  });

  it("keeps ours for a binary file both changed, and a file both created differently gets markers", async () => {
    const cp = await t.open();
    const { baseId, theirsId } = await threeStates(
      cp,
      { "img.bin": Buffer.from([0, 1, 2, 3]) },
      { "img.bin": Buffer.from([0, 9, 9]), "both.txt": "theirs\n" },
      { "img.bin": Buffer.from([0, 7, 7, 7]), "both.txt": "ours\n" },
    );
    const result = await cp.merge(baseId, theirsId);
    assert.deepEqual(outcomes(result.files), { "both.txt": "conflict (added)", "img.bin": "binary (modified)" });
    assert.deepEqual([...fs.readFileSync(path.join(t.ws, "img.bin"))], [0, 7, 7, 7]);
    assert.equal(read(t.ws, "both.txt"), "<<<<<<< current\nours\n=======\ntheirs\n>>>>>>> other branch\n");
  });

  it("keeps the modified file when one side deleted it and the other changed it, either way round", async () => {
    const cp = await t.open();
    const { baseId, theirsId } = await threeStates(
      cp,
      { "they-deleted.txt": "x\n", "we-deleted.txt": "y\n" },
      { "they-deleted.txt": null, "we-deleted.txt": "y changed by them\n" },
      { "they-deleted.txt": "x changed by us\n", "we-deleted.txt": null },
    );
    const result = await cp.merge(baseId, theirsId);
    assert.deepEqual(outcomes(result.files), {
      "they-deleted.txt": "deleted-modified (deleted)",
      "we-deleted.txt": "deleted-modified (modified)",
    });
    assert.equal(read(t.ws, "they-deleted.txt"), "x changed by us\n");
    assert.equal(read(t.ws, "we-deleted.txt"), "y changed by them\n");
  });

  it("takes their mode change with our content, and skips a change both sides made alike", async () => {
    const cp = await t.open();
    writeFiles(t.ws, { "tool.sh": "#!/bin/sh\necho 1\n", "same.txt": "s\n" });
    const baseId = (await cp.checkpoint()).id;
    fs.chmodSync(path.join(t.ws, "tool.sh"), 0o755);
    writeFiles(t.ws, { "same.txt": "both did this\n" });
    const theirsId = (await cp.checkpoint()).id;
    await cp.restore(baseId);
    writeFiles(t.ws, { "tool.sh": "#!/bin/sh\necho 2\n", "same.txt": "both did this\n" });
    const result = await cp.merge(baseId, theirsId);
    assert.deepEqual(outcomes(result.files), { "tool.sh": "merged (modified)" });
    assert.equal(read(t.ws, "tool.sh"), "#!/bin/sh\necho 2\n");
    assert.equal(fs.statSync(path.join(t.ws, "tool.sh")).mode & 0o777, 0o755);
  });

  it("leaves ours where their file would need one of our files or folders out of the way", async () => {
    const cp = await t.open();
    const { baseId, theirsId } = await threeStates(
      cp,
      { "keep.txt": "k\n" },
      { "clash/inner.txt": "theirs, in a folder\n", "spot.txt": "theirs, a file\n" },
      { clash: "ours is a file\n", "spot.txt/mine.txt": "ours, in a folder\n" },
    );
    const before = folderPicture(t.ws);
    const result = await cp.merge(baseId, theirsId);
    assert.deepEqual(outcomes(result.files), { "clash/inner.txt": "blocked (added)", "spot.txt": "blocked (added)" });
    assert.deepEqual(folderPicture(t.ws), before, "nothing was written");
    assert.deepEqual(result.changes, []);
  });

  it("takes their file that became a folder, and their folder that became a file, when ours left them alone", async () => {
    const cp = await t.open();
    const { baseId, theirsId } = await threeStates(
      cp,
      { "was-file": "f\n", "was-dir/inner.txt": "i\n" },
      { "was-file": null, "was-file/now.txt": "now in a folder\n", "was-dir": null },
      {},
    );
    // A file where the folder was (written after the deletion above, as the other branch did).
    await cp.restore(theirsId);
    writeFiles(t.ws, { "was-dir": "now a file\n" });
    const theirsWithFile = (await cp.checkpoint()).id;
    await cp.restore(baseId);
    const result = await cp.merge(baseId, theirsWithFile);
    assert.deepEqual(outcomes(result.files), {
      "was-dir": "applied (added)",
      "was-dir/inner.txt": "applied (deleted)",
      "was-file": "applied (deleted)",
      "was-file/now.txt": "applied (added)",
    });
    assert.equal(read(t.ws, "was-file/now.txt"), "now in a folder\n");
    assert.equal(read(t.ws, "was-dir"), "now a file\n");
  });

  it("undo puts back exactly the files of before the merge", async () => {
    const cp = await t.open();
    const { baseId, theirsId } = await threeStates(
      cp,
      { "f.txt": LINES, "del.txt": "d\n", "bin.bin": Buffer.from([0, 1]) },
      { "f.txt": LINES.replace("one", "1"), "del.txt": null, "add/x.txt": "x\n", "bin.bin": Buffer.from([0, 2]) },
      { "f.txt": LINES.replace("one", "uno"), "unsaved-by-checkpoints.txt": "mine\n" },
    );
    fs.mkdirSync(path.join(t.ws, "empty-folder"));
    const before = folderPicture(t.ws);
    const result = await cp.merge(baseId, theirsId);
    assert.notDeepEqual(folderPicture(t.ws), before);
    assert.equal((await cp.lastRestore())?.beforeId, result.beforeId);
    await cp.undoRestore();
    assert.deepEqual(folderPicture(t.ws), before, "every file and folder as before the merge");
  });

  it("leaves every file as it was when a write fails midway, and when the unsaved files would be overwritten", async () => {
    const failing = new FailingRenames();
    const cp = await t.open({ restoreFs: failing.fs });
    const { baseId, theirsId } = await threeStates(
      cp,
      { "a.txt": "a\n", "b.txt": "b\n", "c.txt": LINES },
      { "a.txt": "A\n", "b.txt": null, "n/new.txt": "n\n", "c.txt": LINES.replace("one", "1") },
      { "c.txt": LINES.replace("seven", "7") },
    );
    const before = folderPicture(t.ws);
    await assert.rejects(cp.merge(baseId, theirsId, { dirtyPaths: [path.join(t.ws, "c.txt")] }), (e: unknown) => {
      assert.ok(e instanceof DirtyFilesError, String(e));
      assert.deepEqual(e.paths, ["c.txt"]);
      return true;
    });
    assert.deepEqual(folderPicture(t.ws), before, "refused before writing");
    await assertRollsBackAtEach(failing, [1, 3, 5], () => cp.merge(baseId, theirsId), t.ws, before);
    await cp.merge(baseId, theirsId);
    assert.equal(read(t.ws, "c.txt"), LINES.replace("one", "1").replace("seven", "7"));
  });

  it("merges several folders together, puts the first back when the second fails, and undoes them together", async () => {
    const other = path.join(t.root, "other");
    fs.mkdirSync(other);
    let failOther = true;
    const failing: RestoreFileSystem = {
      ...nodeRestoreFileSystem,
      rename: async (from, to) => {
        if (failOther && from.startsWith(other)) throw new Error("injected");
        return nodeRestoreFileSystem.rename(from, to);
      },
    };
    const cps = await WorkspaceCheckpoints.open({ folders: [t.ws, other], storageDir: t.store, restoreFs: failing });
    const [ws, ot] = [cps.engine(t.ws), cps.engine(other)] as FolderCheckpoints[];
    failOther = false;
    const a = await threeStates(ws, { "w.txt": "w0\n" }, { "w.txt": "w1\n" }, {});
    const b = await threeStates(ot, { "o.txt": "o0\n" }, { "o.txt": "o1\n" }, {});
    failOther = true;
    const targets = [
      { folder: t.ws, ...a },
      { folder: other, ...b },
    ];
    const beforeWs = folderPicture(t.ws);
    const beforeOther = folderPicture(other);
    await assert.rejects(cps.merge(targets), RestoreFailedError);
    assert.deepEqual(folderPicture(t.ws), beforeWs, "the first folder was put back");
    assert.deepEqual(folderPicture(other), beforeOther);
    failOther = false;
    const results = await cps.merge(targets);
    assert.deepEqual(
      results.map((r) => r.files.map((f) => `${f.path} ${f.outcome}`)),
      [["w.txt applied"], ["o.txt applied"]],
    );
    assert.equal(read(t.ws, "w.txt"), "w1\n");
    assert.equal(read(other, "o.txt"), "o1\n");
    await cps.undoRestore();
    assert.deepEqual(folderPicture(t.ws), beforeWs);
    assert.deepEqual(folderPicture(other), beforeOther);
  });
});
