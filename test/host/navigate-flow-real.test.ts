/**
 * The navigate flow with a fake UI against the real core: SessionManager.inMemory + AgentSession,
 * summaries extractive (no model) or from the fake OpenAI server through the real SDK.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { AgentSession } from "../../src/core/agent/agent-session.js";
import { emptyUsage, type AssistantMessage } from "../../src/core/messages.js";
import { ModelRegistry } from "../../src/core/providers/model-registry.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { ALREADY_HERE, runNavigateFlow } from "../../src/host/navigate-flow.js";
import { startFakeOpenAI } from "../util/fake-openai-server.js";
import { FakeNavigateUi } from "./fake-navigate-ui.js";

const reply = (text: string): AssistantMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
  provider: "fake",
  model: "m",
  usage: emptyUsage(),
  stopReason: "stop",
  timestamp: Date.now(),
});

/** u1 → a1 → u2 → a2 (abandoned later), and a1 → u3 → a3 (leaf). */
function branchy(): { sm: SessionManager; ids: Record<string, string> } {
  const sm = SessionManager.inMemory("/tmp");
  const ids: Record<string, string> = {};
  ids.u1 = sm.appendMessage({ role: "user", content: "Build a parser for src/parse.ts", timestamp: 1 });
  ids.a1 = sm.appendMessage(reply("Which grammar?"));
  ids.u2 = sm.appendMessage({ role: "user", content: "Try a recursive descent approach", timestamp: 2 });
  ids.a2 = sm.appendMessage(reply("Recursive descent written."));
  sm.branch(ids.a1);
  ids.u3 = sm.appendMessage({ role: "user", content: "Use a PEG instead", timestamp: 3 });
  ids.a3 = sm.appendMessage(reply("PEG parser written."));
  return { sm, ids };
}

function agentFor(sm: SessionManager, registry = new ModelRegistry(), model?: string): AgentSession {
  return new AgentSession({
    sessionManager: sm,
    cwd: "/tmp",
    modelRegistry: registry,
    tools: [],
    model: model ? registry.find("fake", model) : undefined,
  });
}

test("clicking the leaf: 'Already at this point.', nothing written", async () => {
  const { sm, ids } = branchy();
  const agent = agentFor(sm);
  const before = sm.getEntryCount();
  const ui = new FakeNavigateUi({ choice: "summarize" });
  const r = await runNavigateFlow(
    { getLeafId: () => sm.getLeafId(), navigateTree: agent.navigateTree.bind(agent) },
    ui,
    ids.a3,
    "ask",
    "ask",
  );
  assert.deepEqual(r, { kind: "noop" });
  assert.deepEqual(ui.infos, [ALREADY_HERE]);
  assert.equal(sm.getEntryCount(), before);
  agent.dispose();
});

test("no summary: the leaf moves, selecting a user message puts its text in the input", async () => {
  const { sm, ids } = branchy();
  const agent = agentFor(sm);
  const ui = new FakeNavigateUi({ choice: "none" });
  const nav = { getLeafId: () => sm.getLeafId(), navigateTree: agent.navigateTree.bind(agent) };
  const r = await runNavigateFlow(nav, ui, ids.u2, "ask", "ask");
  assert.deepEqual(r, { kind: "moved", editorText: "Try a recursive descent approach" });
  assert.equal(sm.getLeafId(), ids.a1, "a user message moves the leaf to its parent");
  assert.deepEqual(ui.calls, ["pick"]);
  agent.dispose();
});

test("summarize without a model: an extractive branch summary is written under the target", async () => {
  const { sm, ids } = branchy();
  const agent = agentFor(sm);
  const ui = new FakeNavigateUi({ choice: "summarize" });
  const nav = { getLeafId: () => sm.getLeafId(), navigateTree: agent.navigateTree.bind(agent) };
  const r = await runNavigateFlow(nav, ui, ids.a2, "ask", "ask");
  assert.equal(r.kind, "moved");
  assert.ok(r.kind === "moved" && r.summaryEntry);
  const summary = sm.getEntry(r.summaryEntry.id);
  assert.equal(summary?.type, "branch_summary");
  assert.equal(summary?.parentId, ids.a2);
  assert.ok(summary?.type === "branch_summary" && summary.fromId === ids.a3);
  assert.match(summary?.type === "branch_summary" ? summary.summary : "", /PEG/);
  assert.deepEqual(ui.calls, ["pick", "progress"]);
  assert.deepEqual(ui.errors, []);
  agent.dispose();
});

test("summarize with a custom prompt through the fake OpenAI server; cancelling changes nothing", async () => {
  const fake = await startFakeOpenAI();
  try {
    const registry = new ModelRegistry();
    registry.addCustomModels([
      { provider: "fake", id: "m", baseUrl: fake.baseURL, api: "openai-completions", noApiKey: true },
    ]);
    const { sm, ids } = branchy();
    const agent = agentFor(sm, registry, "m");
    const nav = { getLeafId: () => sm.getLeafId(), navigateTree: agent.navigateTree.bind(agent) };

    const cancelled = new FakeNavigateUi({ choice: "summarize", cancelProgress: true });
    const count = sm.getEntryCount();
    assert.deepEqual(await runNavigateFlow(nav, cancelled, ids.a2, "ask", "ask"), { kind: "aborted" });
    assert.equal(sm.getLeafId(), ids.a3, "leaf unchanged after cancel");
    assert.equal(sm.getEntryCount(), count, "nothing written after cancel");

    fake.enqueue({ text: "## Goal\nA PEG parser was written for src/parse.ts." });
    const ui = new FakeNavigateUi({ choice: "custom", focus: "parser choice" });
    const r = await runNavigateFlow(nav, ui, ids.a2, "ask", "ask");
    assert.equal(r.kind, "moved");
    const body = JSON.stringify(fake.requests.at(-1));
    assert.match(body, /parser choice/, "the focus reaches the summarizer prompt");
    const summary = r.kind === "moved" && r.summaryEntry ? sm.getEntry(r.summaryEntry.id) : undefined;
    assert.ok(summary?.type === "branch_summary");
    assert.match(summary.summary, /A PEG parser was written/);
    agent.dispose();
  } finally {
    await fake.close();
  }
});

test("a failing summarizer shows the error and leaves the leaf where it was", async () => {
  const fake = await startFakeOpenAI();
  try {
    const registry = new ModelRegistry();
    registry.addCustomModels([
      { provider: "fake", id: "m", baseUrl: fake.baseURL, api: "openai-completions", noApiKey: true },
    ]);
    const { sm, ids } = branchy();
    const agent = agentFor(sm, registry, "m");
    fake.enqueue({ status: 401, body: { error: { message: "bad key" } } });
    const ui = new FakeNavigateUi({ choice: "summarize" });
    const nav = { getLeafId: () => sm.getLeafId(), navigateTree: agent.navigateTree.bind(agent) };
    const r = await runNavigateFlow(nav, ui, ids.a2, "ask", "ask");
    assert.equal(r.kind, "failed");
    assert.equal(ui.errors.length, 1);
    assert.equal(sm.getLeafId(), ids.a3);
    agent.dispose();
  } finally {
    await fake.close();
  }
});
