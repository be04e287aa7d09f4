/** The controller over a real SessionManager + AgentSession, a fake OpenAI server for the model. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { AgentTool } from "../../src/core/tools/types.js";
import { modelKey, NO_MODEL_REASON } from "../../src/host/models/model-choice.js";
import { supportedThinkingLevels } from "../../src/core/providers/thinking-levels.js";
import { decodeRows } from "../../src/core/rows/row-columns.js";
import { startFakeOpenAI } from "../util/fake-openai-server.js";
import { createHarness, ofType, tick } from "./controller-harness.js";

const reply = (text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  provider: "fake",
  model: "m",
  usage: { ...emptyUsage(), input: 10, output: 5, totalTokens: 15 },
  stopReason: "stop",
  timestamp: Date.now(),
});

function seeded(): SessionManager {
  const sm = SessionManager.inMemory("/tmp");
  sm.appendMessage({ role: "user", content: "first question", timestamp: 1 });
  sm.appendMessage(reply("first answer"));
  return sm;
}

test("attaching a session pushes the tree and a chat without a model", async () => {
  const h = createHarness();
  const sm = seeded();
  await h.controller.attach(sm);
  const [snap] = ofType(h.tree, "tree/snapshot");
  assert.deepEqual(
    decodeRows(snap.rows).map((n) => [n.kind, n.preview]),
    [
      ["user", "first question"],
      ["assistant", "first answer"],
    ],
  );
  assert.equal(snap.leafId, sm.getLeafId());
  const [chat] = ofType(h.chat, "chat/snapshot");
  assert.deepEqual(
    chat.messages.map((m) => m.text),
    ["first question", "first answer"],
  );
  assert.equal(chat.noModelReason, NO_MODEL_REASON);
  assert.deepEqual(chat.usage, { input: 10, output: 5, cost: 0, contextTokens: 15, contextWindow: 0 });
  assert.deepEqual(ofType(h.chat, "chat/models")[0].models, []);
  assert.equal(h.controller.hasEntry(decodeRows(snap.rows)[0].id), true);
  assert.equal(h.controller.hasEntry("nope"), false);
  assert.equal(h.changed[0], sm);
  await h.controller.close();
});

test("appends and leaf moves become one incremental tree update; labels show at once", async () => {
  const h = createHarness();
  const sm = seeded();
  await h.controller.attach(sm);
  const first = sm.getEntries()[0].id;
  h.tree.length = 0;
  sm.appendLabelChange(first, "start");
  sm.branch(first);
  await tick();
  // One message, so the view flattens and draws the tree once for all of it.
  assert.deepEqual(
    h.tree.map((m) => m.type),
    ["tree/update"],
  );
  const [update] = ofType(h.tree, "tree/update");
  const appends = decodeRows(update.rows!);
  assert.deepEqual(
    appends.map((n) => n.kind),
    ["label", "custom"],
  );
  assert.deepEqual(update.labels, [{ id: first, label: "start" }]);
  assert.equal(update.leafId, first);
  assert.equal(h.controller.hasEntry(appends[0].id), true);
  await h.controller.close();
});

test("a prompt streams into the chat and the tree through the real SDK", async () => {
  const fake = await startFakeOpenAI();
  try {
    fake.enqueue({ text: "Hello from the fake model", usage: { input: 12, output: 6 } });
    const h = createHarness({ fakeBaseURL: fake.baseURL });
    const sm = SessionManager.inMemory("/tmp");
    await h.controller.attach(sm);
    assert.equal(ofType(h.chat, "chat/snapshot")[0].noModelReason, undefined);
    assert.equal(ofType(h.chat, "chat/models")[0].current, "fake/m");
    h.chat.length = 0;
    await h.controller.agent!.prompt("hi there");
    await tick();
    const messages = ofType(h.chat, "chat/message");
    const final = messages.filter((m) => !m.message.id.startsWith("pending-"));
    assert.deepEqual(
      final.map((m) => [m.message.role, m.message.text]),
      [
        ["user", "hi there"],
        ["assistant", "Hello from the fake model"],
      ],
    );
    assert.ok(
      final.every((m) => m.replaces?.startsWith("pending-")),
      "stored rows replace the streamed ones",
    );
    assert.deepEqual(
      ofType(h.chat, "chat/streaming").map((s) => s.streaming),
      [true, false],
    );
    const snap = ofType(h.chat, "chat/snapshot").at(-1)!;
    assert.equal(snap.usage.input, 12);
    assert.equal(snap.model?.key, "fake/m");
    const appended = ofType(h.tree, "tree/update").flatMap((u) =>
      (u.rows ? decodeRows(u.rows) : []).map((n) => n.kind),
    );
    assert.deepEqual(
      appended.filter((k) => k === "user" || k === "assistant"),
      ["user", "assistant"],
    );
    await h.controller.close();
  } finally {
    await fake.close();
  }
});

test("a refused key is reported with its provider, once, for the offer to set it; the session goes on", async () => {
  const fake = await startFakeOpenAI();
  try {
    fake.enqueue({ status: 401, body: { error: { message: "Incorrect API key provided" } } });
    const h = createHarness({ fakeBaseURL: fake.baseURL });
    const sm = SessionManager.inMemory("/tmp");
    await h.controller.attach(sm);
    await h.controller.agent!.prompt("hi there");
    assert.deepEqual(
      h.modelFailures.map((f) => [f.provider, f.errorKind]),
      [["fake", "auth"]],
    );
    assert.match(h.modelFailures[0].error, /Authentication failed for fake \(HTTP 401\)/);
    // The chat says it too: the failed reply's row, and the status line.
    const failed = ofType(h.chat, "chat/message")
      .filter((m) => m.message.role === "assistant")
      .at(-1);
    assert.equal(failed?.message.stopReason, "error");
    assert.ok(ofType(h.chat, "status").some((s) => s.kind === "error" && /HTTP 401/.test(s.text)));
    await h.controller.agent!.prompt("again");
    assert.equal(h.modelFailures.length, 1, "a reply that works reports nothing");
    await h.controller.close();
  } finally {
    await fake.close();
  }
});

test("a model that always reasons shows the level its requests carry, one it offers (not a blank 'off')", async () => {
  const h = createHarness();
  await h.controller.attach(SessionManager.inMemory("/tmp"));
  const registry = await h.controller.models();
  const always = registry.all().find((m) => m.reasoning && !supportedThinkingLevels(m).includes("off"));
  assert.ok(always, "pi-ai's catalog has a model that cannot turn reasoning off");
  assert.equal(h.controller.selectModel(modelKey(always)), undefined);
  const models = ofType(h.chat, "chat/models").at(-1)!;
  assert.equal(h.controller.agent!.getThinkingLevel(), "off", "the session recorded no level");
  assert.ok(models.thinkingLevels?.includes(models.thinkingLevel!), JSON.stringify(models));
  assert.equal(models.thinkingLevel, registry.clampThinkingLevel(always, "off"));
  await h.controller.close();
});

test("a rate limit is retried with its wait said in the chat; the reply then comes", async () => {
  const fake = await startFakeOpenAI();
  try {
    fake.enqueue({ status: 429, headers: { "retry-after": "1" }, body: { error: { message: "Slow down" } } });
    fake.enqueue({ text: "After the wait" });
    const h = createHarness({ fakeBaseURL: fake.baseURL });
    await h.controller.attach(SessionManager.inMemory("/tmp"));
    await h.controller.agent!.prompt("hi");
    const said = ofType(h.chat, "status").map((s) => [s.kind, s.text]);
    assert.deepEqual(said, [["info", "Retrying in 1 s (attempt 1): Rate limited by fake (HTTP 429): Slow down"]]);
    const last = ofType(h.chat, "chat/message").at(-1)!.message;
    assert.deepEqual([last.role, last.text], ["assistant", "After the wait"]);
    assert.deepEqual(h.modelFailures, []);
    await h.controller.close();
  } finally {
    await fake.close();
  }
});

test("a server that is not running is said so in the chat, not retried; the prompt and the failed reply are kept", async () => {
  const fake = await startFakeOpenAI();
  const baseURL = fake.baseURL;
  await fake.close();
  const h = createHarness({ fakeBaseURL: baseURL });
  const sm = SessionManager.inMemory("/tmp");
  await h.controller.attach(sm);
  await h.controller.agent!.prompt("anyone there?");
  const error = ofType(h.chat, "status").find((s) => s.kind === "error");
  assert.equal(error?.text, `Cannot reach ${baseURL}: is the server running? (ECONNREFUSED)`);
  assert.deepEqual(
    h.modelFailures.map((f) => f.errorKind),
    ["unreachable"],
  );
  const stored = sm.getEntries().flatMap((e) => (e.type === "message" ? [e.message] : []));
  assert.deepEqual(
    stored.map((m) => [m.role, m.role === "assistant" ? m.stopReason : undefined]),
    [
      ["user", undefined],
      ["assistant", "error"],
    ],
  );
  await h.controller.close();
});

test("hook registrations survive a session switch", async () => {
  const h = createHarness();
  const seen: string[] = [];
  h.hooks.api.on("session_tree", (e) => {
    seen.push(String(e.newLeafId));
  });
  await h.controller.attach(seeded());
  const sm2 = seeded();
  await h.controller.attach(sm2);
  assert.equal(h.changed.length, 2);
  const target = sm2.getEntries()[0].id;
  const r = await h.controller.agent!.navigateTree(target);
  assert.ok(r.kind === "moved", r.kind);
  assert.deepEqual(seen, [String(sm2.getLeafId())]);
  await h.controller.close();
  assert.throws(() => h.hooks.api.appendEntry("x"), /No Agent Tree session is open/);
});

test("a session whose model has no key shows why the chat cannot send", async () => {
  const h = createHarness();
  const sm = SessionManager.inMemory("/tmp");
  sm.appendModelChange("openai", "gpt-4.1");
  await h.controller.attach(sm);
  assert.equal(h.controller.agent?.getModel()?.id, "gpt-4.1", "the session's model is kept");
  assert.equal(ofType(h.chat, "chat/snapshot")[0].noModelReason, NO_MODEL_REASON);
  await h.controller.close();
});

test("mutating tools ask (Allow always is remembered), read-only tools do not", async () => {
  const fake = await startFakeOpenAI();
  const ran: string[] = [];
  const tool = (name: string, mutates: boolean): AgentTool => ({
    name,
    description: name,
    parameters: { type: "object", properties: {} },
    mutates,
    execute: async () => {
      ran.push(name);
      return { content: [{ type: "text", text: `${name} ok` }] };
    },
  });
  try {
    const h = createHarness({ fakeBaseURL: fake.baseURL, tools: [tool("peek", false), tool("touch", true)] });
    await h.controller.attach(SessionManager.inMemory("/tmp"));
    fake.enqueue(
      {
        toolCalls: [
          { id: "c1", name: "peek", args: {} },
          { id: "c2", name: "touch", args: {} },
        ],
      },
      { text: "done" },
      { toolCalls: [{ id: "c3", name: "touch", args: {} }] },
      { text: "done again" },
    );
    const run = h.controller.agent!.prompt("go");
    // Bounded by time, not ticks: the first request loads its provider's SDK.
    for (let i = 0; i < 1000 && h.asked.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(h.asked, ["c2"], "only the mutating tool asks");
    assert.equal(h.controller.approvals?.answer("c2", true, true), true);
    await run;
    await h.controller.agent!.prompt("again");
    assert.deepEqual(h.asked, ["c2"], "Allow always: no second question");
    assert.deepEqual(ran, ["peek", "touch", "touch"]);
    await h.controller.close();
  } finally {
    await fake.close();
  }
});

test("views still loading get no snapshot (a big tree is not built for nothing); ready views get theirs", async () => {
  const h = createHarness();
  h.ready = { tree: false, chat: false };
  await h.controller.attach(seeded());
  assert.deepEqual([h.tree.length, h.chat.length], [0, 0]);
  h.ready.tree = true;
  h.controller.pushTree();
  assert.equal(ofType(h.tree, "tree/snapshot").length, 1);
  h.ready.chat = true;
  h.controller.chatViewLoaded();
  const [chat] = ofType(h.chat, "chat/snapshot");
  assert.deepEqual([chat.keep, chat.messages.map((m) => m.text)], [false, ["first question", "first answer"]]);
  await h.controller.close();
});
