/**
 * Bring Conclusions Here with the other branch's files, and the compare tab's files section, with scripted editor
 * UIs over a real AgentSession (extractive summaries) and the real checkpoint engine (git in temp folders).
 *
 * The session (checkpoint-session.ts): branch A wrote a.txt = A1 and b.txt = B; branch B (the leaf) wrote a.txt =
 * B1; both start from a.txt = v0. Bringing branch A here adds b.txt and conflicts on a.txt.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, it } from "node:test";
import { nodeRestoreFileSystem } from "../../src/core/checkpoints/index.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import { runBringFlow, type ConclusionsTarget } from "../../src/host/compare/bring-flow.js";
import { CheckpointCompareFiles } from "../../src/host/compare/compare-files.js";
import { undoFileRestore } from "../../src/host/checkpoints/file-restore.js";
import { checkpointDocumentText, type CheckpointFileRef } from "../../src/host/checkpoints/turn-changes.js";
import { user } from "../util/session-builder.js";
import { checkpointSession, type CheckpointSession } from "./checkpoint-session.js";
import { FakeBringUi, type FakeBringScript } from "./fake-bring-ui.js";
import { FakeRestoreUi, type FakeRestoreScript } from "./fake-restore-ui.js";
import { conclusionsTargetOf } from "./flow-session.js";

let s: CheckpointSession | undefined;
afterEach(() => s?.cleanup());

const CONFLICTED = "<<<<<<< current\nB1\n=======\nA1\n>>>>>>> other branch\n";

/** Runs Bring Conclusions Here from branch A's last reply with the files part. */
async function bring(session: CheckpointSession, script: FakeBringScript, restore: FakeRestoreScript = {}) {
  const ui = new FakeBringUi(script);
  const files = new FakeRestoreUi(restore);
  const deps = { view: session.sm, checkpoints: session.checkpoints, ui: files, lock: new FilesLock() };
  const outcome = await runBringFlow(conclusionsTargetOf(session.sm, session.agent), ui, session.ids.f1, deps);
  return { ui, files, outcome };
}

/** The summaries in the session (Bring Conclusions Here writes one). */
function summaries(session: CheckpointSession): number {
  return session.sm.getEntries().filter((e) => e.type === "branch_summary").length;
}

