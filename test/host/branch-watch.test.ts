/**
 * Watching a running parallel branch in the chat (src/host/parallel/branch-watch.ts), with real branch runs against
 * the fake streaming server: a click on a row of a running branch goes through the router and the operations table
 * and watches it — the leaf does not move, the chat gets the branch's path and its reply as it streams, the main
 * branch's chat posts wait; when the branch ends the banner offers the switch to its newest entry; Back (or any
 * move of the leaf) shows the main branch again.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runBranch } from "../../src/core/parallel/branch-run.js";
import type { SessionWork } from "../../src/core/agent/session-runs.js";
import type { BranchEvent } from "../../src/core/parallel/branch-run.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { routeWebviewMessage, type RouterDeps } from "../../src/host/views/message-router.js";
import { BranchWatch, STILL_RUNNING_TEXT } from "../../src/host/parallel/branch-watch.js";
import { RunningBranches } from "../../src/host/parallel/running-branches.js";
import type { AgentWebviewView } from "../../src/host/views/webview-view.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import type { FakeReply, FakeRequestBody } from "../util/fake-provider-common.js";
import { newAgent, openAIModel } from "../core/agent/helpers.js";
import { assistant, user } from "../util/session-builder.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { requestTexts } from "../core/parallel/helpers.js";
import { callText, freeState, operationsOver, recordingActions } from "./operations-harness.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

/** A branch asked "SLOW" streams its answer in many chunks; "FAST" answers at once. */
function replies(body: FakeRequestBody): FakeReply {
  const text = requestTexts(body).join("\n");
  if (text.includes("SLOW")) return { text: "streamed word ".repeat(30), chunks: 30, chunkDelayMs: 40 };
  return { text: "a quick answer" };
}

/** A session with one turn, a watch over it, the chat's posts, and one branch started from the turn's reply. */
async function setUp() {
  const sm = await SessionManager.create(tmp.dir, tmp.dir);
  sm.appendMessage(user("start"));
  const node = sm.appendMessage(assistant("ok"));
  fake.setDefault(replies);
  const posts: HostToWebview[] = [];
  const said: string[] = [];
  let mainShown = 0;
  // Which branches run, their events and how they ended: the session's run registry, as the extension wires it.
  const running: RunningBranches = new RunningBranches({
    watcher: { event: (id, e) => watch.event(id, e), ended: (id, state, error) => watch.ended(id, state, error) },
  });
  const watch: BranchWatch = new BranchWatch({
    session: () => sm,
    runningBranchOf: (entryId) => running.runningBranchOf(entryId),
    postChat: (m) => void posts.push(m),
    showMain: () => void mainShown++,
    notify: { info: (t) => void said.push(t) },
  });
  // Every branch of the test: from the node, no tools, the fake model.
  const session = newAgent(sm).agent;
  running.attach(session);
  const from = { session, parentId: node, kind: "explore", groupId: "g", tools: [], cwd: tmp.dir } as const;
  const start = (prompt: string, label: string, signal?: AbortSignal) => {
    let branchId: string | undefined;
    let firstUpdate: () => void = () => undefined;
    const streaming = new Promise<void>((resolve) => (firstUpdate = resolve));
    const outcome = runBranch({
      ...from,
      prompt,
      label,
      model: openAIModel(fake),
      ...(signal ? { signal } : {}),
      onEvent: (e: BranchEvent) => {
        if (e.type === "branch_entry" && branchId === undefined) branchId = e.entryId;
        if (e.type === "message_update") firstUpdate();
      },
    });
    return { outcome, streaming, id: () => branchId as string };
  };
  return { sm, node, posts, said, watch, start, mainShown: () => mainShown };
}

/** The router and the operations table with the real watch, and recording fakes for every other action. */
function router(watch: BranchWatch, calls: string[]) {
  const actions = recordingActions(calls, {}, { watch });
  // The main agent streams meanwhile: the leaf is busy at every entry of the current path.
  const reply: SessionWork = { kind: "run", place: "leaf", label: "a reply", firstEntryId: undefined };
  // What the table says (a refusal) lands in `calls` too: the test asserts that nothing ran and nothing was said.
  const operations = operationsOver(actions, freeState({ busyAt: () => reply, busyWithin: () => reply }), calls);
  const log = (m: string): void => void calls.push(callText("log", [m]));
  const deps = {
    controller: { hasEntry: () => true },
    actions: actions.actions,
    operations,
    watch,
    log: { warn: log, error: log },
  } as unknown as RouterDeps;
  const view = { kind: "tree" } as unknown as AgentWebviewView;
  return (msg: unknown) => routeWebviewMessage(msg, view, deps);
}

const watches = (posts: HostToWebview[]) =>
  posts.filter((m): m is Extract<HostToWebview, { type: "chat/watch" }> => m.type === "chat/watch");

