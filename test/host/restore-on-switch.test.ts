/**
 * Files follow a branch switch: the navigate flow with a fake editor UI over the real core — a SessionManager
 * whose checkpoints the real engine recorded (git in temp folders) and AgentSession.navigateTree. Every case
 * checks the files on disk and the leaf together: both move, or neither does.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, it } from "node:test";
import { nodeRestoreFileSystem, type RestoreFileSystem } from "../../src/core/checkpoints/index.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import type { NavigateMode } from "../../src/host/tree/navigate-flow.js";
import { RestoreOnSwitch, type RestoreOnSwitchSetting } from "../../src/host/checkpoints/restore-on-switch.js";
import { checkpointSession, switchBranch, type CheckpointSession } from "./checkpoint-session.js";
import { FakeNavigateUi, type FakeUiScript } from "./fake-navigate-ui.js";
import { FakeRestoreUi, type FakeRestoreScript } from "./fake-restore-ui.js";

let s: CheckpointSession | undefined;
afterEach(() => s?.cleanup());

/** Files that follow a switch in `session` as `setting` says, asking `ui`, with a files lock of their own. */
function restoreOnSwitch(
  session: CheckpointSession,
  setting: RestoreOnSwitchSetting,
  ui: FakeRestoreUi,
): RestoreOnSwitch {
  return new RestoreOnSwitch({
    view: session.sm,
    checkpoints: session.checkpoints,
    setting,
    ui,
    lock: new FilesLock(),
  });
}

async function switchTo(
  session: CheckpointSession,
  targetId: string,
  setting: RestoreOnSwitchSetting,
  script: FakeRestoreScript,
  nav: FakeUiScript = { choice: "none" },
  mode: NavigateMode = "ask",
): Promise<{ kind: string; ui: FakeRestoreUi; navUi: FakeNavigateUi }> {
  const ui = new FakeRestoreUi(script);
  const navUi = new FakeNavigateUi(nav);
  const outcome = await switchBranch(session, targetId, restoreOnSwitch(session, setting, ui), navUi, mode);
  return { kind: outcome.kind, ui, navUi };
}

