/**
 * "Bring Conclusions Here" with a scripted UI against the real core: SessionManager.inMemory + AgentSession,
 * summaries extractive (no model) or from the fake OpenAI server through the real SDK.
 */
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { AgentSession } from "../../src/core/agent/agent-session.js";
import { ModelRegistry } from "../../src/core/providers/model-registry.js";
import type { ModelInfo } from "../../src/core/providers/types.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { ALREADY_ON_BRANCH, runBringFlow, type ConclusionsTarget } from "../../src/host/compare/bring-flow.js";
import { startFakeOpenAI, type FakeServer } from "../util/fake-openai-server.js";
import { assistant, user } from "../core/session/helpers.js";
import { FakeBringUi } from "./fake-bring-ui.js";

/** u1 → a1 ┬→ u2 → a2 (other branch) ; a1 → u3 → a3 (leaf). */
function branchy(): { sm: SessionManager; ids: Record<string, string> } {
  const sm = SessionManager.inMemory("/tmp");
  const ids: Record<string, string> = {};
  ids.u1 = sm.appendMessage(user("Build a parser for src/parse.ts"));
  ids.a1 = sm.appendMessage(assistant("Which grammar?"));
  ids.u2 = sm.appendMessage(user("Try a recursive descent approach"));
  ids.a2 = sm.appendMessage(assistant("Recursive descent written and fast."));
  sm.branch(ids.a1);
  ids.u3 = sm.appendMessage(user("Use a PEG instead"));
  ids.a3 = sm.appendMessage(assistant("PEG parser written."));
  return { sm, ids };
}

function targetOf(sm: SessionManager, agent: AgentSession): ConclusionsTarget {
  const commonAncestor = (id: string): string | null => {
    const leaf = sm.getLeafId();
    return leaf === null ? null : sm.findCommonAncestor(leaf, id);
  };
  return {
    isOnCurrentBranch: (id) => commonAncestor(id) === id,
    commonAncestor,
    bringConclusions: agent.bringConclusions.bind(agent),
  };
}

let fake: FakeServer;
before(async () => (fake = await startFakeOpenAI()));
after(() => fake.close());

test("Summarize, no model: the extractive summary of the other branch becomes the leaf here", async () => {
  const { sm, ids } = branchy();
  const agent = new AgentSession({ sessionManager: sm, cwd: "/tmp", modelRegistry: new ModelRegistry(), tools: [] });
  const ui = new FakeBringUi({ choice: "summarize" });
  const outcome = await runBringFlow(targetOf(sm, agent), ui, ids.a2);
  assert.equal(outcome.kind, "moved");
  const id = outcome.kind === "moved" ? outcome.summaryEntry.id : "";
  const entry = sm.getEntry(id);
  assert.equal(entry?.type, "branch_summary");
  assert.equal(entry?.parentId, ids.a3);
  assert.equal(entry?.type === "branch_summary" && entry.fromId, ids.a2);
  assert.match(entry?.type === "branch_summary" ? entry.summary : "", /Try a recursive descent approach/);
  assert.equal(sm.getLeafId(), id);
  assert.deepEqual(ui.calls, ["pick", "progress: Bringing the other branch's conclusions here…"]);
  assert.deepEqual(ui.busy, [true, false]);
  assert.deepEqual(ui.errors, []);
});

test("Summarize with focus…: the focus reaches the model", async () => {
  const { sm, ids } = branchy();
  const registry = new ModelRegistry();
  const model: ModelInfo = {
    id: "m",
    name: "m",
    provider: "fake",
    api: "openai-completions",
    baseUrl: fake.baseURL,
    contextWindow: 128_000,
    maxTokens: 4096,
    noApiKey: true,
  };
  const agent = new AgentSession({ sessionManager: sm, cwd: "/tmp", modelRegistry: registry, tools: [], model });
  const ui = new FakeBringUi({ choice: "focus", focus: "  the speed results  " });
  const outcome = await runBringFlow(targetOf(sm, agent), ui, ids.a2);
  assert.equal(outcome.kind, "moved");
  assert.deepEqual(ui.calls.slice(0, 2), ["pick", "input"]);
  assert.match(JSON.stringify(fake.requests.at(-1)?.messages), /Additional focus: the speed results/);
});

test("a node on the current branch: said so, nothing asked, nothing written", async () => {
  const { sm, ids } = branchy();
  const agent = new AgentSession({ sessionManager: sm, cwd: "/tmp", modelRegistry: new ModelRegistry(), tools: [] });
  const count = sm.getEntryCount();
  const ui = new FakeBringUi({ choice: "summarize" });
  assert.deepEqual(await runBringFlow(targetOf(sm, agent), ui, ids.a1), { kind: "onPath" });
  assert.deepEqual(ui.infos, [ALREADY_ON_BRANCH]);
  assert.deepEqual(ui.calls, []);
  assert.equal(sm.getEntryCount(), count);
});

test("dismissing the question or the focus prompt, and cancelling the progress, change nothing", async () => {
  const { sm, ids } = branchy();
  const agent = new AgentSession({ sessionManager: sm, cwd: "/tmp", modelRegistry: new ModelRegistry(), tools: [] });
  const count = sm.getEntryCount();
  const leaf = sm.getLeafId();
  assert.deepEqual(await runBringFlow(targetOf(sm, agent), new FakeBringUi({}), ids.a2), { kind: "dismissed" });
  assert.deepEqual(await runBringFlow(targetOf(sm, agent), new FakeBringUi({ choice: "focus" }), ids.a2), {
    kind: "dismissed",
  });
  const cancelled = new FakeBringUi({ choice: "summarize", cancelProgress: true });
  assert.deepEqual(await runBringFlow(targetOf(sm, agent), cancelled, ids.a2), { kind: "aborted" });
  assert.deepEqual(cancelled.busy, [true, false]);
  assert.equal(sm.getEntryCount(), count);
  assert.equal(sm.getLeafId(), leaf);
});

test("a failing model: the error is shown, the leaf and the session unchanged", async () => {
  const { sm, ids } = branchy();
  const model: ModelInfo = {
    id: "m",
    name: "m",
    provider: "fake",
    api: "openai-completions",
    baseUrl: fake.baseURL,
    contextWindow: 128_000,
    maxTokens: 4096,
    noApiKey: true,
  };
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: "/tmp",
    modelRegistry: new ModelRegistry(),
    tools: [],
    model,
  });
  for (let i = 0; i < 4; i++) fake.enqueue({ status: 500, headers: { "retry-after": "0" } });
  const count = sm.getEntryCount();
  const ui = new FakeBringUi({ choice: "summarize" });
  const outcome = await runBringFlow(targetOf(sm, agent), ui, ids.a2);
  assert.equal(outcome.kind, "failed");
  assert.match(ui.errors[0] ?? "", /^Bringing conclusions failed: Summarization failed/);
  assert.equal(sm.getEntryCount(), count);
  assert.equal(sm.getLeafId(), ids.a3);
});