describe("Bring Conclusions Here with the other branch's files", { timeout: 120_000 }, () => {
  it("Bring Files: the summary, then the merge — an added file and a conflict — and Undo File Restore reverts the merge", async () => {
    s = await checkpointSession();
    const { ui, outcome } = await bring(s, { choice: "summarize", files: "files" });
    assert.equal(outcome.kind, "moved");
    assert.equal(outcome.kind === "moved" && outcome.files, "brought");
    assert.deepEqual(ui.fileQuestions, [
      {
        summary:
          "That branch changed 2 files since the common ancestor. 1 of them conflicts with your files: " +
          "the other branch's version does not go in cleanly there.",
        lines: ["a.txt (conflict: both changed it)", "b.txt (added)"],
      },
    ]);
    assert.deepEqual(ui.calls, [
      "pick",
      "files?",
      "progress: Bringing the other branch's conclusions here…",
      "filesBrought",
    ]);
    assert.equal(s.read("b.txt"), "B\n", "the file only the other branch had");
    assert.equal(s.read("a.txt"), CONFLICTED, "both changed it: conflict markers");
    assert.deepEqual(
      ui.brought[0].message.split(":")[0],
      "Brought the other branch's conclusions and its file changes here",
    );
    assert.match(ui.brought[0].message, /2 files changed\. 1 file needs your attention \(conflicts\)\./);
    const [conflict] = ui.brought[0].conflicts;
    assert.deepEqual(
      { path: conflict.path, shown: conflict.shown, outcome: conflict.outcome, folder: conflict.folder },
      { path: "a.txt", shown: "a.txt (conflict: both changed it)", outcome: "conflict", folder: s.ws },
    );
    // The three versions the merge editor shows: the common ancestor, the files before the merge, the branch.
    const text = (checkpointId: string): Promise<string> =>
      checkpointDocumentText(s!.checkpoints, { folder: s!.ws, checkpointId, path: "a.txt" });
    assert.deepEqual(
      [await text(conflict.baseId), await text(conflict.beforeId), await text(conflict.theirsId)],
      ["v0\n", "B1\n", "A1\n"],
    );
    const summary = s.sm.getLeafId() ?? "";
    assert.equal(s.sm.getEntry(summary)?.type, "branch_summary", "the summary is the leaf");

    assert.equal(await undoFileRestore(new FakeRestoreUi(), s.checkpoints, new FilesLock()), "restored");
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
    assert.equal(s.sm.getLeafId(), summary, "undo is about files: the summary stays");
  });

  it("Conversation Only brings the summary and leaves the files; dismissing the question changes nothing", async () => {
    s = await checkpointSession();
    const dismissed = await bring(s, { choice: "summarize" });
    assert.deepEqual(dismissed.outcome, { kind: "dismissed" });
    assert.equal(summaries(s), 0);
    assert.equal(s.read("b.txt"), undefined);

    const only = await bring(s, { choice: "summarize", files: "conversation" });
    assert.equal(only.outcome.kind === "moved" && only.outcome.files, "none");
    assert.equal(summaries(s), 1);
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
  });

  it("a cancelled summary changes no file and writes nothing", async () => {
    s = await checkpointSession();
    const { outcome } = await bring(s, { choice: "summarize", files: "files", cancelProgress: true });
    assert.deepEqual(outcome, { kind: "aborted" });
    assert.equal(summaries(s), 0);
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
  });

  it("a merge that fails or is cancelled leaves every file as it was; the summary stays and the message says so", async () => {
    let fail = false;
    s = await checkpointSession({
      restoreFs: {
        ...nodeRestoreFileSystem,
        rename: async (from, to) => {
          if (fail && to.endsWith("b.txt")) throw new Error("disk full (injected)");
          return nodeRestoreFileSystem.rename(from, to);
        },
      },
    });
    fail = true;
    const failed = await bring(s, { choice: "summarize", files: "files" });
    assert.equal(failed.outcome.kind === "moved" && failed.outcome.files, "failed");
    assert.match(
      failed.ui.errors[0] ?? "",
      /^Brought the other branch's conclusions, but bringing its file changes failed: .*disk full.*No file was changed\.$/,
    );
    assert.equal(s.read("a.txt"), "B1\n", "the conflict markers were rolled back");
    assert.equal(s.read("b.txt"), undefined);
    assert.equal(summaries(s), 1, "the summary stays");

    fail = false;
    const cancelled = await bring(
      s,
      { choice: "summarize", files: "files" },
      { cancelProgressTitled: "Bringing the other branch's file changes" },
    );
    assert.equal(cancelled.outcome.kind === "moved" && cancelled.outcome.files, "cancelled");
    assert.match(cancelled.ui.infos[0] ?? "", /bringing its file changes was cancelled: no file changed/);
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
  });

  it("asks about unsaved editors before summarizing: Save and Include merges the saved text; cancel stops everything", async () => {
    s = await checkpointSession();
    const aTxt = path.join(s.ws, "a.txt");
    const noEditor = await bring(s, { choice: "summarize", files: "files" });
    // No editor open: nothing asked. Undo, then try again with an unsaved editor on a.txt.
    assert.deepEqual(noEditor.files.dirtyAsked, []);
    await undoFileRestore(new FakeRestoreUi(), s.checkpoints, new FilesLock());

    const stopping = new FakeRestoreUi({});
    stopping.editors.set(aTxt, "unsaved\n");
    const stopped = await runBringFlow(
      conclusionsTargetOf(s.sm, s.agent),
      new FakeBringUi({ choice: "summarize", files: "files" }),
      s.ids.f1,
      { view: s.sm, checkpoints: s.checkpoints, ui: stopping, lock: new FilesLock() },
    );
    assert.deepEqual(stopped, { kind: "dismissed" });
    assert.deepEqual(stopping.dirtyAsked, [[aTxt]]);
    assert.equal(summaries(s), 1, "only the first run's summary");

    const saving = new FakeRestoreUi({ dirty: "save" });
    saving.editors.set(aTxt, "saved\n");
    const ui = new FakeBringUi({ choice: "summarize", files: "files" });
    await runBringFlow(conclusionsTargetOf(s.sm, s.agent), ui, s.ids.f1, {
      view: s.sm,
      checkpoints: s.checkpoints,
      ui: saving,
      lock: new FilesLock(),
    });
    assert.match(ui.fileQuestions[0].summary, /1 of them has unsaved changes in an editor\./);
    assert.deepEqual(
      saving.calls.filter((c) => c === "dirty" || c === "save"),
      ["dirty", "save"],
    );
    assert.equal(s.read("a.txt"), "<<<<<<< current\nsaved\n=======\nA1\n>>>>>>> other branch\n");
    await undoFileRestore(new FakeRestoreUi(), s.checkpoints, new FilesLock());
    assert.equal(s.read("a.txt"), "saved\n", "the saved text is what undo brings back");
  });

  it("multi-root: every folder's changes come along, prefixed with the folder's name", async () => {
    s = await checkpointSession({ multiRoot: true });
    const { ui } = await bring(s, { choice: "summarize", files: "files" });
    assert.deepEqual(ui.fileQuestions[0].lines, [
      "ws/a.txt (conflict: both changed it)",
      "ws/b.txt (added)",
      "other/c.txt (changed)",
    ]);
    assert.equal(s.read("b.txt"), "B\n");
    assert.equal(fs.readFileSync(path.join(s.other ?? "", "c.txt"), "utf8"), "cA\n");
  });

  it("no question without checkpoints at both points (a session from before checkpoints)", async () => {
    s = await checkpointSession();
    // A second session in the same workspace, without any checkpoint entry.
    const plain = SessionManager.inMemory(s.ws);
    const root = plain.appendMessage(user("start"));
    const other = plain.appendMessage(user("other branch"));
    plain.branch(root);
    plain.appendMessage(user("this branch"));
    const ui = new FakeBringUi({ choice: "summarize", files: "files" });
    const commonAncestor = (id: string): string | null => plain.findCommonAncestor(plain.getLeafId() ?? "", id);
    const target: ConclusionsTarget = {
      isOnCurrentBranch: (id) => commonAncestor(id) === id,
      commonAncestor,
      bringConclusions: async () => ({ kind: "failed", error: "not summarized here" }),
    };
    await runBringFlow(target, ui, other, {
      view: plain,
      checkpoints: s.checkpoints,
      ui: new FakeRestoreUi(),
      lock: new FilesLock(),
    });
    assert.ok(!ui.calls.includes("files?"), `no file question: ${ui.calls.join(", ")}`);
  });
});

