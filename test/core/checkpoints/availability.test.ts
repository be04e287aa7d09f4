/** Clear when it cannot: no git, not a folder, too large, storage inside the folder; multi-root keeps the rest working. */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
  CheckpointUnavailableError,
  FolderCheckpoints,
  RestoreFailedError,
  WorkspaceCheckpoints,
  nodeRestoreFileSystem,
} from "../../../src/core/checkpoints/index.js";
import { envWithoutGit, folderPicture, read, tempWorkspacePerTest, writeFiles } from "./helpers.js";

const t = tempWorkspacePerTest();

function unavailable(reason: string): (e: unknown) => boolean {
  return (e: unknown) => {
    assert.ok(e instanceof CheckpointUnavailableError, String(e));
    assert.equal(e.reason, reason);
    assert.match(e.message, /Files cannot follow the session tree|checkpoint storage/);
    return true;
  };
}

describe("when checkpoints cannot work", { timeout: 60_000 }, () => {
  it("no git on PATH: a typed error that says so", async () => {
    await assert.rejects(
      t.open({ env: envWithoutGit(t.root) }),
      (e: unknown) => unavailable("no-git")(e) && /`git` was not found/.test((e as Error).message),
    );
  });

  it("not a folder", async () => {
    const file = path.join(t.root, "file.txt");
    fs.writeFileSync(file, "x");
    await assert.rejects(FolderCheckpoints.open({ folder: file, storageDir: t.store }), unavailable("not-a-folder"));
    await assert.rejects(
      FolderCheckpoints.open({ folder: path.join(t.root, "missing"), storageDir: t.store }),
      unavailable("not-a-folder"),
    );
  });

  it("a storage directory inside the workspace folder (a workspace opened on the home folder) is never recorded", async () => {
    writeFiles(t.ws, { "a.txt": "a" });
    const cp = await FolderCheckpoints.open({ folder: t.ws, storageDir: path.join(t.ws, ".cache", "cp #1") });
    const first = await cp.checkpoint();
    assert.deepEqual(await cp.listFiles(first.id), ["a.txt"]);
    assert.equal((await cp.checkpoint()).created, false, "the store's own writes are not changes");
  });

  it("too many files: nothing recorded, and it works again once the folder fits", async () => {
    writeFiles(t.ws, { "a.txt": "a", "b.txt": "b", "c.txt": "c" });
    const cp = await t.open({ limits: { maxFiles: 2 } });
    await assert.rejects(cp.checkpoint(), unavailable("too-large"));
    assert.equal(await cp.latest(), undefined);
    writeFiles(t.ws, { ".gitignore": "c.txt\n" });
    await assert.rejects(cp.checkpoint(), unavailable("too-large"), ".gitignore itself is a file");
    fs.rmSync(path.join(t.ws, "b.txt"));
    const ok = await cp.checkpoint();
    assert.deepEqual(await cp.listFiles(ok.id), [".gitignore", "a.txt"]);
  });

  it("too many bytes in all", async () => {
    writeFiles(t.ws, { "a.bin": Buffer.alloc(600), "b.bin": Buffer.alloc(600) });
    const cp = await t.open({ limits: { maxTotalBytes: 1000 } });
    await assert.rejects(cp.checkpoint(), unavailable("too-large"));
  });
});

describe("multi-root workspaces", { timeout: 60_000 }, () => {
  it("one engine per folder; a folder that cannot work is reported and the others keep working", async () => {
    const second = path.join(t.root, "second");
    fs.mkdirSync(second);
    writeFiles(t.ws, { "a.txt": "ws 1" });
    writeFiles(second, { "b.txt": "second 1" });
    const missing = path.join(t.root, "missing");
    const cps = await WorkspaceCheckpoints.open({ folders: [t.ws, second, missing], storageDir: t.store });
    assert.deepEqual(
      cps.status().map((s) => (s.state === "ready" ? "ready" : s.reason)),
      ["ready", "ready", "not-a-folder"],
    );
    const first = await cps.capture("first");
    assert.equal(first.length, 2);
    writeFiles(t.ws, { "a.txt": "ws 2" });
    writeFiles(second, { "b.txt": "second 2" });
    await cps.capture("second");
    const targets = first.map((c) => {
      assert.ok("result" in c);
      return { folder: c.folder, checkpointId: c.result.id };
    });
    const restored = await cps.restore(targets);
    assert.equal(restored.length, 2);
    assert.equal(read(t.ws, "a.txt"), "ws 1");
    assert.equal(read(second, "b.txt"), "second 1");
    await cps.undoRestore();
    assert.equal(read(t.ws, "a.txt"), "ws 2");
    assert.equal(read(second, "b.txt"), "second 2");
  });

  it("a restore of several folders is all or nothing: a later folder failing puts the earlier ones back", async () => {
    const second = path.join(t.root, "second");
    fs.mkdirSync(second);
    writeFiles(t.ws, { "a.txt": "ws 1" });
    writeFiles(second, { "b.txt": "second 1" });
    let failSecond = false;
    const cps = await WorkspaceCheckpoints.open({
      folders: [t.ws, second],
      storageDir: t.store,
      restoreFs: {
        ...nodeRestoreFileSystem,
        rename: async (from, to) => {
          if (failSecond && to.startsWith(second + path.sep)) throw new Error("injected failure in the second folder");
          return nodeRestoreFileSystem.rename(from, to);
        },
      },
    });
    const first = await cps.capture("first");
    writeFiles(t.ws, { "a.txt": "ws 2" });
    writeFiles(second, { "b.txt": "second 2" });
    const pictures = [folderPicture(t.ws), folderPicture(second)];
    failSecond = true;
    const targets = first.map((c) => ({ folder: c.folder, checkpointId: "result" in c ? c.result.id : "" }));
    await assert.rejects(cps.restore(targets), RestoreFailedError);
    assert.deepEqual([folderPicture(t.ws), folderPicture(second)], pictures);
  });

  it("no git: every folder is unavailable with the same clear reason, and capture records nothing", async () => {
    const cps = await WorkspaceCheckpoints.open({ folders: [t.ws], storageDir: t.store, env: envWithoutGit(t.root) });
    const [status] = cps.status();
    assert.equal(status.state, "unavailable");
    assert.ok(status.state === "unavailable" && status.reason === "no-git");
    assert.deepEqual(await cps.capture("turn"), []);
  });
});
