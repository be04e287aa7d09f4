/**
 * One busy: the operations table's guards ask the session's run registry (`busyAt`), per entry. With a real
 * AgentSession whose parallel branch and own reply stall against the fake model server: an operation is refused at
 * the running branch's entries — and below the entry it started from, for what would take the branch — and allowed
 * elsewhere; while the leaf's reply streams, moves are refused wherever they go; a move holds the leaf, so a click
 * meanwhile is refused with the move's own wording.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentSession } from "../../src/core/agent/agent-session.js";
import type { SessionManager } from "../../src/core/session/session-manager.js";
import { FilesLock } from "../../src/host/common/files-lock.js";
import { STREAMING_TEXT } from "../../src/host/common/guard-texts.js";
import { routeWebviewMessage, type RouterDeps } from "../../src/host/views/message-router.js";
import { sessionGuardState } from "../../src/host/operations/session-guard-state.js";
import { runningBranchAt } from "../../src/host/parallel/running-branches.js";
import type { SessionController } from "../../src/host/session/session-controller.js";
import type { AgentWebviewView } from "../../src/host/views/webview-view.js";
import { firstEntryOf, newAgent, openAIModel, sideBranchSession } from "../core/agent/helpers.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { callText, operationsOver, recordingActions } from "./operations-harness.js";

const fake = fakeServerForSuite();

/** The real table and guards over `agent`, with recording actions; `navigate` may be held open. */
function table(agent: AgentSession, sm: SessionManager) {
  const said: string[] = [];
  const calls: string[] = [];
  let hold: Promise<void> | undefined;
  const actions = recordingActions(calls, {
    navigate: async (...args: unknown[]): Promise<void> => {
      calls.push(callText("navigate", args));
      await hold;
    },
    // A click on a running branch's row watches it (the extension asks the registry as this does).
    isRunningRow: (id: string) => runningBranchAt(agent, id) !== undefined,
  });
  const controller = { agent, sessionManager: sm, readOnlyReason: () => undefined };
  const state = sessionGuardState(controller as unknown as SessionController, new FilesLock());
  const operations = operationsOver(actions, state, said, (id) => sm.hasEntry(id));
  const route = (msg: unknown) =>
    routeWebviewMessage(
      msg,
      { kind: "tree" } as unknown as AgentWebviewView,
      {
        controller: { hasEntry: (id: string) => sm.hasEntry(id) },
        operations,
        log: { warn: (m: string) => said.push(`log:${m}`), error: (m: string) => said.push(`log:${m}`) },
      } as unknown as RouterDeps,
    );
  return {
    operations,
    route,
    said,
    calls,
    holdMoves: (until: Promise<void>) => (hold = until),
    reset: () => {
      said.length = 0;
      calls.length = 0;
    },
  };
}

const BRANCH_RUNNING = "warn:Branch 1 of 2 is running there: stop it (Agent: Stop Branch) or wait for it first.";

describe("the guards ask the session what runs where", { timeout: 60_000 }, () => {
  it("an operation is refused while a branch runs at its entry, and allowed elsewhere", async () => {
    const { sm, ids } = sideBranchSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.setDefault(() => ({ stall: true }));
    const run = agent.startRun({ kind: "explore", label: "Branch 1 of 2", parentId: ids.a1, prompt: "go", tools: [] });
    const branchId = await firstEntryOf(run);
    const t = table(agent, sm);

    // At the running branch's entry: a move, Adopt, Fork, Archive are refused, with the branch named.
    for (const id of [
      "agentTree.switchHere",
      "agentTree.adoptBranch",
      "agentTree.forkHere",
      "agentTree.archiveBranch",
      "agentTree.deleteBranch",
    ] as const)
      await t.operations.run(id, branchId);
    assert.deepEqual(t.said, Array(5).fill(BRANCH_RUNNING));
    assert.deepEqual(t.calls, [], "nothing ran at the branch");

    // Elsewhere the same operations run: the leaf's path, the finished side branch, the node it started from.
    t.reset();
    await t.operations.run("agentTree.switchHere", ids.s2);
    await t.operations.run("agentTree.forkHere", ids.a1);
    await t.operations.run("agentTree.archiveBranch", ids.s1);
    await t.operations.run("agentTree.labelEntry", branchId);
    assert.deepEqual(t.said, []);
    assert.deepEqual(t.calls, [
      'navigate("' + ids.s2 + '","none")',
      `forkAt("${ids.a1}")`,
      `archive("${ids.s1}")`,
      `labelEntry("${branchId}")`,
    ]);

    // Archiving from above where it started would take the running branch: refused.
    t.reset();
    await t.operations.run("agentTree.archiveBranch", ids.a1);
    assert.deepEqual(t.said, [BRANCH_RUNNING]);

    // A click on its row watches it (no move); once it ended, the same click is a move.
    t.reset();
    await t.route({ type: "tree/navigate", entryId: branchId, mode: "ask" });
    assert.deepEqual(t.calls, [`watch("${branchId}")`]);
    run.stop();
    await run.done;
    t.reset();
    await t.route({ type: "tree/navigate", entryId: branchId, mode: "ask" });
    assert.deepEqual(t.said, []);
    assert.deepEqual(t.calls, [`navigate("${branchId}","ask")`]);
  });

  it("while the leaf's reply streams, a move is refused wherever it goes; labels, branches beside it are not", async () => {
    const { sm, ids } = sideBranchSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.setDefault(() => ({ stall: true }));
    const prompt = agent.prompt("a long one");
    assert.equal(agent.isStreaming, true);
    const t = table(agent, sm);
    await t.operations.run("agentTree.switchHere", ids.s2);
    await t.route({ type: "tree/navigate", entryId: ids.u1 });
    await t.operations.run("agentTree.compact");
    await t.operations.run("agentTree.restoreFilesHere", ids.s2);
    assert.deepEqual(t.said, Array(4).fill(`warn:${STREAMING_TEXT}`));
    await t.operations.run("agentTree.labelEntry", ids.s2);
    await t.operations.run("agentTree.archiveBranch", ids.s1);
    await t.operations.run("agentTree.exploreInParallel", ids.a2);
    assert.deepEqual(t.calls, [`labelEntry("${ids.s2}")`, `archive("${ids.s1}")`, `explore("${ids.a2}",)`]);
    agent.abort();
    await prompt;
  });

  it("a move holds the leaf: a click meanwhile is refused with the move's wording, and runs once it ended", async () => {
    const { sm, ids } = sideBranchSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    const t = table(agent, sm);
    let release: () => void = () => undefined;
    t.holdMoves(new Promise<void>((resolve) => (release = resolve)));
    const first = t.operations.run("agentTree.switchHere", ids.s2);
    await t.route({ type: "tree/navigate", entryId: ids.u1, mode: "ask" });
    assert.deepEqual(t.said, ["info:A branch switch is already in progress."]);
    assert.equal(agent.busyAt()?.label, "a branch switch");
    release();
    await first;
    assert.equal(agent.busyAt(), undefined, "the hold ended with the move");
    t.reset();
    await t.route({ type: "tree/navigate", entryId: ids.u1, mode: "ask" });
    assert.deepEqual(t.calls, [`navigate("${ids.u1}","ask")`]);
  });
});
