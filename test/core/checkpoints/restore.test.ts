/**
 * Restores: every kind of change comes back, undo, unsaved files, files no checkpoint holds, links that leave the
 * folder, all-or-nothing on a failure or a cancellation midway, and the user's own repository never touched.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
  CheckpointAbortedError,
  DirtyFilesError,
  FolderCheckpoints,
  NothingToUndoError,
  nodeRestoreFileSystem,
  type RestoreFileSystem,
} from "../../../src/core/checkpoints/index.js";
import {
  assertRollsBackAtEach,
  exactPicture,
  FailingRenames,
  folderPicture,
  read,
  tempWorkspacePerTest,
  userGit,
  writeFiles,
} from "./helpers.js";

const t = tempWorkspacePerTest();

async function open(restoreFs?: RestoreFileSystem): Promise<FolderCheckpoints> {
  return t.open({ restoreFs });
}

/** A first state with one of everything, and a second one where each of them changed. */
async function twoStates(cp: FolderCheckpoints): Promise<{ first: string; second: string }> {
  writeFiles(t.ws, {
    "edit.txt": "original\n",
    "remove.txt": "will be deleted\n",
    "move/from.txt": "renamed later\n",
    "bin/data.bin": Buffer.from([0, 1, 2, 3, 255]),
    "tool.sh": "#!/bin/sh\n",
    "nested/deep/keep.txt": "deep\n",
  });
  fs.mkdirSync(path.join(t.ws, "empty"));
  fs.symlinkSync("edit.txt", path.join(t.ws, "link"));
  const first = (await cp.checkpoint()).id;

  writeFiles(t.ws, { "edit.txt": "changed\n", "added/new.txt": "created\n", "bin/data.bin": Buffer.from([9, 9]) });
  fs.rmSync(path.join(t.ws, "remove.txt"));
  fs.renameSync(path.join(t.ws, "move/from.txt"), path.join(t.ws, "move/to.txt"));
  fs.chmodSync(path.join(t.ws, "tool.sh"), 0o755);
  fs.rmdirSync(path.join(t.ws, "empty"));
  fs.mkdirSync(path.join(t.ws, "fresh-empty"));
  fs.rmSync(path.join(t.ws, "link"));
  fs.symlinkSync("remove.txt", path.join(t.ws, "link"));
  fs.rmSync(path.join(t.ws, "nested"), { recursive: true });
  const second = (await cp.checkpoint()).id;
  return { first, second };
}