describe("watching a running parallel branch", { timeout: 60_000 }, () => {
  it("a click on a running branch's row watches it: no move, its path and its streaming reply in the chat", async () => {
    const { sm, node, posts, watch, start, mainShown } = await setUp();
    const branch = start("SLOW: take your time", "Branch 2 of 3");
    await branch.streaming;
    const calls: string[] = [];
    const route = router(watch, calls);
    // The main agent streams meanwhile (busy at the leaf): a move would be refused, the watch reads only.
    await route({ type: "tree/navigate", entryId: branch.id(), mode: "ask" });
    assert.deepEqual(calls, [], "no move, no refusal");
    assert.equal(sm.getLeafId(), node, "the leaf stayed");
    assert.equal(watch.active, true);
    assert.deepEqual(watches(posts)[0].branch, {
      branchId: branch.id(),
      label: "Branch 2 of 3",
      state: "running",
    });
    const snapshot = posts.find((m) => m.type === "chat/snapshot");
    assert.ok(snapshot?.type === "chat/snapshot");
    assert.equal(snapshot.streaming, true);
    assert.deepEqual(
      snapshot.messages.map((m) => m.text),
      ["start", "ok", "SLOW: take your time"],
      "the branch's path, root to its newest entry",
    );
    // The main branch's own posts wait while the branch is shown; status lines do not.
    assert.equal(watch.mainMayPost({ type: "chat/streaming", streaming: true }), false);
    assert.equal(watch.mainMayPost({ type: "status", text: "x", kind: "info" }), true);
    assert.equal(
      watch.mainMayPost({ type: "chat/approval", toolCallId: "c1", toolName: "bash", summary: "ls" }),
      true,
      "the main agent's questions still show: it waits for the user",
    );

    const outcome = await branch.outcome;
    assert.equal(outcome.state, "done", outcome.error);
    const streamed = posts.filter(
      (m) =>
        (m.type === "chat/message" && m.message.id.startsWith("pending-")) ||
        (m.type === "chat/messageText" && m.id.startsWith("pending-")),
    );
    assert.ok(streamed.length >= 2, `the reply streamed into the chat (${streamed.length} updates)`);
    const stored = posts.filter((m) => m.type === "chat/message" && m.replaces !== undefined);
    assert.ok(stored.some((m) => m.type === "chat/message" && m.message.text.includes("streamed word")));
    assert.equal(sm.getLeafId(), node, "the leaf stayed while it ran");

    // Ended: the banner says so and offers the switch; the chat stops streaming.
    assert.equal(watches(posts).at(-1)?.branch?.state, "done");
    const last = posts.filter((m) => m.type === "chat/snapshot").at(-1);
    assert.ok(last?.type === "chat/snapshot" && last.streaming === false);
    assert.equal(mainShown(), 0, "the main branch was not shown meanwhile");

    // Back: the main branch again, as it is now.
    await route({ type: "chat/watchAction", action: "back" });
    assert.equal(watch.active, false);
    assert.equal(mainShown(), 1);
    assert.deepEqual(watches(posts).at(-1), { type: "chat/watch" });
    assert.equal(watch.mainMayPost({ type: "chat/streaming", streaming: false }), true);
    await sm.close();
  });

  it("a finished branch's banner switches to its newest entry; while it runs the switch waits", async () => {
    const { sm, posts, said, watch, start } = await setUp();
    const branch = start("SLOW: again", "Branch 1 of 2");
    await branch.streaming;
    watch.watch(branch.id());
    assert.equal(watch.leaveForSwitch(), undefined, "no switch while it runs");
    assert.deepEqual(said, [STILL_RUNNING_TEXT]);
    assert.equal(watch.active, true);
    const outcome = await branch.outcome;
    assert.equal(watch.leaveForSwitch(), outcome.tipId, "the switch goes to the branch's newest entry");
    assert.equal(watch.active, false);
    assert.deepEqual(watches(posts).at(-1), { type: "chat/watch" });
    await sm.close();
  });

  it("a stopped branch says so; a row of a branch that does not run is no watch; a move of the leaf ends the watch", async () => {
    const { sm, node, posts, said, watch, start, mainShown } = await setUp();
    const abort = new AbortController();
    const branch = start("SLOW: to be stopped", "Branch 3 of 3", abort.signal);
    await branch.streaming;
    watch.watch(branch.id());
    abort.abort();
    const outcome = await branch.outcome;
    assert.equal(outcome.state, "stopped");
    assert.equal(watches(posts).at(-1)?.branch?.state, "stopped");

    // Finished: its rows are ordinary rows now.
    assert.equal(watch.isRunningRow(branch.id()), false);
    watch.watch(node);
    assert.deepEqual(said, ["That row is not on a running branch."]);

    // Still watching the stopped one: a move of the leaf (the palette, Adopt) shows the main branch.
    assert.equal(watch.active, true);
    const fast = start("FAST", "Branch 1 of 1");
    await fast.outcome;
    assert.equal(watch.active, true, "another branch's entries are no move");
    sm.branch(outcome.tipId as string);
    assert.equal(watch.active, false);
    assert.equal(mainShown(), 1);
    await sm.close();
  });
});