describe("files follow a branch switch", { timeout: 120_000 }, () => {
  it('"ask": the question lists the files; restoring brings back the other branch\'s files and moves the leaf', async () => {
    s = await checkpointSession();
    assert.equal(s.read("a.txt"), "B1\n");
    const r = await switchTo(s, s.ids.f1, "ask", { answer: "restore" });
    assert.equal(r.kind, "moved");
    assert.equal(s.sm.getLeafId(), s.ids.f1);
    assert.equal(s.read("a.txt"), "A1\n");
    assert.equal(s.read("b.txt"), "B\n");
    assert.equal(r.ui.questions.length, 1);
    const q = r.ui.questions[0];
    assert.equal(q.offerKeep, true);
    assert.equal(q.summary, "2 files would change.");
    assert.deepEqual(q.lines.toSorted(), ["a.txt (changed back)", "b.txt (brought back)"]);
    assert.deepEqual(r.ui.restoredMessages, ["Restored 2 files to this point."]);
    // The summary question came first, then the files.
    assert.deepEqual(r.navUi.calls, ["pick"]);

    // Back to the first prompt (a user message: the leaf goes to its parent, the text to the input).
    const back = await switchTo(s, s.ids.u1, "ask", { answer: "restore" });
    assert.equal(back.kind, "moved");
    assert.equal(s.sm.getLeafId(), s.ids.cp0);
    assert.equal(s.read("a.txt"), "v0\n");
    assert.equal(s.read("b.txt"), undefined, "a file created later is removed");
    assert.deepEqual(back.ui.questions[0].lines.toSorted(), ["a.txt (changed back)", "b.txt (removed)"]);
  });

  it('"Keep current files" moves the leaf and leaves the files; dismissing the question changes nothing', async () => {
    s = await checkpointSession();
    const dismissed = await switchTo(s, s.ids.f1, "ask", {});
    assert.equal(dismissed.kind, "dismissed");
    assert.equal(s.sm.getLeafId(), s.ids.f2);
    assert.equal(s.read("a.txt"), "B1\n");

    const kept = await switchTo(s, s.ids.f1, "ask", { answer: "keep" });
    assert.equal(kept.kind, "moved");
    assert.equal(s.sm.getLeafId(), s.ids.f1);
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
    assert.deepEqual(kept.ui.restoredMessages, []);
  });

  it('"always" restores without asking; "never" neither asks nor touches a file', async () => {
    s = await checkpointSession();
    const never = await switchTo(s, s.ids.f1, "never", { answer: "restore" });
    assert.equal(never.kind, "moved");
    assert.deepEqual(never.ui.calls, []);
    assert.equal(s.read("a.txt"), "B1\n");

    const always = await switchTo(s, s.ids.f2, "always", {});
    assert.equal(always.kind, "moved");
    assert.equal(always.ui.questions.length, 0);
    assert.equal(s.sm.getLeafId(), s.ids.f2);
    assert.equal(s.read("a.txt"), "B1\n", "f2's files (they were already there)");
    const again = await switchTo(s, s.ids.r1, "always", {});
    assert.equal(again.kind, "moved");
    assert.equal(s.read("a.txt"), "A1\n", "a tool result row holds the files right after its tool ran");
    assert.deepEqual(again.ui.restoredMessages, ["Restored 2 files to this point."]);
  });

  it("no question when the files already match the target", async () => {
    s = await checkpointSession();
    // r2 and f2 hold the same files.
    const r = await switchTo(s, s.ids.r2, "ask", { answer: "restore" });
    assert.equal(r.kind, "moved");
    assert.deepEqual(r.ui.questions, []);
    assert.deepEqual(r.ui.restoredMessages, []);
  });

  it("a cancelled summary puts the files back: neither the files nor the leaf move", async () => {
    s = await checkpointSession();
    const count = s.sm.getEntryCount();
    const r = await switchTo(s, s.ids.f1, "ask", { answer: "restore" }, { choice: "summarize", cancelProgress: true });
    assert.equal(r.kind, "aborted");
    assert.equal(s.sm.getLeafId(), s.ids.f2);
    assert.equal(s.sm.getEntryCount(), count);
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
    assert.ok(r.ui.progressTitles.includes("Putting the files back…"), r.ui.progressTitles.join(", "));
    assert.deepEqual(r.ui.restoredMessages, []);
  });

  it("a cancelled or failing restore leaves the leaf where it was", async () => {
    s = await checkpointSession();
    const cancelled = await switchTo(s, s.ids.f1, "always", { cancelProgress: true });
    assert.equal(cancelled.kind, "dismissed");
    assert.equal(s.sm.getLeafId(), s.ids.f2);
    assert.equal(s.read("a.txt"), "B1\n");
    s.cleanup();

    // A write that fails half-way: the engine rolls back, the branch switch does not happen.
    let renames = 0;
    const failing: RestoreFileSystem = {
      ...nodeRestoreFileSystem,
      rename: async (from, to) => {
        if (++renames === 2) throw new Error("disk full");
        return nodeRestoreFileSystem.rename(from, to);
      },
    };
    s = await checkpointSession({ restoreFs: failing });
    renames = 0;
    const failed = await switchTo(s, s.ids.f1, "ask", { answer: "restore" });
    assert.equal(failed.kind, "dismissed");
    assert.equal(s.sm.getLeafId(), s.ids.f2);
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
    assert.equal(failed.ui.errors.length, 1);
    assert.match(
      failed.ui.errors[0],
      /Restoring files failed, so the branch was not switched: .*disk full.*No file was changed\./,
    );
  });

  it("unsaved editor changes are never overwritten silently: cancel, save and include, or discard", async () => {
    s = await checkpointSession();
    const a = path.join(s.ws, "a.txt");
    const session = s;
    const run = async (ui: FakeRestoreUi, setting: RestoreOnSwitchSetting, target: string): Promise<string> => {
      return (await switchBranch(session, target, restoreOnSwitch(session, setting, ui))).kind;
    };

    const cancel = new FakeRestoreUi({ answer: "restore" });
    cancel.editors.set(a, "unsaved B2\n");
    assert.equal(await run(cancel, "ask", s.ids.f1), "dismissed");
    assert.match(cancel.questions[0].summary, /1 of them has unsaved changes/);
    assert.deepEqual(cancel.dirtyAsked, [[a]]);
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.sm.getLeafId(), s.ids.f2);

    // Save and include: the unsaved text is saved first, so the pre-restore checkpoint holds it and undo brings
    // it back. "always" does not ask about the restore, but still about the unsaved file.
    const save = new FakeRestoreUi({ dirty: "save" });
    save.editors.set(a, "unsaved B2\n");
    assert.equal(await run(save, "always", s.ids.f1), "moved");
    assert.deepEqual(
      save.calls.filter((c) => c !== "progress"),
      ["dirty", "save"],
    );
    assert.equal(s.read("a.txt"), "A1\n");
    await s.checkpoints.undoRestore();
    assert.equal(s.read("a.txt"), "unsaved B2\n", "undo brings back what was saved");

    // Discard: the restore goes ahead and the editor is reverted once the leaf moved.
    const discard = new FakeRestoreUi({ answer: "restore", dirty: "discard" });
    discard.editors.set(a, "more unsaved\n");
    assert.equal(await run(discard, "ask", s.ids.u1), "moved");
    assert.equal(s.read("a.txt"), "v0\n");
    assert.deepEqual(discard.reverted, [a]);
  });

  it("multi-root: each folder is restored", async () => {
    s = await checkpointSession({ multiRoot: true });
    const other = s.other as string;
    const c = (): string => fs.readFileSync(path.join(other, "c.txt"), "utf8");
    assert.equal(c(), "c0\n");
    const r = await switchTo(s, s.ids.f1, "ask", { answer: "restore" });
    assert.equal(r.kind, "moved");
    assert.equal(s.read("a.txt"), "A1\n");
    assert.equal(c(), "cA\n");
    assert.ok(r.ui.questions[0].lines.includes("other/c.txt (changed back)"), r.ui.questions[0].lines.join("; "));
    await s.checkpoints.undoRestore();
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(c(), "c0\n", "undo puts every folder back");
  });
});
