/**
 * "Bring Conclusions Here" with a scripted UI against the real core: SessionManager.inMemory + AgentSession,
 * summaries extractive (no model) or from the fake OpenAI server through the real SDK.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { ALREADY_ON_BRANCH, runBringFlow } from "../../src/host/compare/bring-flow.js";
import { openAIModel } from "../core/agent/helpers.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { FakeBringUi } from "./fake-bring-ui.js";
import { conclusionsTargetOf, parserAgent } from "./flow-session.js";

const fake = fakeServerForSuite();

test("Summarize, no model: the extractive summary of the other branch becomes the leaf here", async () => {
  const { sm, ids, agent } = parserAgent();
  const ui = new FakeBringUi({ choice: "summarize" });
  const outcome = await runBringFlow(conclusionsTargetOf(sm, agent), ui, ids.a2);
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
  const { sm, ids, agent } = parserAgent({ model: openAIModel(fake) });
  const ui = new FakeBringUi({ choice: "focus", focus: "  the speed results  " });
  const outcome = await runBringFlow(conclusionsTargetOf(sm, agent), ui, ids.a2);
  assert.equal(outcome.kind, "moved");
  assert.deepEqual(ui.calls.slice(0, 2), ["pick", "input"]);
  assert.match(JSON.stringify(fake.requests.at(-1)?.messages), /Additional focus: the speed results/);
});

test("a node on the current branch: said so, nothing asked, nothing written", async () => {
  const { sm, ids, agent } = parserAgent();
  const count = sm.getEntryCount();
  const ui = new FakeBringUi({ choice: "summarize" });
  assert.deepEqual(await runBringFlow(conclusionsTargetOf(sm, agent), ui, ids.a1), { kind: "onPath" });
  assert.deepEqual(ui.infos, [ALREADY_ON_BRANCH]);
  assert.deepEqual(ui.calls, []);
  assert.equal(sm.getEntryCount(), count);
});

test("dismissing the question or the focus prompt, and cancelling the progress, change nothing", async () => {
  const { sm, ids, agent } = parserAgent();
  const count = sm.getEntryCount();
  const leaf = sm.getLeafId();
  assert.deepEqual(await runBringFlow(conclusionsTargetOf(sm, agent), new FakeBringUi({}), ids.a2), {
    kind: "dismissed",
  });
  assert.deepEqual(await runBringFlow(conclusionsTargetOf(sm, agent), new FakeBringUi({ choice: "focus" }), ids.a2), {
    kind: "dismissed",
  });
  const cancelled = new FakeBringUi({ choice: "summarize", cancelProgress: true });
  assert.deepEqual(await runBringFlow(conclusionsTargetOf(sm, agent), cancelled, ids.a2), { kind: "aborted" });
  assert.deepEqual(cancelled.busy, [true, false]);
  assert.equal(sm.getEntryCount(), count);
  assert.equal(sm.getLeafId(), leaf);
});

test("a failing model: the error is shown, the leaf and the session unchanged", async () => {
  const { sm, ids, agent } = parserAgent({ model: openAIModel(fake) });
  for (let i = 0; i < 4; i++) fake.enqueue({ status: 500, headers: { "retry-after": "0" } });
  const count = sm.getEntryCount();
  const ui = new FakeBringUi({ choice: "summarize" });
  const outcome = await runBringFlow(conclusionsTargetOf(sm, agent), ui, ids.a2);
  assert.equal(outcome.kind, "failed");
  assert.match(ui.errors[0] ?? "", /^Bringing conclusions failed: Summarization failed/);
  assert.equal(sm.getEntryCount(), count);
  assert.equal(sm.getLeafId(), ids.a3);
});
