import { test } from "node:test";
import assert from "node:assert/strict";
import {
  ApprovalBroker,
  parseAutoApprove,
  summarizeToolCall,
  type AutoApprove,
} from "../../src/host/tools/tool-approval.js";

/** The policy asks after reading the rules (async): wait until the question is there. */
async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(cond(), "timed out waiting");
}

function setup(auto: AutoApprove = false) {
  const asked: string[] = [];
  const done: string[] = [];
  const broker = new ApprovalBroker(() => auto, {
    ask: (r, summary) => asked.push(`${r.toolCallId}:${summary}`),
    done: (id) => done.push(id),
  });
  return { broker, asked, done };
}

test("parseAutoApprove accepts true or a list of names, anything else asks", () => {
  assert.equal(parseAutoApprove(true), true);
  assert.deepEqual(parseAutoApprove(["bash", 3, "", "edit"]), ["bash", "edit"]);
  assert.equal(parseAutoApprove("yes"), false);
  assert.equal(parseAutoApprove(undefined), false);
});

test("auto-approve skips asking, for all tools or the listed ones", async () => {
  const all = setup(true);
  assert.deepEqual(await all.broker.policy({ toolCallId: "1", toolName: "bash", args: {} }), { approved: true });
  const some = setup(["edit"]);
  assert.deepEqual(await some.broker.policy({ toolCallId: "1", toolName: "edit", args: {} }), { approved: true });
  assert.deepEqual(some.asked, []);
  const pending = some.broker.policy({ toolCallId: "2", toolName: "bash", args: { command: "rm x" } });
  await until(() => some.asked.length > 0);
  assert.deepEqual(some.asked, ["2:Run: rm x"]);
  assert.equal(some.broker.answer("2", false), true);
  assert.deepEqual(await pending, { approved: false, reason: "denied by the user" });
  assert.deepEqual(some.done, ["2"]);
});

test("'Allow always' is remembered for the tool; unknown answers are ignored", async () => {
  const { broker, asked } = setup();
  const first = broker.policy({ toolCallId: "a", toolName: "write", args: { path: "f", content: "xyz" } });
  await until(() => asked.length > 0);
  assert.equal(broker.answer("nope", true), false);
  broker.answer("a", true, true);
  assert.deepEqual(await first, { approved: true });
  assert.deepEqual(await broker.policy({ toolCallId: "b", toolName: "write", args: {} }), { approved: true });
  assert.equal(asked.length, 1);
  assert.deepEqual(broker.alwaysAllowed(), ["write"]);
});

test("abort refuses a pending approval and hides it", async () => {
  const { broker, done } = setup();
  const ctl = new AbortController();
  const p = broker.policy({ toolCallId: "x", toolName: "bash", args: {} }, ctl.signal);
  await until(() => broker.pendingRequests().length === 1);
  ctl.abort();
  assert.deepEqual(await p, { approved: false, reason: "aborted" });
  assert.deepEqual(done, ["x"]);
  assert.equal(broker.pendingRequests().length, 0);
  assert.equal(broker.answer("x", true), false);
});

test("cancelAll refuses everything waiting", async () => {
  const { broker } = setup();
  const a = broker.policy({ toolCallId: "1", toolName: "bash", args: {} });
  const b = broker.policy({ toolCallId: "2", toolName: "edit", args: {} });
  await until(() => broker.pendingRequests().length === 2);
  broker.cancelAll();
  assert.deepEqual(await Promise.all([a, b]), [
    { approved: false, reason: "session closed" },
    { approved: false, reason: "session closed" },
  ]);
});

test("summaries name what the tool will do", () => {
  assert.equal(summarizeToolCall("edit", { path: "src/a.ts" }), "Edit src/a.ts");
  assert.equal(summarizeToolCall("write", { path: "b", content: "12345" }), "Write b (5 characters)");
  assert.equal(summarizeToolCall("grep", { pattern: "x" }), 'grep {"pattern":"x"}');
  assert.ok(summarizeToolCall("bash", { command: "y".repeat(1000) }).length <= 306);
});

test("tools that change nothing run without a question", async () => {
  const asked: string[] = [];
  const broker = new ApprovalBroker(
    () => false,
    { ask: (r) => asked.push(r.toolName), done: () => undefined },
    (name) => name !== "read",
  );
  assert.deepEqual(await broker.policy({ toolCallId: "1", toolName: "read", args: {} }), { approved: true });
  void broker.policy({ toolCallId: "2", toolName: "bash", args: {} });
  await until(() => asked.length > 0);
  assert.deepEqual(asked, ["bash"]);
  broker.cancelAll();
});

