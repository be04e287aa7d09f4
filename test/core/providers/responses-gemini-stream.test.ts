/**
 * The two wires the old provider layer did not speak, through pi-ai's implementations (the official `openai` SDK's
 * Responses client, `@google/genai`) to fake servers on 127.0.0.1: text, thinking, tool calls, images, usage and
 * cost, errors and retries.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { LlmMessage } from "../../../src/core/messages.js";
import type { ModelInfo, RetryInfo } from "../../../src/core/providers/types.js";
import { startFakeGemini } from "../../util/fake-gemini-server.js";
import { startFakeOpenAIResponses } from "../../util/fake-openai-responses-server.js";
import type { FakeServer } from "../../util/fake-provider-common.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { geminiModel, responsesModel } from "../../util/fake-models.js";
import { user } from "../../util/session-builder.js";
import { collect, requestsTo } from "./stream-helpers.js";

const KEY = "test-key-responses-and-gemini-1234";
const PRICES = { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 };
/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

interface Wire {
  name: string;
  start: () => Promise<FakeServer>;
  model: (fake: FakeServer) => ModelInfo;
  /** The key header the SDK sends. */
  key: (fake: FakeServer) => string | undefined;
  /** The texts of the request's user turns. */
  userTexts: (body: Record<string, unknown>) => string;
  /** The image of the request's user turn, as sent. */
  sentImage: (body: Record<string, unknown>) => string;
  /** The tool names the request offers. */
  toolNames: (body: Record<string, unknown>) => string[];
}

const WIRES: Wire[] = [
  {
    name: "OpenAI Responses",
    start: () => startFakeOpenAIResponses(),
    model: (fake) => responsesModel(fake, { reasoning: true, cost: PRICES }),
    key: (fake) => fake.calls.at(-1)?.headers.authorization?.replace(/^Bearer /, ""),
    userTexts: (body) => JSON.stringify(body.input),
    sentImage: (body) => JSON.stringify(body.input),
    toolNames: (body) => (body.tools as { name: string }[]).map((t) => t.name),
  },
  {
    name: "Gemini",
    start: () => startFakeGemini(),
    model: (fake) => geminiModel(fake, { reasoning: true, cost: PRICES }),
    key: (fake) => fake.calls.at(-1)?.headers["x-goog-api-key"] as string | undefined,
    userTexts: (body) => JSON.stringify(body.contents),
    sentImage: (body) => JSON.stringify(body.contents),
    toolNames: (body) =>
      (body.tools as { functionDeclarations: { name: string }[] }[]).flatMap((t) =>
        t.functionDeclarations.map((d) => d.name),
      ),
  },
];

