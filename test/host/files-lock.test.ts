/**
 * One lock on the workspace's files: the file restore of a branch switch and Restore Files to This Point (or Undo
 * File Restore) never run at once. Over the real core: checkpoints the real engine recorded, a real branch switch.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { RestoreAnswer, RestoreQuestion } from "../../src/host/checkpoints/file-restore.js";
import { restoreFilesTo, undoFileRestore } from "../../src/host/checkpoints/file-restore.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import { RestoreOnSwitch } from "../../src/host/checkpoints/restore-on-switch.js";
import { checkpointSession, switchBranch, type CheckpointSession } from "./checkpoint-session.js";
import { FakeRestoreUi } from "./fake-restore-ui.js";

let s: CheckpointSession | undefined;
afterEach(() => s?.cleanup());

/** A restore UI whose question stays open until `answer` is called: an operation caught in the middle. */
class HeldRestoreUi extends FakeRestoreUi {
  private open: ((a: RestoreAnswer | undefined) => void) | undefined;
  readonly asked: Promise<void>;
  private wasAsked!: () => void;

  constructor() {
    super();
    this.asked = new Promise((ok) => (this.wasAsked = ok));
  }

  override confirmRestore(question: RestoreQuestion): Promise<RestoreAnswer | undefined> {
    this.questions.push(question);
    this.wasAsked();
    return new Promise((ok) => (this.open = ok));
  }

  answer(a: RestoreAnswer | undefined): void {
    this.open?.(a);
  }
}

describe("one lock on the workspace's files", { timeout: 120_000 }, () => {
  it("Restore Files to This Point cannot start while a branch switch restores files, and runs after it", async () => {
    s = await checkpointSession();
    const lock = new FilesLock();
    const switchUi = new HeldRestoreUi();
    const files = new RestoreOnSwitch({ view: s.sm, checkpoints: s.checkpoints, setting: "ask", ui: switchUi, lock });
    const switching = switchBranch(s, s.ids.f1, files);
    await switchUi.asked;

    const rowUi = new FakeRestoreUi({ answer: "restore" });
    assert.equal(await restoreFilesTo({ view: s.sm, checkpoints: s.checkpoints, ui: rowUi, lock }, s.ids.f2), "busy");
    assert.deepEqual(rowUi.infos, ["A branch switch is already in progress."]);
    assert.equal(rowUi.questions.length, 0, "the second restore asked nothing and touched no file");
    const undoUi = new FakeRestoreUi();
    assert.equal(await undoFileRestore(undoUi, s.checkpoints, lock), "busy");

    switchUi.answer("restore");
    assert.equal((await switching).kind, "moved");
    assert.equal(s.read("a.txt"), "A1\n", "the switch's restore ran alone");
    assert.equal(lock.heldBy, undefined, "the switch let go of the files");
    assert.equal(
      await restoreFilesTo({ view: s.sm, checkpoints: s.checkpoints, ui: rowUi, lock }, s.ids.f2),
      "restored",
    );
    assert.equal(s.read("a.txt"), "B1\n");
  });

  it("a branch switch whose files follow does not start while Restore Files to This Point runs", async () => {
    s = await checkpointSession();
    const lock = new FilesLock();
    const rowUi = new HeldRestoreUi();
    const restoring = restoreFilesTo({ view: s.sm, checkpoints: s.checkpoints, ui: rowUi, lock }, s.ids.f1);
    await rowUi.asked;

    const switchUi = new FakeRestoreUi({ answer: "restore" });
    const files = new RestoreOnSwitch({ view: s.sm, checkpoints: s.checkpoints, setting: "ask", ui: switchUi, lock });
    const leaf = s.sm.getLeafId();
    const outcome = await switchBranch(s, s.ids.f1, files);
    assert.equal(outcome.kind, "dismissed");
    assert.equal(s.sm.getLeafId(), leaf, "neither the files nor the leaf moved");
    assert.deepEqual(switchUi.infos, ["A file restore is already in progress."]);
    assert.equal(switchUi.questions.length, 0);

    rowUi.answer(undefined);
    assert.equal(await restoring, "cancelled");
    assert.equal(lock.heldBy, undefined);
  });
});
