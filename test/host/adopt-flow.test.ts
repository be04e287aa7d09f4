/**
 * Adopt This Branch lists the files it will change before changing any (src/host/parallel/adopt-flow.ts), with a
 * scripted UI over the real checkpoint engine (git in temp folders). The session (checkpoint-session.ts): branch A
 * wrote a.txt = A1 and b.txt = B from a.txt = v0; the workspace holds branch B's a.txt = B1. Adopting branch A
 * from the node both started at brings b.txt and conflicts on a.txt.
 */
import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import type { BringFilesQuestion } from "../../src/host/compare/bring-files.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import { adoptBranchFiles, type AdoptUi } from "../../src/host/parallel/adopt-flow.js";
import { checkpointSession, type CheckpointSession } from "./checkpoint-session.js";
import { FakeRestoreUi } from "./fake-restore-ui.js";

let s: CheckpointSession | undefined;
afterEach(() => s?.cleanup());

/** A scripted AdoptUi: answers `agree`, and records the question and the files on disk when it was asked. */
function adoptUi(session: CheckpointSession, agree: boolean) {
  const asked: { question: BringFilesQuestion; a: string | undefined; b: string | undefined }[] = [];
  const statuses: string[] = [];
  const ui: AdoptUi = {
    confirmFiles: async (question) => {
      asked.push({ question, a: session.read("a.txt"), b: session.read("b.txt") });
      return agree;
    },
    showInfo: (text) => void statuses.push(text),
    status: (text) => void statuses.push(text),
  };
  return { ui, asked, statuses };
}

function deps(session: CheckpointSession) {
  return { view: session.sm, checkpoints: session.checkpoints, ui: new FakeRestoreUi(), lock: new FilesLock() };
}

const LISTED: BringFilesQuestion = {
  summary:
    "That branch changed 2 files since the common ancestor. 1 of them conflicts with your files: " +
    "the other branch's version does not go in cleanly there.",
  lines: ["a.txt (conflict: both changed it)", "b.txt (added)"],
};

describe("Adopt This Branch: the files it will change, before it changes them", { timeout: 120_000 }, () => {
  it("lists every file and what happens to it while no file has changed; cancelling changes nothing", async () => {
    s = await checkpointSession();
    const { ui, asked, statuses } = adoptUi(s, false);
    const outcome = await adoptBranchFiles(deps(s), s.ids.cp0, s.ids.f1, ui);
    assert.deepEqual(outcome, { kind: "stopped" });
    assert.deepEqual(
      asked,
      [{ question: LISTED, a: "B1\n", b: undefined }],
      "asked first, with the files as they were",
    );
    assert.equal(s.read("a.txt"), "B1\n");
    assert.equal(s.read("b.txt"), undefined);
    assert.deepEqual(statuses, ["Adopt cancelled; nothing changed."]);
  });

  it("Adopt brings the listed changes in: the added file, and the conflict marked", async () => {
    s = await checkpointSession();
    const { ui, asked } = adoptUi(s, true);
    const outcome = await adoptBranchFiles(deps(s), s.ids.cp0, s.ids.f1, ui);
    assert.equal(asked.length, 1);
    assert.equal(outcome.kind, "brought");
    assert.equal(s.read("b.txt"), "B\n");
    assert.match(s.read("a.txt") ?? "", /<<<<<<< current\nB1\n=======\nA1\n>>>>>>> other branch/);
    assert.deepEqual(outcome.kind === "brought" ? outcome.conflicts.map((c) => c.shown) : [], [
      "a.txt (conflict: both changed it)",
    ]);
  });

  it("a branch with nothing to bring asks nothing and changes nothing", async () => {
    s = await checkpointSession();
    const { ui, asked } = adoptUi(s, true);
    // Branch B's own changes are the workspace's already.
    const outcome = await adoptBranchFiles(deps(s), s.ids.cp0, s.ids.f2, ui);
    assert.deepEqual(outcome, { kind: "none" });
    assert.deepEqual(asked, []);
    assert.equal(s.read("a.txt"), "B1\n");
  });
});
