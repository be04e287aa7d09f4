/**
 * Switching the model mid-session across providers, as pi does it (pi-ai's cross-provider handoff): every request
 * carries the whole conversation in its own wire's terms; thinking goes back only to the model that wrote it (with
 * its signature); a tool call's id that another API would refuse is rewritten for that request only; the session
 * records each reply as pi-ai returned it, with the provider, API and model that wrote it.
 */
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { AssistantMessage } from "../../../src/core/messages.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { tempDir } from "../../util/temp-dir.js";
import {
  crossProviderConversation,
  startCrossProviderServers,
  type CrossProviderServers,
} from "./cross-provider-session.js";

describe("a session that switches model across providers", { timeout: 120_000 }, () => {
  let s: CrossProviderServers;
  let file: string;
  let events: string[] = [];
  const tmp = tempDir();
  before(async () => {
    s = await startCrossProviderServers();
    const { sm, agent } = await crossProviderConversation(tmp.dir, s);
    events = sm.getEntries().map((e) => (e.type === "message" ? `${e.message.role}` : e.type));
    void agent;
    file = sm.getSessionFile() as string;
    await sm.close();
  });
  after(async () => {
    await s.close();
    tmp.cleanup();
  });

  it("each model got the conversation so far, in its own wire's terms", () => {
    assert.equal(s.anthropic.requests.length, 3);
    assert.equal(s.openai.requests.length, 1);
    assert.equal(s.responses.requests.length, 2);
    assert.equal(s.gemini.requests.length, 1);
    const openai = JSON.stringify(s.openai.requests[0].messages);
    assert.match(openai, /What does src\/a.ts export\?/);
    assert.match(openai, /a\.ts exports A\./, "Claude's answer is there");
    assert.match(openai, /export const A = 1;/, "and the tool result Claude got");
    assert.match(openai, /"tool_calls"/, "as Chat Completions tool calls");
    assert.ok(!openai.includes("The user wants a.ts read"), "another model's thinking is not sent");
    const gemini = JSON.stringify(s.gemini.requests[0].contents);
    for (const said of ["CLAUDE-SAID-A", "b.ts exports B = 2.", "export const B = 2;", "A is 1 and B is 2."])
      assert.ok(gemini.includes(said), `Gemini gets ${said}`);
    assert.match(gemini, /"functionCall"/, "the earlier tool calls, as Gemini function calls");
  });

  it("Claude gets its own thinking back, signed; the Responses call id is rewritten for Claude only", () => {
    const back = s.anthropic.requests[2].messages as { role: string; content: Record<string, unknown>[] | string }[];
    const blocks = back.flatMap((m) => (Array.isArray(m.content) ? m.content : []));
    const thinking = blocks.find((b) => b.type === "thinking");
    assert.deepEqual(thinking, { type: "thinking", thinking: "The user wants a.ts read", signature: "sig-claude-1" });
    const ids = blocks.filter((b) => b.type === "tool_use").map((b) => String(b.id));
    assert.equal(ids.length, 2);
    for (const id of ids) assert.match(id, /^[a-zA-Z0-9_-]{1,64}$/, `Anthropic's id rule: ${id}`);
    const results = blocks.filter((b) => b.type === "tool_result").map((b) => String(b.tool_use_id));
    assert.deepEqual(results, ids, "each result names its call");
  });

  it("the session holds each reply as written, with its provider, API and model; a reopen builds the same context", async () => {
    assert.ok(events.includes("model_change"));
    const sm = await SessionManager.open(file, { readOnly: true });
    try {
      const replies = sm
        .buildSessionContext()
        .messages.filter((m): m is AssistantMessage => m.role === "assistant")
        .map((m) => `${m.provider}/${m.api}/${m.model}`);
      assert.deepEqual(replies, [
        "fake-anthropic/anthropic-messages/claude-fake",
        "fake-anthropic/anthropic-messages/claude-fake",
        "fake-openai/openai-completions/fake-model",
        "fake-responses/openai-responses/gpt-fake",
        "fake-responses/openai-responses/gpt-fake",
        "fake-anthropic/anthropic-messages/claude-fake",
        "fake-gemini/google-generative-ai/gemini-fake",
      ]);
      const responsesCall = sm
        .buildSessionContext()
        .messages.flatMap((m) => (m.role === "assistant" ? m.content : []))
        .find((c) => c.type === "toolCall" && c.name === "read" && c.arguments.path === "src/b.ts");
      assert.ok(
        responsesCall?.type === "toolCall" && responsesCall.id.includes("|"),
        "stored as the Responses API gave it",
      );
      const usage = sm
        .getEntries()
        .flatMap((e) => (e.type === "message" && e.message.role === "assistant" ? [e.message.usage] : []));
      assert.ok(
        usage.every((u) => u.totalTokens > 0),
        "every reply records its usage",
      );
    } finally {
      await sm.close();
    }
  });
});
