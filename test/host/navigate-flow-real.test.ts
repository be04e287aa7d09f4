/**
 * The navigate flow with a fake UI against the real core: SessionManager.inMemory + AgentSession,
 * summaries extractive (no model) or from the fake OpenAI server through the real SDK.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ALREADY_HERE, runNavigateFlow } from "../../src/host/tree/navigate-flow.js";
import { openAIModel } from "../core/agent/helpers.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { FakeNavigateUi } from "./fake-navigate-ui.js";
import { navigatorOf, parserAgent } from "./flow-session.js";

const fake = fakeServerForSuite();

test("clicking the leaf: 'Already at this point.', nothing written", async () => {
  const { sm, ids, agent } = parserAgent();
  const before = sm.getEntryCount();
  const ui = new FakeNavigateUi({ choice: "summarize" });
  const r = await runNavigateFlow(navigatorOf(sm, agent), ui, ids.a3, "ask", "ask");
  assert.deepEqual(r, { kind: "noop" });
  assert.deepEqual(ui.infos, [ALREADY_HERE]);
  assert.equal(sm.getEntryCount(), before);
  agent.dispose();
});

test("no summary: the leaf moves, selecting a user message puts its text in the input", async () => {
  const { sm, ids, agent } = parserAgent();
  const ui = new FakeNavigateUi({ choice: "none" });
  const r = await runNavigateFlow(navigatorOf(sm, agent), ui, ids.u2, "ask", "ask");
  assert.deepEqual(r, { kind: "moved", cancelled: false, editorText: "Try a recursive descent approach" });
  assert.equal(sm.getLeafId(), ids.a1, "a user message moves the leaf to its parent");
  assert.deepEqual(ui.calls, ["pick"]);
  agent.dispose();
});

test("summarize without a model: an extractive branch summary is written under the target", async () => {
  const { sm, ids, agent } = parserAgent();
  const ui = new FakeNavigateUi({ choice: "summarize" });
  const r = await runNavigateFlow(navigatorOf(sm, agent), ui, ids.a2, "ask", "ask");
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
  const { sm, ids, agent } = parserAgent({ model: openAIModel(fake) });
  const nav = navigatorOf(sm, agent);

  const cancelled = new FakeNavigateUi({ choice: "summarize", cancelProgress: true });
  const count = sm.getEntryCount();
  assert.deepEqual(await runNavigateFlow(nav, cancelled, ids.a2, "ask", "ask"), {
    kind: "aborted",
    cancelled: true,
    aborted: true,
  });
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
});

test("a failing summarizer shows the error and leaves the leaf where it was", async () => {
  const { sm, ids, agent } = parserAgent({ model: openAIModel(fake) });
  fake.enqueue({ status: 401, body: { error: { message: "bad key" } } });
  const ui = new FakeNavigateUi({ choice: "summarize" });
  const r = await runNavigateFlow(navigatorOf(sm, agent), ui, ids.a2, "ask", "ask");
  assert.equal(r.kind, "failed");
  assert.equal(ui.errors.length, 1);
  assert.equal(sm.getLeafId(), ids.a3);
  agent.dispose();
});
