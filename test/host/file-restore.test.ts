/**
 * The row's Restore Files to This Point and Show Changes at This Point, and Undo File Restore, with a fake editor
 * UI over the real engine (git in temp folders); the restore question's text.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { afterEach, describe, it } from "node:test";
import type { RestorePlan } from "../../src/core/checkpoints/index.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import {
  MAX_LISTED_LINES,
  restoreFilesTo,
  restoreQuestion,
  undoFileRestore,
} from "../../src/host/checkpoints/file-restore.js";
import {
  CHECKPOINT_SCHEME,
  checkpointDocumentText,
  checkpointUriParts,
  parseCheckpointUri,
  turnChanges,
} from "../../src/host/checkpoints/turn-changes.js";
import { checkpointSession, type CheckpointSession } from "./checkpoint-session.js";
import { FakeRestoreUi } from "./fake-restore-ui.js";

let s: CheckpointSession | undefined;
afterEach(() => s?.cleanup());

describe("Restore Files to This Point and Undo File Restore", { timeout: 120_000 }, () => {
  it("restores the row's files without moving the conversation, and undo puts them back", async () => {
    s = await checkpointSession();
    const ui = new FakeRestoreUi({ answer: "restore" });
    assert.equal(
      await restoreFilesTo({ view: s.sm, checkpoints: s.checkpoints, ui, lock: new FilesLock() }, s.ids.f1),
      "restored",
    );
    assert.equal(s.sm.getLeafId(), s.ids.f2, "the conversation stays");
    assert.equal(s.read("a.txt"), "A1\n");
    assert.equal(s.read("b.txt"), "B\n");
    assert.equal(ui.questions[0].offerKeep, false, "only Restore (or cancel) from the row");
    assert.deepEqual(ui.restoredMessages, ["Restored 2 files to this point."]);

    const undo = new FakeRestoreUi();
    assert.equal(await undoFileRestore(undo, s.checkpoints, new FilesLock()), "restored");
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
    assert.deepEqual(undo.restoredMessages, ["Undid the file restore: 2 files put back."]);
    // Undoing again goes forward again.
    assert.equal(await undoFileRestore(new FakeRestoreUi(), s.checkpoints, new FilesLock()), "restored");
    assert.equal(s.read("a.txt"), "A1\n");
  });

  it("cancelling the question or the progress changes nothing; nothing to restore or undo is said", async () => {
    s = await checkpointSession();
    const none = new FakeRestoreUi();
    assert.equal(await undoFileRestore(none, s.checkpoints, new FilesLock()), "nothing");
    assert.deepEqual(none.infos, ["There is no file restore to undo."]);

    const dismissed = new FakeRestoreUi({});
    assert.equal(
      await restoreFilesTo({ view: s.sm, checkpoints: s.checkpoints, ui: dismissed, lock: new FilesLock() }, s.ids.f1),
      "cancelled",
    );
    assert.equal(s.read("a.txt"), "B1\n");

    const cancelled = new FakeRestoreUi({ answer: "restore", cancelProgress: true });
    assert.equal(
      await restoreFilesTo({ view: s.sm, checkpoints: s.checkpoints, ui: cancelled, lock: new FilesLock() }, s.ids.f1),
      "cancelled",
    );
    assert.equal(s.read("a.txt"), "B1\n");
    assert.deepEqual(cancelled.errors, []);

    const same = new FakeRestoreUi({ answer: "restore" });
    assert.equal(
      await restoreFilesTo({ view: s.sm, checkpoints: s.checkpoints, ui: same, lock: new FilesLock() }, s.ids.f2),
      "nothing",
    );
    assert.deepEqual(same.infos, ["The files already match this point."]);
    assert.deepEqual(same.questions, []);
  });

  it("an unsaved file the undo would overwrite is asked about too", async () => {
    s = await checkpointSession();
    assert.equal(
      await restoreFilesTo(
        { view: s.sm, checkpoints: s.checkpoints, ui: new FakeRestoreUi({ answer: "restore" }), lock: new FilesLock() },
        s.ids.f1,
      ),
      "restored",
    );
    const ui = new FakeRestoreUi({ dirty: "discard" });
    const a = path.join(s.ws, "a.txt");
    ui.editors.set(a, "typing…");
    assert.equal(await undoFileRestore(ui, s.checkpoints, new FilesLock()), "restored");
    assert.deepEqual(ui.dirtyAsked, [[a]]);
    assert.deepEqual(ui.reverted, [a]);
    assert.equal(s.read("a.txt"), "B1\n");
  });
});

describe("Show Changes at This Point", { timeout: 120_000 }, () => {
  it("lists the files the row's turn changed, and serves both sides as read-only documents", async () => {
    s = await checkpointSession();
    const changes = await turnChanges(s.sm, s.ids.f1, s.checkpoints);
    assert.deepEqual(changes.map((c) => `${c.change.status} ${c.change.path}`).toSorted(), [
      "added b.txt",
      "modified a.txt",
    ]);
    const a = changes.find((c) => c.change.path === "a.txt");
    assert.ok(a);
    const before = { folder: a.folder, checkpointId: a.beforeId, path: "a.txt" };
    const after = { ...before, checkpointId: a.afterId };
    assert.equal(await checkpointDocumentText(s.checkpoints, before), "v0\n");
    assert.equal(await checkpointDocumentText(s.checkpoints, after), "A1\n");
    const missing = { ...before, path: "b.txt" };
    assert.equal(await checkpointDocumentText(s.checkpoints, missing), "", "the added file's left side is empty");

    // The tool result row shows the same turn; the user message of the turn shows nothing changed yet.
    assert.equal((await turnChanges(s.sm, s.ids.r1, s.checkpoints)).length, 2);
    assert.deepEqual(await turnChanges(s.sm, s.ids.u1, s.checkpoints), []);
  });

  it("checkpoint URIs round-trip (the file name ends the path, so the editor picks the language)", () => {
    const ref = { folder: "/w/my project", checkpointId: "abc123", path: "src/a b.ts" };
    const parts = checkpointUriParts(ref);
    assert.equal(parts.scheme, CHECKPOINT_SCHEME);
    assert.equal(parts.path, "/src/a b.ts");
    assert.deepEqual(parseCheckpointUri(parts), ref);
    assert.equal(parseCheckpointUri({ scheme: "file", path: "/x", query: "" }), undefined);
    assert.equal(parseCheckpointUri({ scheme: CHECKPOINT_SCHEME, path: "/x", query: "folder=%2Fw" }), undefined);
  });
});

describe("the restore question", () => {
  const plan = (folder: string, n: number, dirty: string[] = []): RestorePlan & { folder: string } => ({
    folder,
    targetId: "t",
    currentId: "c",
    changes: Array.from({ length: n }, (_, i) => ({
      path: `f${i}.txt`,
      action: i % 3 === 0 ? "create" : i % 3 === 1 ? "modify" : "delete",
    })),
    emptyDirs: { create: [], remove: [] },
    skipped: [],
    dirty,
  });

  it("lists at most MAX_LISTED_LINES files, then how many more; says how many are unsaved", () => {
    const q = restoreQuestion([plan("/w/app", 40, ["f1.txt", "f2.txt"])], false, true);
    assert.equal(q.summary, "40 files would change. 2 of them have unsaved changes in an editor.");
    assert.equal(q.lines.length, MAX_LISTED_LINES + 1);
    assert.deepEqual(q.lines.slice(0, 3), ["f0.txt (brought back)", "f1.txt (changed back)", "f2.txt (removed)"]);
    assert.equal(q.lines.at(-1), `… and ${40 - MAX_LISTED_LINES} more`);
  });

  it("names the folder of each file in a multi-root workspace", () => {
    const q = restoreQuestion([plan("/w/app", 1), plan("/w/lib", 1)], true, false);
    assert.deepEqual(q.lines, ["app/f0.txt (brought back)", "lib/f0.txt (brought back)"]);
    assert.equal(q.summary, "2 files would change.");
  });
});