test("a rejected edit tells the model nothing was written; Accept All in This Run accepts writes and edits until the run ends", async () => {
  const { broker, asked } = setup();
  const rejected = broker.policy({ toolCallId: "e1", toolName: "edit", args: { path: "a" } });
  await until(() => asked.length === 1);
  broker.answer("e1", false);
  assert.deepEqual(await rejected, {
    approved: false,
    reason: "the user rejected this change after reviewing its diff; the file was not changed",
  });
  const first = broker.policy({ toolCallId: "w1", toolName: "write", args: { path: "a", content: "" } });
  const second = broker.policy({ toolCallId: "w2", toolName: "edit", args: { path: "b" } });
  const bash = broker.policy({ toolCallId: "b1", toolName: "bash", args: { command: "ls" } });
  await until(() => broker.pendingRequests().length === 3);
  assert.equal(broker.answer("w1", true, false, true), true);
  assert.deepEqual(await first, { approved: true });
  assert.deepEqual(await second, { approved: true }, "an edit already waiting is accepted too");
  assert.deepEqual(
    broker.pendingRequests().map((r) => r.toolCallId),
    ["b1"],
    "other tools still ask",
  );
  assert.deepEqual(await broker.policy({ toolCallId: "w3", toolName: "write", args: {} }), { approved: true });
  broker.endRun();
  void broker.policy({ toolCallId: "w4", toolName: "write", args: {} });
  await until(() => asked.some((a) => a.startsWith("w4:")));
  assert.ok(
    asked.some((a) => a.startsWith("w4:")),
    "after the run it asks again",
  );
  broker.cancelAll();
  await bash;
});

test("Accept from a diff carries what the diff showed; a write asked again after its file changed is always asked", async () => {
  const asked: string[] = [];
  const shown = new Map([
    ["w1", { sha256: "aa" }],
    ["w2", { sha256: null }],
  ]);
  const broker = new ApprovalBroker(() => false, {
    ask: (r, summary) => asked.push(`${r.toolCallId}:${summary}`),
    done: (id) => shown.delete(id),
    reviewed: (id) => shown.get(id),
  });
  const write = { toolName: "write", args: { path: "a.txt", content: "x" } };
  const first = broker.policy({ toolCallId: "w1", ...write });
  const other = broker.policy({ toolCallId: "w2", ...write });
  await until(() => broker.pendingRequests().length === 2);
  broker.answer("w1", true, false, true);
  assert.deepEqual(await first, { approved: true, reviewed: { sha256: "aa" } });
  assert.deepEqual(await other, { approved: true, reviewed: { sha256: null } }, "Accept All: each with its own diff");
  // Accept All in This Run stops the questions, but not one about a file changed after its diff was accepted.
  const changed = "a.txt changed after its diff was shown; nothing was written.";
  shown.set("w1", { sha256: "bb" });
  const again = broker.policy({ toolCallId: "w1", ...write, changed });
  await until(() => broker.pendingRequests().length === 1);
  assert.equal(asked.at(-1), `w1:${changed} Review the new diff.\nWrite a.txt (1 characters)`);
  broker.answer("w1", true);
  assert.deepEqual(await again, { approved: true, reviewed: { sha256: "bb" } });
  // Refused: nothing to carry.
  shown.set("w3", { sha256: "cc" });
  const refused = broker.policy({ toolCallId: "w3", ...write, changed });
  await until(() => broker.pendingRequests().length === 1);
  broker.answer("w3", false);
  assert.equal((await refused).approved, false);
  // Asked again after a reload: the same question, its note included.
  shown.set("w4", { sha256: "dd" });
  void broker.policy({ toolCallId: "w4", ...write, changed });
  await until(() => broker.pendingRequests().length === 1);
  assert.equal(broker.pendingRequests()[0].changed, changed);
  broker.cancelAll();
});

test("a question a subagent asks names it", async () => {
  const { broker, asked } = setup();
  const pending = broker.policy({ toolCallId: "s", toolName: "bash", args: { command: "ls" }, asker: "Subagent 2" });
  await until(() => asked.length > 0);
  assert.deepEqual(asked, ["s:Subagent 2: Run: ls"]);
  broker.answer("s", true);
  assert.deepEqual(await pending, { approved: true });
});