for (const wire of WIRES) {
  describe(`${wire.name} through pi-ai against a fake server`, { timeout: 60_000 }, () => {
    const fake = fakeServerForSuite(wire.start);
    const req = requestsTo(() => wire.model(fake), KEY, "hello there");

    it("streams thinking and text, and fills usage and cost from the model's prices", async () => {
      fake.enqueue({
        thinking: "Let me consider",
        text: "Hello from the fake model",
        chunks: 3,
        usage: { input: 1000, output: 200, cacheRead: 100 },
      });
      const { events, final } = await collect(req({ systemPrompt: "Be brief.", thinkingLevel: "medium" }));
      assert.equal(final.stopReason, "stop");
      const text = final.content
        .filter((c) => c.type === "text")
        .map((c) => (c.type === "text" ? c.text : ""))
        .join("");
      assert.equal(text, "Hello from the fake model");
      const thinking = final.content.find((c) => c.type === "thinking");
      assert.ok(thinking?.type === "thinking" && thinking.thinking.includes("Let me consider"));
      assert.ok(thinking?.type === "thinking" && thinking.thinkingSignature, "the signature is kept for replay");
      assert.ok(events.filter((e) => e.type === "text_delta").length >= 3);
      assert.ok(events.some((e) => e.type === "thinking_delta"));
      assert.equal(final.usage.input, 1000);
      assert.equal(final.usage.cacheRead, 100);
      assert.ok(final.usage.output >= 200);
      const expected = (1000 * 2 + final.usage.output * 8 + 100 * 0.5) / 1e6;
      assert.ok(Math.abs(final.usage.cost.total - expected) < 1e-12, `${final.usage.cost.total} vs ${expected}`);
      assert.equal(final.api, wire.model(fake).api);
      assert.equal(wire.key(fake), KEY);
      assert.match(JSON.stringify(fake.requests[0]), /Be brief\./, "the system prompt is sent");
    });

    it("streams a tool call with its arguments, and sends its result back in the next request", async () => {
      fake.enqueue({ text: "Reading.", toolCalls: [{ name: "read", args: { path: "src/a.ts" }, id: "call_read_1" }] });
      const tools = [
        { name: "read", description: "Read a file", parameters: { type: "object" as const, properties: {} } },
      ];
      const first = await collect(req({ tools }));
      assert.equal(first.final.stopReason, "toolUse");
      const call = first.final.content.find((c) => c.type === "toolCall");
      assert.ok(call?.type === "toolCall");
      assert.equal(call.name, "read");
      assert.deepEqual(call.arguments, { path: "src/a.ts" });
      assert.deepEqual(wire.toolNames(fake.requests[0]), ["read"]);
      fake.enqueue({ text: "It exports main." });
      const messages: LlmMessage[] = [
        user("hello there"),
        first.final,
        {
          role: "toolResult",
          toolCallId: call.id,
          toolName: "read",
          content: [{ type: "text", text: "export function main() {}" }],
          isError: false,
          timestamp: 2,
        },
      ];
      const second = await collect(req({ tools, messages }));
      assert.equal(second.final.stopReason, "stop");
      assert.match(JSON.stringify(fake.requests[1]), /export function main\(\) \{\}/, "the tool result went back");
    });

    it("sends an image of the user's message as the wire's image part", async () => {
      fake.enqueue({ text: "A pixel." });
      const withImage: LlmMessage = {
        role: "user",
        content: [
          { type: "text", text: "What is this?" },
          { type: "image", data: PNG, mimeType: "image/png" },
        ],
        timestamp: 1,
      };
      const { final } = await collect(req({ messages: [withImage] }));
      assert.equal(final.stopReason, "stop");
      const sent = wire.sentImage(fake.requests[0]);
      assert.ok(sent.includes(PNG), "the image's data is in the request");
      assert.match(wire.userTexts(fake.requests[0]), /What is this\?/);
    });

    it("retries a 429 (with pi-ai's retries off, ours reports it) and says what a 401 means", async () => {
      fake.enqueue({ status: 429, headers: { "retry-after": "0" } }, { text: "after retry" });
      const retries: RetryInfo[] = [];
      const { final } = await collect(req({ onRetry: (r) => retries.push(r), retryBaseDelayMs: 60_000 }));
      assert.equal(final.stopReason, "stop");
      assert.equal(retries.length, 1);
      assert.equal(retries[0].delayMs, 0, "Retry-After: 0 wins over the 60 s base delay");
      fake.enqueue({
        status: 401,
        body: { error: { code: 401, message: `bad key ${KEY}`, status: "UNAUTHENTICATED" } },
      });
      const { final: denied, events } = await collect(req());
      assert.equal(denied.stopReason, "error");
      assert.match(denied.errorMessage ?? "", /Authentication failed/);
      assert.ok(!(denied.errorMessage ?? "").includes(KEY), "the key never shows in the message");
      const last = events.at(-1);
      assert.equal(last?.type === "error" && last.errorKind, "auth");
    });

    it("keeps the partial reply when the connection is cut mid-reply", async () => {
      fake.enqueue({ cutAfterChunks: 3, text: "one two three four five six seven eight" });
      const { final, events } = await collect(req({ maxRetries: 0 }));
      assert.equal(final.stopReason, "error");
      const text = final.content.find((c) => c.type === "text");
      assert.ok(
        text?.type === "text" &&
          text.text.length > 0 &&
          "one two three four five six seven eight".startsWith(text.text),
      );
      assert.match(final.errorMessage ?? "", /partial reply was kept/);
      const last = events.at(-1);
      assert.equal(last?.type === "error" && last.errorKind, "unreachable");
    });
  });
}
