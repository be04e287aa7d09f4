/** The router: refusals are logged and go nowhere; valid messages reach the right action. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { routeWebviewMessage, type RouterDeps } from "../../src/host/views/message-router.js";
import type { AgentWebviewView } from "../../src/host/views/webview-view.js";

function setup(opts: { attachOnReady?: boolean; throwing?: boolean } = {}) {
  const calls: string[] = [];
  const logs: string[] = [];
  const rec =
    (name: string) =>
    (...args: unknown[]): void => {
      if (opts.throwing) throw new Error(`${name} exploded`);
      calls.push(`${name}(${args.map((a) => JSON.stringify(a)).join(",")})`);
    };
  const deps = {
    controller: {
      hasEntry: (id: string) => id === "e1",
      pushTree: rec("pushTree"),
      chatViewLoaded: rec("chatViewLoaded"),
      pushOlderChat: rec("pushOlderChat"),
      approvals: { answer: rec("answer") },
      editQueuedMessage: rec("editQueuedMessage"),
      removeQueuedMessage: rec("removeQueuedMessage"),
    },
    // The hover's text is read straight; whatever acts — a click, Stop — runs its operation of the table.
    actions: { entryText: rec("entryText") },
    operations: { run: rec("run") },
    models: { select: rec("select"), setThinkingLevel: rec("setThinkingLevel") },
    // No branch runs, none is watched (test/host/branch-watch.test.ts: the watch itself).
    watch: { active: false, branchId: "b1", reset: rec("watchReset") },
    chatInput: {
      submit: rec("chatSubmit"),
      complete: rec("complete"),
      dropFiles: rec("dropFiles"),
      viewReady: rec("chatInputReady"),
    },
    archived: { set: rec("showArchived") },
    openDiff: async (m: unknown) => rec("openDiff")(m),
    log: { warn: (m: string) => logs.push(`warn:${m}`), error: (m: string) => logs.push(`error:${m}`) },
    ensureSession: async () => opts.attachOnReady === true,
    runCommand: async (c: string) => rec("command")(c),
  } as unknown as RouterDeps;
  const view = {
    kind: "tree",
    markReady: () => calls.push("markReady"),
    focus: async () => void calls.push("focusView"),
  } as unknown as AgentWebviewView;
  return { deps, view, calls, logs };
}

test("invalid messages are logged and dispatch nothing", async () => {
  const { deps, view, calls, logs } = setup();
  for (const raw of [
    null,
    { type: "tree/navigate", entryId: "zzz" },
    { type: "evil" },
    { type: "chat/submit", text: 5 },
  ]) {
    await routeWebviewMessage(raw, view, deps);
  }
  assert.deepEqual(calls, []);
  assert.equal(logs.length, 4);
  assert.ok(logs.every((l) => l.startsWith("warn:Ignored a message from the tree view")));
});

test("ready marks the view and sends its snapshot, unless the session was just opened", async () => {
  const a = setup();
  await routeWebviewMessage({ type: "ready", view: "tree" }, a.view, a.deps);
  assert.deepEqual(a.calls, ["markReady", "pushTree()"]);
  const b = setup({ attachOnReady: true });
  await routeWebviewMessage({ type: "ready", view: "tree" }, b.view, b.deps);
  assert.deepEqual(b.calls, ["markReady"]);
  // A (re)loaded chat holds nothing: the controller starts its window afresh, and the input gets what it missed.
  const c = setup();
  await routeWebviewMessage({ type: "ready", view: "chat" }, { ...c.view, kind: "chat" } as AgentWebviewView, c.deps);
  assert.deepEqual(c.calls, ["markReady", "chatInputReady()", "watchReset()", "chatViewLoaded()"]);
});

test("valid messages reach their actions", async () => {
  const { deps, view, calls } = setup();
  const msgs = [
    { type: "tree/navigate", entryId: "e1" },
    { type: "tree/navigate", entryId: "e1", mode: "none" },
    { type: "tree/requestText", requestId: 3, entryId: "e1" },
    { type: "tree/showArchived", show: true },
    { type: "tree/action", command: "agentTree.labelEntry", entryId: "e1" },
    { type: "tree/action", command: "agentTree.copyText", entryId: "e1" },
    { type: "tree/action", command: "agentTree.summarizeAndSwitchHere", entryId: "e1" },
    { type: "chat/submit", text: "hi" },
    { type: "chat/submit", text: "@a", mentions: [{ label: "@a", path: "a", root: "/w" }] },
    { type: "chat/complete", requestId: 5, trigger: "@", query: "ap" },
    { type: "chat/dropFiles", uris: ["file:///w/b.ts"] },
    { type: "chat/requestOlder", requestId: 4, before: 60, beforeId: "e1" },
    { type: "chat/abort" },
    { type: "chat/approve", toolCallId: "c", approved: true, always: true },
    { type: "chat/selectModel", key: "fake/m" },
    { type: "command", command: "compact" },
    { type: "chat/queue", kind: "steer", text: "now" },
    { type: "chat/queueEdit", id: "q1", text: "later" },
    { type: "chat/queueRemove", id: "q2" },
    { type: "chat/selectThinkingLevel", level: "xhigh" },
    { type: "chat/openDiff", toolCallId: "c" },
    { type: "chat/openDiff", file: 2 },
    { type: "chat/approve", toolCallId: "d", approved: true, allInRun: true },
    { type: "chat/approve", toolCallId: "e", approved: true, inWorkspace: true },
    { type: "chat/watchAction", action: "stop" },
    { type: "chat/watchAction", action: "back" },
    { type: "chat/watchAction", action: "switch" },
    { type: "chat/continueAside", asideId: "e1" },
  ];
  for (const m of msgs) await routeWebviewMessage(m, view, deps);
  assert.deepEqual(calls, [
    'run("agentTree.goToEntry","e1")',
    'run("agentTree.switchHere","e1")',
    'entryText(3,"e1")',
    "showArchived(true)",
    'run("agentTree.labelEntry","e1")',
    'run("agentTree.copyText","e1")',
    'run("agentTree.summarizeAndSwitchHere","e1")',
    'chatSubmit("hi",,)',
    'chatSubmit("@a",[{"label":"@a","path":"a","root":"/w"}],)',
    'complete(5,"@","ap")',
    'dropFiles(["file:///w/b.ts"])',
    'pushOlderChat(4,60,"e1")',
    'run("agentTree.abort")',
    'answer("c",true,true,false,false)',
    'select("fake/m")',
    'command("compact")',
    'chatSubmit("now",,,"steer")',
    'editQueuedMessage("q1","later")',
    'removeQueuedMessage("q2")',
    'setThinkingLevel("xhigh")',
    'openDiff({"type":"chat/openDiff","toolCallId":"c"})',
    'openDiff({"type":"chat/openDiff","file":2})',
    'answer("d",true,false,true,false)',
    'answer("e",true,false,false,true)',
    'run("agentTree.stopBranch","b1")',
    'run("agentTree.backToMyBranch")',
    'run("agentTree.switchToWatchedBranch")',
    'run("agentTree.continueAsBranch","e1")',
  ]);
});

test("an action that throws is logged, not propagated", async () => {
  const { deps, view, logs } = setup({ throwing: true });
  await routeWebviewMessage({ type: "chat/abort" }, view, deps);
  assert.equal(logs.length, 1);
  assert.match(logs[0], /^error:Handling chat\/abort failed: .*run exploded/);
});

test("a toolbar command that asks in the workbench gives the focus back to its view once it closed; others do not", async () => {
  const { deps, calls } = setup();
  const chat = { kind: "chat", focus: async () => void calls.push("focusChat") } as unknown as AgentWebviewView;
  for (const command of ["selectModel", "openSession", "setApiKey", "exportHtml"]) {
    calls.length = 0;
    await routeWebviewMessage({ type: "command", command }, chat, deps);
    assert.deepEqual(calls, [`command("${command}")`, "focusChat"], command);
  }
  for (const command of ["compact", "newSession", "togglePlanMode"]) {
    calls.length = 0;
    await routeWebviewMessage({ type: "command", command }, chat, deps);
    assert.deepEqual(calls, [`command("${command}")`], command);
  }
});