describe("restoring a checkpoint", { timeout: 60_000 }, () => {
  it("brings back edits, deletions, creations, renames, modes, links, binary files and empty folders — and undoes", async () => {
    const cp = await open();
    const { first, second } = await twoStates(cp);
    const secondPicture = folderPicture(t.ws);

    const plan = await cp.planRestore(first);
    assert.deepEqual(folderPicture(t.ws), secondPicture, "planning touches nothing");
    assert.deepEqual(
      plan.changes.map((c) => `${c.action} ${c.path}`),
      [
        "delete added/new.txt",
        "modify bin/data.bin",
        "modify edit.txt",
        "modify link",
        "delete move/to.txt",
        "create move/from.txt",
        "create nested/deep/keep.txt",
        "create remove.txt",
        "modify tool.sh",
      ].sort((a, b) => (a.split(" ")[1] < b.split(" ")[1] ? -1 : 1)),
    );
    assert.deepEqual(plan.emptyDirs, { create: ["empty"], remove: ["fresh-empty"] });

    const result = await cp.restore(first);
    assert.equal(result.targetId, first);
    assert.equal(read(t.ws, "edit.txt"), "original\n");
    assert.equal(read(t.ws, "remove.txt"), "will be deleted\n");
    assert.equal(read(t.ws, "move/from.txt"), "renamed later\n");
    assert.equal(read(t.ws, "move/to.txt"), undefined);
    assert.equal(read(t.ws, "added/new.txt"), undefined);
    assert.equal(fs.existsSync(path.join(t.ws, "added")), false, "a folder emptied by the restore goes too");
    assert.deepEqual(fs.readFileSync(path.join(t.ws, "bin/data.bin")), Buffer.from([0, 1, 2, 3, 255]));
    assert.equal(fs.statSync(path.join(t.ws, "tool.sh")).mode & 0o777, 0o644);
    assert.equal(fs.readlinkSync(path.join(t.ws, "link")), "edit.txt");
    assert.equal(read(t.ws, "nested/deep/keep.txt"), "deep\n");
    assert.ok(fs.statSync(path.join(t.ws, "empty")).isDirectory());
    assert.equal(fs.existsSync(path.join(t.ws, "fresh-empty")), false);
    assert.deepEqual(
      fs.readdirSync(t.ws).filter((n) => n.startsWith(".agent-tree")),
      [],
      "no staging left behind",
    );
    const firstPicture = folderPicture(t.ws);

    // The files now are the first checkpoint's: a new checkpoint records nothing new (the index followed).
    const after = await cp.checkpoint();
    assert.deepEqual(after.changes, []);
    assert.deepEqual(await cp.diff(first, after.id), []);

    // Undo puts the second state back; undoing again goes forward again.
    const undo = await cp.undoRestore();
    assert.equal(undo.targetId, result.beforeId);
    assert.deepEqual(folderPicture(t.ws), secondPicture);
    await cp.undoRestore();
    assert.deepEqual(folderPicture(t.ws), firstPicture);
    await cp.restore(second);
    assert.deepEqual(folderPicture(t.ws), secondPicture);
  });

  it("keeps the user's edits made since the last checkpoint reachable through undo", async () => {
    const cp = await open();
    writeFiles(t.ws, { "a.txt": "agent\n" });
    const first = (await cp.checkpoint()).id;
    writeFiles(t.ws, { "a.txt": "typed by hand, never checkpointed\n", "hand.txt": "new by hand\n" });
    await cp.restore(first);
    assert.equal(read(t.ws, "a.txt"), "agent\n");
    assert.equal(read(t.ws, "hand.txt"), undefined);
    await cp.undoRestore();
    assert.equal(read(t.ws, "a.txt"), "typed by hand, never checkpointed\n");
    assert.equal(read(t.ws, "hand.txt"), "new by hand\n");
  });

  it("reports files with unsaved changes and refuses to overwrite them unless told to", async () => {
    const cp = await open();
    writeFiles(t.ws, { "a.txt": "1", "b.txt": "1" });
    const first = (await cp.checkpoint()).id;
    writeFiles(t.ws, { "a.txt": "2" });
    const dirtyPaths = [path.join(t.ws, "a.txt"), "b.txt", "/elsewhere/c.txt"];
    const plan = await cp.planRestore(first, { dirtyPaths });
    assert.deepEqual(plan.dirty, ["a.txt"], "only the open file the restore would change");
    await assert.rejects(cp.restore(first, { dirtyPaths }), (e: unknown) => {
      assert.ok(e instanceof DirtyFilesError);
      assert.deepEqual(e.paths, ["a.txt"]);
      return true;
    });
    assert.equal(read(t.ws, "a.txt"), "2", "nothing was written");
    await cp.restore(first, { dirtyPaths, discardDirty: true });
    assert.equal(read(t.ws, "a.txt"), "1");
  });

  it("never replaces a file whose content no checkpoint holds (ignored now, or too large)", async () => {
    const cp = await t.open({ limits: { maxFileBytes: 64 } });
    writeFiles(t.ws, { "config.json": "recorded v1", "data.bin": "small v1" });
    const first = (await cp.checkpoint()).id;
    writeFiles(t.ws, { ".gitignore": "config.json\n", "config.json": "local secrets", "data.bin": "x".repeat(100) });
    const plan = await cp.planRestore(first);
    assert.deepEqual(
      plan.skipped.map((s) => `${s.reason} ${s.path}`),
      ["not-recorded config.json", "not-recorded data.bin"],
    );
    await cp.restore(first);
    assert.equal(read(t.ws, "config.json"), "local secrets");
    assert.equal(read(t.ws, "data.bin"), "x".repeat(100));
    assert.equal(read(t.ws, ".gitignore"), undefined, "the rest is restored");
  });

  it("refuses paths that go through a symbolic link (which could lead outside the folder)", async () => {
    const outside = path.join(t.root, "outside");
    fs.mkdirSync(outside);
    const cp = await open();
    writeFiles(t.ws, { "lib/a.txt": "inside\n" });
    const first = (await cp.checkpoint()).id;
    // lib becomes a link to a folder outside the workspace; the link itself is not recorded (ignored).
    fs.rmSync(path.join(t.ws, "lib"), { recursive: true });
    fs.symlinkSync(outside, path.join(t.ws, "lib"));
    writeFiles(t.ws, { ".gitignore": "lib\n" });
    const plan = await cp.planRestore(first);
    assert.deepEqual(plan.skipped, [{ path: "lib/a.txt", reason: "through-symlink" }]);
    await cp.restore(first);
    assert.deepEqual(fs.readdirSync(outside), [], "nothing was written outside the workspace");
    assert.equal(fs.lstatSync(path.join(t.ws, "lib")).isSymbolicLink(), true);
  });

  it("leaves every file as it was when a write fails midway", async () => {
    const failing = new FailingRenames();
    const cp = await open(failing.fs);
    const { first } = await twoStates(cp);
    writeFiles(t.ws, { "edit.txt": "unsaved by any checkpoint yet\n" });
    const before = folderPicture(t.ws);
    await assertRollsBackAtEach(failing, [1, 4, 9], () => cp.restore(first), t.ws, before);
    await cp.restore(first);
    assert.equal(read(t.ws, "edit.txt"), "original\n");
  });

  it("leaves every file as it was when cancelled midway", async () => {
    const controller = new AbortController();
    let renames = 0;
    const cancelling: RestoreFileSystem = {
      ...nodeRestoreFileSystem,
      rename: async (from, to) => {
        await nodeRestoreFileSystem.rename(from, to);
        if (++renames === 3) controller.abort();
      },
    };
    const cp = await open(cancelling);
    const { first } = await twoStates(cp);
    const before = folderPicture(t.ws);
    await assert.rejects(cp.restore(first, { signal: controller.signal }), CheckpointAbortedError);
    assert.ok(renames >= 3);
    assert.deepEqual(folderPicture(t.ws), before);
  });

  it("never touches the user's own repository: its .git is byte-identical after checkpoints, restores and undo", async () => {
    userGit(t.ws, "init", "-q");
    writeFiles(t.ws, { "tracked.txt": "v1\n", ".gitignore": "*.log\n" });
    userGit(t.ws, "add", "-A");
    userGit(t.ws, "commit", "-qm", "user commit");
    writeFiles(t.ws, { "tracked.txt": "v2 uncommitted\n", "staged.txt": "staged\n" });
    userGit(t.ws, "add", "staged.txt");
    // git status refreshes the user's index itself: ask it before taking the picture, and after comparing.
    const statusBefore = userGit(t.ws, "status", "--porcelain");
    const gitBefore = exactPicture(path.join(t.ws, ".git"));

    const cp = await open();
    const first = (await cp.checkpoint()).id;
    writeFiles(t.ws, { "tracked.txt": "v3 by the agent\n", "new.txt": "agent file\n" });
    await cp.checkpoint();
    await cp.restore(first);
    await cp.undoRestore();
    await cp.restore(first);

    assert.deepEqual(exactPicture(path.join(t.ws, ".git")), gitBefore);
    assert.equal(userGit(t.ws, "status", "--porcelain"), statusBefore);
    assert.deepEqual(await cp.listFiles(first), [".gitignore", "staged.txt", "tracked.txt"], "no .git recorded");
  });

  it("turns a file that became a folder back into a file, and the other way round", async () => {
    const cp = await open();
    writeFiles(t.ws, { x: "x is a file\n", "y/inner.txt": "y is a folder\n" });
    const first = (await cp.checkpoint()).id;
    const firstPicture = folderPicture(t.ws);
    fs.rmSync(path.join(t.ws, "x"));
    fs.rmSync(path.join(t.ws, "y"), { recursive: true });
    writeFiles(t.ws, { "x/inner.txt": "x is a folder now\n", y: "y is a file now\n" });
    const second = (await cp.checkpoint()).id;
    const secondPicture = folderPicture(t.ws);
    await cp.restore(first);
    assert.deepEqual(folderPicture(t.ws), firstPicture);
    await cp.restore(second);
    assert.deepEqual(folderPicture(t.ws), secondPicture);
  });

  it("two windows on the same folder share its store without losing a checkpoint", async () => {
    const one = await open();
    const two = await open();
    writeFiles(t.ws, { "a.txt": "1" });
    const a = await one.checkpoint();
    writeFiles(t.ws, { "a.txt": "2" });
    const b = await two.checkpoint();
    assert.equal(b.previousId, a.id, "the second window saw the first one's checkpoint");
    const again = await one.checkpoint();
    assert.equal(again.created, false);
    assert.equal(again.id, b.id);
    writeFiles(t.ws, { "a.txt": "3" });
    const both = await Promise.all([one.checkpoint(), two.checkpoint()]);
    assert.equal(both[0].id, both[1].id, "at the same moment: one checkpoint, seen by both");
    assert.equal(both.filter((r) => r.created).length, 1);
    assert.equal((await one.readFileAt(both[0].id, "a.txt"))?.toString(), "3");
    await one.restore(a.id);
    assert.equal(read(t.ws, "a.txt"), "1");
    await two.undoRestore();
    assert.equal(read(t.ws, "a.txt"), "3");
  });

  it("says there is nothing to undo before the first restore, and rejects unknown checkpoints", async () => {
    const cp = await open();
    writeFiles(t.ws, { "a.txt": "a" });
    await cp.checkpoint();
    await assert.rejects(cp.undoRestore(), NothingToUndoError);
    await assert.rejects(cp.restore("0123456789abcdef0123456789abcdef01234567"), /does not exist/);
    await assert.rejects(cp.restore("--help"), /does not exist/);
    await assert.rejects(cp.readFileAt((await cp.latest()) as string, "../outside.txt"), /unsafe path/);
  });
});