describe("the compare tab's files section", { timeout: 120_000 }, () => {
  it("lists the files that differ between the two points and opens the diff of a listed file only", async () => {
    s = await checkpointSession();
    const opened: [CheckpointFileRef, CheckpointFileRef, string][] = [];
    const files = new CheckpointCompareFiles({
      view: s.sm,
      checkpoints: async () => s?.checkpoints,
      openDiff: async (left, right, title) => void opened.push([left, right, title]),
    });
    // Left: the current leaf (branch B); right: branch A's reply.
    assert.deepEqual(await files.changedFiles(s.ids.f2, s.ids.f1), [
      { path: "a.txt", change: "modified" },
      { path: "b.txt", change: "added" },
    ]);
    await files.openDiff(s.ids.f2, s.ids.f1, "../outside.txt");
    assert.equal(opened.length, 0, "a path the section did not list opens nothing");
    await files.openDiff(s.ids.f2, s.ids.f1, "a.txt");
    const [left, right, title] = opened[0];
    assert.equal(title, "a.txt (compared branches)");
    assert.equal(await checkpointDocumentText(s.checkpoints, left), "B1\n");
    assert.equal(await checkpointDocumentText(s.checkpoints, right), "A1\n");
    await files.openDiff(s.ids.f2, s.ids.f1, "b.txt");
    assert.equal(await checkpointDocumentText(s.checkpoints, opened[1][0]), "", "added: the left side is empty");
    assert.equal(await checkpointDocumentText(s.checkpoints, opened[1][1]), "B\n");

    // Two points of the same branch with the same files: known, and nothing differs.
    assert.deepEqual(await files.changedFiles(s.ids.r2, s.ids.f2), []);
  });

  it("has no section without checkpoints at both points, or without checkpoints at all", async () => {
    s = await checkpointSession();
    const plain = SessionManager.inMemory(s.ws);
    const a = plain.appendMessage(user("a"));
    const b = plain.appendMessage(user("b"));
    const noEntries = new CheckpointCompareFiles({
      view: plain,
      checkpoints: async () => s?.checkpoints,
      openDiff: async () => undefined,
    });
    assert.equal(await noEntries.changedFiles(a, b), undefined);
    const noStore = new CheckpointCompareFiles({
      view: s.sm,
      checkpoints: async () => undefined,
      openDiff: async () => undefined,
    });
    assert.equal(await noStore.changedFiles(s.ids.f2, s.ids.f1), undefined);
  });

  it("multi-root: paths carry the folder's name", async () => {
    s = await checkpointSession({ multiRoot: true });
    const files = new CheckpointCompareFiles({
      view: s.sm,
      checkpoints: async () => s?.checkpoints,
      openDiff: async () => undefined,
    });
    assert.deepEqual(await files.changedFiles(s.ids.f2, s.ids.f1), [
      { path: "ws/a.txt", change: "modified" },
      { path: "ws/b.txt", change: "added" },
      { path: "other/c.txt", change: "modified" },
    ]);
  });
});
