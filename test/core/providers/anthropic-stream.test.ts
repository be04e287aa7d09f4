import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AssistantMessage, LlmMessage } from "../../../src/core/messages.js";
import { emptyUsage } from "../../../src/core/messages.js";
import type { ModelInfo, RetryInfo } from "../../../src/core/providers/types.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { user } from "../../util/session-builder.js";
import { anthropicModel } from "../agent/helpers.js";
import { abortAtFirstDelta, collect, completeText, requestsTo } from "./stream-helpers.js";
import { testModels } from "../../util/test-models.js";

const KEY = "sk-ant-test-secret-0123456789";

const OVER: Partial<ModelInfo> = {
  name: "Claude Fake",
  provider: "anthropic",
  maxTokens: 64_000,
  reasoning: true,
  cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
};
const model = (baseURL: string): ModelInfo => anthropicModel({ baseURL }, OVER);

describe("anthropic provider against a fake server", () => {
  const fake = fakeServerForSuite(startFakeAnthropic);
  const req = requestsTo(() => model(fake.baseURL), KEY, "hello");

  it("streams thinking with its signature, text and tool use; fills usage and cost", async () => {
    fake.enqueue({
      thinking: "Let me think",
      signature: "sig-abc",
      text: "I will read it.",
      toolCalls: [{ name: "read", args: { path: "a.ts" }, id: "toolu_1" }],
      usage: { input: 1000, output: 200, cacheRead: 500, cacheWrite: 100 },
    });
    const { events, final } = await collect(req({ thinkingLevel: "low", systemPrompt: "sys" }));
    assert.equal(final.stopReason, "toolUse");
    assert.deepEqual(final.content, [
      { type: "thinking", thinking: "Let me think", thinkingSignature: "sig-abc" },
      { type: "text", text: "I will read it." },
      { type: "toolCall", id: "toolu_1", name: "read", arguments: { path: "a.ts" } },
    ]);
    assert.ok(events.some((e) => e.type === "thinking_delta"));
    assert.equal(final.usage.input, 1000);
    assert.equal(final.usage.cacheRead, 500);
    assert.equal(final.usage.cacheWrite, 100);
    assert.equal(final.usage.output, 200);
    const expected = (1000 * 3 + 200 * 15 + 500 * 0.3 + 100 * 3.75) / 1e6;
    assert.ok(Math.abs(final.usage.cost.total - expected) < 1e-12);
    const body = fake.requests[0];
    assert.deepEqual(body.system, [{ type: "text", text: "sys", cache_control: { type: "ephemeral" } }]);
    // pi's budget for "low" (pi-ai DEFAULT_THINKING_BUDGETS), inside max_tokens.
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 2048, display: "summarized" });
    assert.ok(Number(body.max_tokens) > 2048);
    const h = fake.calls[fake.calls.length - 1].headers;
    assert.ok(h["x-api-key"] === KEY || h.authorization === `Bearer ${KEY}`, "the key is sent");
  });

  it("replays thinking signatures for the same provider only and merges tool results into one user turn", async () => {
    fake.enqueue({ text: "ok" }, { text: "ok" });
    const assistant = (provider: string): AssistantMessage => ({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "plan", thinkingSignature: "sig-1" },
        { type: "toolCall", id: "toolu_a", name: "read", arguments: { path: "a" } },
        { type: "toolCall", id: "toolu_b", name: "read", arguments: { path: "b" } },
      ],
      api: "anthropic-messages",
      provider,
      model: "claude-fake",
      usage: emptyUsage(),
      stopReason: "toolUse",
      timestamp: 2,
    });
    const results: LlmMessage[] = [
      {
        role: "toolResult",
        toolCallId: "toolu_a",
        toolName: "read",
        content: [{ type: "text", text: "A" }],
        isError: false,
        timestamp: 3,
      },
      {
        role: "toolResult",
        toolCallId: "toolu_b",
        toolName: "read",
        content: [{ type: "image", data: "QUJD", mimeType: "image/png" }],
        isError: true,
        timestamp: 4,
      },
    ];
    await collect(req({ messages: [user("go"), assistant("anthropic"), ...results] }));
    const sent = fake.requests[0].messages as { role: string; content: { type: string }[] }[];
    assert.equal(sent.length, 3);
    assert.deepEqual(sent[1].content[0], { type: "thinking", thinking: "plan", signature: "sig-1" });
    assert.equal(sent[2].role, "user");
    // pi-ai's wire: both results in one user turn; an error result's image follows the results (Anthropic takes
    // no image in an error result), and the turn's last block carries the cache breakpoint.
    assert.deepEqual(sent[2].content, [
      { type: "tool_result", tool_use_id: "toolu_a", content: "A", is_error: false },
      {
        type: "tool_result",
        tool_use_id: "toolu_b",
        content: "(image attached after the tool results)",
        is_error: true,
      },
      { type: "text", text: "Images from the error result of tool call toolu_b (read):" },
      {
        type: "image",
        source: { type: "base64", media_type: "image/png", data: "QUJD" },
        cache_control: { type: "ephemeral" },
      },
    ]);
    await collect(req({ messages: [user("go"), assistant("other-provider"), ...results] }));
    const sent2 = fake.requests[1].messages as { role: string; content: { type: string }[] }[];
    assert.ok(!sent2[1].content.some((b) => b.type === "thinking"), "foreign signatures are not replayed");
  });

  it("keeps redacted thinking and replays it as redacted_thinking", async () => {
    const ev = (type: string, data: Record<string, unknown>): { event: string; data: string } => ({
      event: type,
      data: JSON.stringify({ type, ...data }),
    });
    fake.enqueue({
      rawEvents: [
        ev("message_start", {
          message: {
            id: "m",
            type: "message",
            role: "assistant",
            model: "claude-fake",
            content: [],
            stop_reason: null,
            stop_sequence: null,
            usage: { input_tokens: 5, output_tokens: 1 },
          },
        }),
        ev("content_block_start", { index: 0, content_block: { type: "redacted_thinking", data: "OPAQUE" } }),
        ev("content_block_stop", { index: 0 }),
        ev("content_block_start", { index: 1, content_block: { type: "text", text: "" } }),
        ev("content_block_delta", { index: 1, delta: { type: "text_delta", text: "Hi" } }),
        ev("content_block_stop", { index: 1 }),
        ev("message_delta", { delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 3 } }),
        ev("message_stop", {}),
      ],
    });
    const first = await completeText(req());
    assert.deepEqual(first.content, [
      { type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: "OPAQUE", redacted: true },
      { type: "text", text: "Hi" },
    ]);
    fake.enqueue({ text: "ok" });
    await completeText(req({ messages: [user("a"), first, user("b")] }));
    const sent = fake.requests[1].messages as { content: unknown[] }[];
    assert.deepEqual(sent[1].content[0], { type: "redacted_thinking", data: "OPAQUE" });
  });

  it("retries 429 with Retry-After then succeeds", async () => {
    fake.enqueue({ status: 429, headers: { "retry-after": "0" } }, { text: "fine" });
    const retries: RetryInfo[] = [];
    const { final } = await collect(req({ onRetry: (r) => retries.push(r) }));
    assert.deepEqual(final.content, [{ type: "text", text: "fine" }]);
    assert.deepEqual(
      retries.map((r) => [r.attempt, r.delayMs]),
      [[1, 0]],
    );
  });

  it("401 gives an auth error without the key", async () => {
    fake.enqueue({
      status: 401,
      body: { type: "error", error: { type: "authentication_error", message: `invalid x-api-key ${KEY}` } },
    });
    const { final, events } = await collect(req());
    assert.match(final.errorMessage ?? "", /Authentication failed for anthropic/);
    assert.ok(!(final.errorMessage ?? "").includes(KEY));
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "auth");
  });

  it("500s exhaust retries with a server error", async () => {
    fake.enqueue({ status: 500 }, { status: 500 });
    const { final } = await collect(req({ maxRetries: 1 }));
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /HTTP 500/);
    assert.equal(fake.requests.length, 2);
  });

  it("a cut stream keeps partial text", async () => {
    fake.enqueue({ cutAfterChunks: 2, text: "alpha beta gamma delta epsilon zeta eta theta" });
    const { final } = await collect(req());
    assert.equal(final.stopReason, "error");
    const text = final.content[0]?.type === "text" ? final.content[0].text : "";
    assert.ok(text.length > 0 && "alpha beta gamma delta epsilon zeta eta theta".startsWith(text));
  });

  it("abort of a stalled stream ends with stopReason aborted and the partial text", async () => {
    fake.enqueue({ stall: true, text: "So far" });
    const events = await abortAtFirstDelta(req);
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.message.stopReason, "aborted");
    assert.deepEqual(last.type === "error" && last.message.content, [{ type: "text", text: "So far" }]);
  });

  it("abort before the request ends cleanly as aborted", async () => {
    const ac = new AbortController();
    ac.abort();
    const { final } = await collect(req({ signal: ac.signal }));
    assert.equal(final.stopReason, "aborted");
  });

  it("an in-stream overloaded error keeps the partial text and is a server error", async () => {
    fake.enqueue({ streamError: "Overloaded", text: "Half" });
    const { final, events } = await collect(req());
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /Overloaded/);
    assert.deepEqual(final.content, [{ type: "text", text: "Half" }]);
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "server");
  });

  it("abort during a retry wait ends promptly as aborted", async () => {
    fake.enqueue({ status: 529 });
    const ac = new AbortController();
    const { final } = await collect(req({ signal: ac.signal, retryBaseDelayMs: 600_000, onRetry: () => ac.abort() }));
    assert.equal(final.stopReason, "aborted");
    assert.equal(fake.requests.length, 1);
  });

  it("an Anthropic-compatible provider of models.json sends its compat flags: no cache_control on tools", async () => {
    // pi-ai marks the system prompt, the last tool and the last message for caching on every Anthropic-style API;
    // a proxy that rejects the marker on tools says so in models.json, as in pi.
    const proxy = testModels({
      piModels: {
        file: "models.json",
        config: {
          providers: {
            proxy: {
              baseUrl: fake.baseURL,
              api: "anthropic-messages",
              apiKey: "proxy-key",
              compat: { supportsCacheControlOnTools: false },
              models: [{ id: "claude-fake", reasoning: false }],
            },
          },
        },
      },
    });
    const proxied = proxy.find("proxy", "claude-fake");
    assert.ok(proxied, "the models.json model is listed");
    fake.enqueue({ text: "ok" });
    const tool = { name: "read", description: "r", parameters: { type: "object" as const, properties: {} } };
    const final = await proxy.complete({
      model: proxied,
      messages: [user("hi")],
      systemPrompt: "plain",
      tools: [tool],
    });
    assert.equal(final.stopReason, "stop");
    const body = fake.requests[0];
    assert.deepEqual(body.system, [{ type: "text", text: "plain", cache_control: { type: "ephemeral" } }]);
    assert.ok(!JSON.stringify(body.tools).includes("cache_control"), "the proxy's compat keeps tools unmarked");
    assert.equal(fake.calls[0].headers["x-api-key"], "proxy-key", "the models.json apiKey is sent");
  });

  it("malformed JSON gives a clear error, keeping earlier text", async () => {
    fake.enqueue({ malformed: true, text: "Good part" });
    const { final } = await collect(req());
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /Malformed response/);
    assert.deepEqual(final.content, [{ type: "text", text: "Good part" }]);
  });

  it("the default reply produces a structured summary when asked to summarize", async () => {
    const msg = await completeText(
      req({ systemPrompt: "Summarize the branch.", messages: [user("[User]: add tests to src/x.ts")] }),
    );
    const text = msg.content[0]?.type === "text" ? msg.content[0].text : "";
    assert.match(text, /## Goal\nadd tests to src\/x\.ts/);
    assert.match(text, /## Progress/);
  });
});
