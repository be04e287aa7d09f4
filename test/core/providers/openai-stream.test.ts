import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { emptyUsage, type AssistantMessage, type LlmMessage } from "../../../src/core/messages.js";
import { ProviderError } from "../../../src/core/providers/provider-error.js";
import type { ModelInfo, RetryInfo } from "../../../src/core/providers/types.js";
import { CONTEXT_OVERFLOW_REPLY, startFakeOpenAI } from "../../util/fake-openai-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { user } from "../../util/session-builder.js";
import { openAIModel } from "../agent/helpers.js";
import { abortAtFirstDelta, collect, completeText, requestsTo } from "./stream-helpers.js";
import { KEYED_PROVIDER, KEYED_PROVIDER_ENV } from "../../util/test-models.js";

const KEY = "sk-test-secret-key-1234567890";

const OVER: Partial<ModelInfo> = {
  provider: "fake-openai",
  contextWindow: 32_000,
  maxTokens: 1000,
  cost: { input: 1, output: 2, cacheRead: 0.5, cacheWrite: 0 },
};
const model = (baseURL: string): ModelInfo => openAIModel({ baseURL }, OVER);

describe("openai provider against a fake server", () => {
  const fake = fakeServerForSuite();
  const req = requestsTo(() => model(fake.baseURL), KEY, "hello there");

  it("streams text deltas and fills usage and cost", async () => {
    fake.enqueue({ text: "Hello from the fake model", chunks: 4, usage: { input: 100, output: 50, cacheRead: 20 } });
    const { events, final } = await collect(req({ systemPrompt: "Be brief." }));
    assert.equal(events[0].type, "start");
    const deltas = events.filter((e) => e.type === "text_delta");
    assert.equal(deltas.length, 4);
    assert.equal(final.stopReason, "stop");
    assert.deepEqual(final.content, [{ type: "text", text: "Hello from the fake model" }]);
    assert.equal(final.usage.input, 100);
    assert.equal(final.usage.cacheRead, 20);
    assert.equal(final.usage.output, 50);
    assert.equal(final.usage.totalTokens, 170);
    assert.ok(Math.abs(final.usage.cost.total - (100 * 1 + 50 * 2 + 20 * 0.5) / 1e6) < 1e-12);
    const body = fake.requests[0];
    assert.equal(body.model, "fake-model");
    assert.equal(body.stream, true);
    assert.deepEqual((body.messages as unknown[])[0], { role: "system", content: "Be brief." });
    assert.equal(fake.calls[fake.calls.length - 1].headers.authorization, `Bearer ${KEY}`);
  });

  it("streams tool calls, parses arguments and says which ones were not JSON", async () => {
    fake.enqueue({
      text: "Let me look.",
      toolCalls: [
        { name: "read", args: { path: "src/a.ts", offset: 2 }, id: "call_1" },
        { name: "bash", rawArgs: '{"command": "ls', id: "call_2" },
      ],
    });
    const { events, final } = await collect(
      req({ tools: [{ name: "read", description: "r", parameters: { type: "object", properties: {} } }] }),
    );
    assert.equal(final.stopReason, "toolUse");
    const calls = final.content.filter((c) => c.type === "toolCall");
    assert.deepEqual(calls[0], {
      type: "toolCall",
      id: "call_1",
      name: "read",
      arguments: { path: "src/a.ts", offset: 2 },
    });
    // pi-ai keeps what the model sent in argumentsError (the agent answers the call with it: tool-execution.ts).
    const bad = calls[1];
    assert.equal(bad.type === "toolCall" && bad.id, "call_2");
    assert.deepEqual(bad.type === "toolCall" && bad.arguments, {});
    assert.match((bad.type === "toolCall" && bad.argumentsError) || "", /\{"command": "ls/);
    assert.ok(events.some((e) => e.type === "toolcall_delta"));
    const tools = fake.requests[0].tools as { function: { name: string } }[];
    assert.equal(tools[0].function.name, "read");
  });

  it("maps a tool-using conversation to paired tool_calls and tool messages", async () => {
    fake.enqueue({ text: "done" });
    const assistant: AssistantMessage = {
      role: "assistant",
      content: [
        { type: "thinking", thinking: "hmm" },
        { type: "text", text: "Reading" },
        { type: "toolCall", id: "call|odd", name: "read", arguments: { path: "a.txt" } },
        { type: "toolCall", id: "call_orphan", name: "ls", arguments: {} },
      ],
      provider: "fake-openai",
      model: "fake-model",
      usage: final0().usage,
      stopReason: "toolUse",
      timestamp: 2,
    };
    const messages: LlmMessage[] = [
      user("read a.txt"),
      assistant,
      {
        role: "toolResult",
        toolCallId: "call|odd",
        toolName: "read",
        content: [
          { type: "text", text: "contents" },
          { type: "image", data: "AAAA", mimeType: "image/png" },
        ],
        isError: false,
        timestamp: 3,
      },
      { role: "toolResult", toolCallId: "unknown", toolName: "x", content: [], isError: false, timestamp: 4 },
    ];
    await collect(req({ messages }));
    const sent = fake.requests[0].messages as Record<string, unknown>[];
    assert.deepEqual(sent[1], {
      role: "assistant",
      content: "Reading",
      tool_calls: [
        { id: "call_odd", type: "function", function: { name: "read", arguments: '{"path":"a.txt"}' } },
        { id: "call_orphan", type: "function", function: { name: "ls", arguments: "{}" } },
      ],
    });
    assert.deepEqual(sent[2], { role: "tool", tool_call_id: "call_odd", content: "contents" });
    assert.equal(sent[3].role, "tool");
    assert.equal(sent[3].tool_call_id, "call_orphan");
    assert.match(String(sent[3].content), /No result/);
    assert.equal(sent[4].role, "user");
    assert.match(JSON.stringify(sent[4].content), /data:image\/png;base64,AAAA/);
    assert.equal(sent.length, 5);
  });

  it("retries a 429 honouring Retry-After and reports the retry", async () => {
    fake.enqueue({ status: 429, headers: { "retry-after": "0" } }, { text: "after retry" });
    const retries: RetryInfo[] = [];
    const { final } = await collect(req({ onRetry: (r) => retries.push(r), retryBaseDelayMs: 60_000 }));
    assert.equal(final.stopReason, "stop");
    assert.deepEqual(final.content, [{ type: "text", text: "after retry" }]);
    assert.equal(retries.length, 1);
    assert.equal(retries[0].attempt, 1);
    assert.equal(retries[0].delayMs, 0, "Retry-After: 0 wins over the 60s base delay");
    assert.match(retries[0].error, /429/);
    assert.equal(fake.requests.length, 2);
  });

  it("gives up after maxRetries on persistent 500s", async () => {
    fake.enqueue({ status: 500 }, { status: 500 }, { status: 500 });
    const retries: RetryInfo[] = [];
    const { final, events } = await collect(req({ maxRetries: 2, onRetry: (r) => retries.push(r) }));
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /server error \(HTTP 500\)/);
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "server");
    assert.deepEqual(
      retries.map((r) => r.delayMs),
      [5, 10],
    );
    assert.equal(fake.requests.length, 3);
  });

  it("reports 401 clearly without leaking the key", async () => {
    fake.enqueue({
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${KEY}`, type: "invalid_request_error" } },
    });
    const { final, events } = await collect(req());
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /Authentication failed/);
    assert.ok(!(final.errorMessage ?? "").includes(KEY), "key must not appear in the message");
    assert.ok(!(final.errorMessage ?? "").includes("secret-key-12345"));
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "auth");
    assert.equal(fake.requests.length, 1, "401 is not retried");
  });

  it("keeps partial content when the stream is cut mid-message", async () => {
    fake.enqueue({ cutAfterChunks: 3, text: "one two three four five six seven eight" });
    const { final, events } = await collect(req());
    assert.equal(final.stopReason, "error");
    const text = final.content[0]?.type === "text" ? final.content[0].text : "";
    assert.ok(text.length > 0, "partial text kept");
    assert.ok("one two three four five six seven eight".startsWith(text));
    assert.match(final.errorMessage ?? "", /partial reply was kept/);
    assert.ok(events.some((e) => e.type === "text_delta"));
  });

  it("aborts a stalled stream through the signal, keeping the partial content", async () => {
    fake.enqueue({ stall: true, text: "Partial answer" });
    const events = await abortAtFirstDelta(req);
    const last = events[events.length - 1];
    assert.equal(last.type, "error");
    assert.equal(last.type === "error" && last.message.stopReason, "aborted");
    assert.deepEqual(last.type === "error" && last.message.content, [{ type: "text", text: "Partial answer" }]);
  });

  it("ends with a clear error on malformed JSON in a chunk", async () => {
    fake.enqueue({ malformed: true, text: "Before the bad chunk" });
    const { final, events } = await collect(req());
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /Malformed response/);
    assert.deepEqual(final.content, [{ type: "text", text: "Before the bad chunk" }]);
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "bad_response");
  });

  it("an in-stream error object ends the stream with the partial text", async () => {
    fake.enqueue({ streamError: "upstream exploded", text: "Some" });
    const { final } = await collect(req());
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /upstream exploded/);
    assert.deepEqual(final.content, [{ type: "text", text: "Some" }]);
  });

  it("setDefault replaces the default reply", async () => {
    fake.setDefault((body) => ({ text: `default ${String(body.model)}` }));
    try {
      const msg = await completeText(req());
      assert.deepEqual(msg.content, [{ type: "text", text: "default fake-model" }]);
    } finally {
      fake.reset();
    }
    const echo = await completeText(req({ messages: [user("back")] }));
    assert.deepEqual(echo.content, [{ type: "text", text: "Echo: back" }], "reset restores the default reply");
  });

  it("a stream that ends without a finish reason is an error, not a silent success", async () => {
    fake.enqueue({
      rawEvents: [
        {
          data: JSON.stringify({
            id: "x",
            object: "chat.completion.chunk",
            created: 1,
            model: "m",
            choices: [{ index: 0, delta: { content: "Hal" }, finish_reason: null }],
          }),
        },
      ],
    });
    const { final } = await collect(req());
    assert.equal(final.stopReason, "error");
    assert.match(final.errorMessage ?? "", /ended before the reply was complete/);
    assert.deepEqual(final.content, [{ type: "text", text: "Hal" }]);
  });

  it("a 400 keeps the server's words (so context overflow can be recognised) and is not retried", async () => {
    fake.enqueue(CONTEXT_OVERFLOW_REPLY);
    const { final, events } = await collect(req());
    assert.match(
      final.errorMessage ?? "",
      /rejected the request \(HTTP 400\): This model's maximum context length is 8192 tokens\./,
    );
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "bad_response");
    assert.equal(fake.requests.length, 1);
  });

  it("leaves failed and aborted turns out of the request, as pi does, and their tool results with them", async () => {
    fake.enqueue({ text: "ok" });
    const aborted: AssistantMessage = {
      ...final0(),
      content: [
        { type: "text", text: "I was saying" },
        { type: "toolCall", id: "call_x", name: "bash", arguments: { command: "ls" } },
      ],
      stopReason: "aborted",
    };
    const empty: AssistantMessage = { ...final0(), content: [], stopReason: "error" };
    const skipped: LlmMessage = {
      role: "toolResult",
      toolCallId: "call_x",
      toolName: "bash",
      content: [{ type: "text", text: "Aborted" }],
      isError: true,
      timestamp: 5,
    };
    await collect(req({ messages: [user("one"), aborted, skipped, empty, user("two")] }));
    const sent = fake.requests[0].messages as Record<string, unknown>[];
    assert.deepEqual(sent, [
      { role: "user", content: "one" },
      { role: "user", content: "two" },
    ]);
  });

  it("reports an unknown model as not_found", async () => {
    const strict = await startFakeOpenAI({ models: ["only-this"] });
    try {
      const { final, events } = await collect({ ...req(), model: model(strict.baseURL) });
      assert.equal(final.stopReason, "error");
      assert.match(final.errorMessage ?? "", /Model "fake-model" not found/);
      const last = events[events.length - 1];
      assert.equal(last.type === "error" && last.errorKind, "not_found");
    } finally {
      await strict.close();
    }
  });

  it("says the server is not running when nothing listens", async () => {
    const gone = await startFakeOpenAI();
    const url = gone.baseURL;
    await gone.close();
    const { final, events } = await collect({ ...req(), model: model(url) });
    assert.equal(final.errorMessage, `Cannot reach ${url}: is the server running? (ECONNREFUSED)`);
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "unreachable");
  });

  it("completeText returns the message, and rejects with ProviderError on failure", async () => {
    fake.enqueue({ text: "whole" }, { status: 401 });
    const msg = await completeText(req());
    assert.deepEqual(msg.content, [{ type: "text", text: "whole" }]);
    await assert.rejects(completeText(req()), (e: unknown) => e instanceof ProviderError && e.kind === "auth");
  });

  it("refuses to call without a key unless the provider needs none", async () => {
    const keyed = { ...model(fake.baseURL), provider: KEYED_PROVIDER };
    const { final, events } = await collect({ ...req(), apiKey: undefined, model: keyed });
    assert.match(final.errorMessage ?? "", new RegExp(`No API key for ${KEYED_PROVIDER}: set ${KEYED_PROVIDER_ENV}`));
    const last = events[events.length - 1];
    assert.equal(last.type === "error" && last.errorKind, "auth");
    assert.equal(fake.requests.length, 0);
    fake.enqueue({ text: "local ok" });
    // The suite's provider is keyless (noApiKey): it is called without a key of the test's.
    const local = await collect({ ...req(), apiKey: undefined });
    assert.equal(local.final.stopReason, "stop");
    assert.equal(fake.requests.length, 1);
  });

  it("the default reply echoes, summarizes and calls tools on /tool", async () => {
    const echo = await completeText(req({ messages: [user("ping 42")] }));
    assert.deepEqual(echo.content, [{ type: "text", text: "Echo: ping 42" }]);
    const sum = await completeText(
      req({
        systemPrompt: "You summarize conversations.",
        messages: [user("<conversation>\n[User]: fix src/app.ts\n</conversation>")],
      }),
    );
    const text = sum.content[0]?.type === "text" ? sum.content[0].text : "";
    assert.match(text, /^## Goal\nfix src\/app\.ts/);
    assert.match(text, /## Next Steps/);
    const tool = await completeText(
      req({
        messages: [user('/tool read {"path":"x.txt"}')],
        tools: [{ name: "read", description: "r", parameters: { type: "object", properties: {} } }],
      }),
    );
    assert.equal(tool.stopReason, "toolUse");
    assert.deepEqual(tool.content.find((c) => c.type === "toolCall")?.arguments, { path: "x.txt" });
  });
});

function final0(): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    provider: "x",
    model: "x",
    usage: emptyUsage(),
    stopReason: "stop",
    timestamp: 0,
  };
}
