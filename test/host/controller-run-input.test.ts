/** The controller's thinking level and queue over a real SessionManager + AgentSession (fake OpenAI server). */
import assert from "node:assert/strict";
import { test } from "node:test";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { createHarness, ofType } from "./controller-harness.js";

/** One fake server for the file, reset before each test. */
const fake = fakeServerForSuite();

test("the picker gets the model's thinking levels; a choice is recorded, one the model lacks is refused", async () => {
  const h = createHarness({ fakeBaseURL: fake.baseURL, reasoning: true });
  const sm = SessionManager.inMemory("/tmp");
  await h.controller.attach(sm);
  const first = ofType(h.chat, "chat/models").at(-1);
  assert.deepEqual(first?.thinkingLevels, ["off", "minimal", "low", "medium", "high"]);
  assert.equal(first?.thinkingLevel, "off");
  assert.equal(h.controller.selectThinkingLevel("high"), undefined);
  assert.equal(ofType(h.chat, "chat/models").at(-1)?.thinkingLevel, "high");
  const changes = sm.getEntries().filter((e) => e.type === "thinking_level_change");
  assert.deepEqual(
    changes.map((e) => (e.type === "thinking_level_change" ? e.thinkingLevel : "")),
    ["high"],
  );
  assert.match(h.controller.selectThinkingLevel("xhigh") ?? "", /does not take the thinking level "xhigh"/);
  assert.equal(sm.getEntries().filter((e) => e.type === "thinking_level_change").length, 1, "nothing recorded");
  await h.controller.close();
});

test("a model without reasoning offers only off", async () => {
  const h = createHarness({ fakeBaseURL: fake.baseURL });
  await h.controller.attach(SessionManager.inMemory("/tmp"));
  assert.deepEqual(ofType(h.chat, "chat/models").at(-1)?.thinkingLevels, ["off"]);
  assert.match(h.controller.selectThinkingLevel("low") ?? "", /does not take/);
  await h.controller.close();
});

test("a message queued after the run ended is sent instead; a reloaded chat gets the queue", async () => {
  const h = createHarness({ fakeBaseURL: fake.baseURL });
  await h.controller.attach(SessionManager.inMemory("/tmp"));
  const sent: string[] = [];
  assert.equal(
    h.controller.queueMessage("followUp", "too late to queue", "too late to queue", async () => {
      sent.push("too late to queue");
    }),
    undefined,
  );
  assert.deepEqual(sent, ["too late to queue"]);
  h.chat.length = 0;
  h.controller.chatViewLoaded();
  assert.deepEqual(ofType(h.chat, "chat/queue"), [{ type: "chat/queue", items: [] }]);
  await h.controller.close();
});

test("a new session starts at pi's default thinking level, clamped to the model; an existing one keeps its own", async () => {
  const h = createHarness({ fakeBaseURL: fake.baseURL, reasoning: true, defaultThinkingLevel: "xhigh" });
  const fresh = SessionManager.inMemory("/tmp");
  await h.controller.attach(fresh);
  assert.equal(ofType(h.chat, "chat/models").at(-1)?.thinkingLevel, "high", "xhigh, clamped to what fake/m takes");
  const levels = (sm: SessionManager): string[] =>
    sm.getEntries().flatMap((e) => (e.type === "thinking_level_change" ? [e.thinkingLevel] : []));
  assert.deepEqual(levels(fresh), ["high"], "recorded as pi records its start level");
  const old = SessionManager.inMemory("/tmp");
  old.appendMessage({ role: "user", content: "earlier", timestamp: 1 });
  await h.controller.attach(old);
  assert.deepEqual(levels(old), [], "a session that has entries is left as it is");
  assert.equal(ofType(h.chat, "chat/models").at(-1)?.thinkingLevel, "off");
  await h.controller.close();
});
