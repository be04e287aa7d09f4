/**
 * A fake Anthropic Messages server on 127.0.0.1 speaking the real SSE wire format, for tests that
 * drive the real `@anthropic-ai/sdk`. Same scripting API as fake-openai-server.ts; `baseURL` has no /v1.
 */
import type http from "node:http";
import * as fake from "./fake-provider-common.js";

export * from "./fake-provider-common.js";

function event(res: http.ServerResponse, type: string, data: Record<string, unknown>): void {
  fake.sse(res, JSON.stringify({ type, ...data }), type);
}

function messageStart(res: http.ServerResponse, model: string, input: number, cacheRead = 0, cacheWrite = 0): void {
  event(res, "message_start", {
    message: {
      id: "msg_fake",
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: {
        input_tokens: input,
        output_tokens: 1,
        cache_read_input_tokens: cacheRead,
        cache_creation_input_tokens: cacheWrite,
      },
    },
  });
}

/** Open the first content block as text (the short replies: cut, stall, error, malformed). */
function textStart(res: http.ServerResponse): void {
  event(res, "content_block_start", { index: 0, content_block: { type: "text", text: "" } });
}

function textDelta(res: http.ServerResponse, text: string): void {
  event(res, "content_block_delta", { index: 0, delta: { type: "text_delta", text } });
}

function systemText(system: unknown): string {
  return fake.textOf(system);
}

function view(body: fake.FakeRequestBody): fake.ConversationView {
  const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
  const last = messages[messages.length - 1];
  const blocks = (m: Record<string, unknown> | undefined): Record<string, unknown>[] =>
    Array.isArray(m?.content) ? (m.content as Record<string, unknown>[]) : [];
  const lastBlocks = blocks(last);
  const toolResult =
    last?.role === "user" ? [...lastBlocks].reverse().find((b) => b.type === "tool_result") : undefined;
  let lastToolResult: fake.ConversationView["lastToolResult"];
  if (toolResult) {
    const use = messages.flatMap(blocks).find((b) => b.type === "tool_use" && b.id === toolResult.tool_use_id);
    lastToolResult = {
      toolName: typeof use?.name === "string" ? use.name : undefined,
      text: fake.textOf(toolResult.content),
    };
  }
  const lastUser = [...messages]
    .reverse()
    .find((m) => m.role === "user" && !blocks(m).some((b) => b.type === "tool_result"));
  const tools = Array.isArray(body.tools) ? (body.tools as { name?: string }[]) : [];
  return {
    system: systemText(body.system),
    lastUserText: toolResult ? "" : fake.textOf(lastUser?.content),
    allText: [systemText(body.system), ...messages.map((m) => fake.textOf(m.content))].join("\n"),
    toolNames: tools.map((t) => t.name ?? "").filter(Boolean),
    lastToolResult,
  };
}

const writeMessage: fake.FakeStreamWriters["message"] = async (res, reply, body, delay) => {
  const model = String(body.model);
  const input =
    reply.usage?.input ?? fake.estimateTokens(JSON.stringify(body.messages ?? "") + systemText(body.system));
  messageStart(res, model, input, reply.usage?.cacheRead ?? 0, reply.usage?.cacheWrite ?? 0);
  let index = 0;
  if (reply.thinking) {
    event(res, "content_block_start", { index, content_block: { type: "thinking", thinking: "", signature: "" } });
    await fake.paced(fake.splitChunks(reply.thinking, reply.chunks), delay, (piece) =>
      event(res, "content_block_delta", { index, delta: { type: "thinking_delta", thinking: piece } }),
    );
    const signature = reply.signature ?? `sig-${Buffer.from(reply.thinking).toString("base64").slice(0, 24)}`;
    event(res, "content_block_delta", { index, delta: { type: "signature_delta", signature } });
    event(res, "content_block_stop", { index });
    index++;
  }
  if (reply.text) {
    event(res, "content_block_start", { index, content_block: { type: "text", text: "" } });
    await fake.paced(fake.splitChunks(reply.text, reply.chunks), delay, (piece) =>
      event(res, "content_block_delta", { index, delta: { type: "text_delta", text: piece } }),
    );
    event(res, "content_block_stop", { index });
    index++;
  }
  const calls = reply.toolCalls ?? [];
  for (const [i, call] of calls.entries()) {
    const id = call.id ?? `toolu_fake_${Array.isArray(body.messages) ? body.messages.length : 0}_${i}`;
    event(res, "content_block_start", { index, content_block: { type: "tool_use", id, name: call.name, input: {} } });
    await fake.paced(fake.argPieces(call), delay, (piece) =>
      event(res, "content_block_delta", { index, delta: { type: "input_json_delta", partial_json: piece } }),
    );
    event(res, "content_block_stop", { index });
    index++;
  }
  const stop =
    reply.stopReason === "length"
      ? "max_tokens"
      : calls.length || reply.stopReason === "toolUse"
        ? "tool_use"
        : "end_turn";
  const usage = { output_tokens: fake.outputTokens(reply) };
  event(res, "message_delta", { delta: { stop_reason: stop, stop_sequence: null }, usage });
  event(res, "message_stop", {});
};

const protocol: fake.FakeProtocol = {
  basePath: "",
  completionPath: "/v1/messages",
  modelsPath: "/v1/models",
  // Older SDKs send x-api-key; 1.x sends the key as a bearer token.
  keyFromHeaders: (h) =>
    typeof h["x-api-key"] === "string"
      ? h["x-api-key"]
      : typeof h.authorization === "string"
        ? h.authorization.replace(/^Bearer\s+/i, "")
        : undefined,
  writeError(res, status, message, type, headers) {
    res.writeHead(status, { "content-type": "application/json", "request-id": "req_fake", ...headers });
    const t = status === 500 ? "api_error" : status === 529 ? "overloaded_error" : type;
    res.end(JSON.stringify({ type: "error", error: { type: t, message } }));
  },
  stream: {
    message: writeMessage,
    async cut(res, sent, model, delay) {
      messageStart(res, model, 10);
      textStart(res);
      await fake.paced(sent.text, delay, (piece) => textDelta(res, piece));
      if (sent.toolCall) {
        const { name, id = "toolu_cut_0", args } = sent.toolCall;
        event(res, "content_block_stop", { index: 0 });
        event(res, "content_block_start", { index: 1, content_block: { type: "tool_use", id, name, input: {} } });
        await fake.paced(args, delay, (piece) =>
          event(res, "content_block_delta", { index: 1, delta: { type: "input_json_delta", partial_json: piece } }),
        );
      }
    },
    stall(res, reply, model) {
      messageStart(res, model, 10);
      textStart(res);
      textDelta(res, reply.text ?? "Thinking about it");
    },
    streamError(res, reply, model) {
      messageStart(res, model, 10);
      textStart(res);
      if (reply.text) textDelta(res, reply.text);
      event(res, "error", { error: { type: reply.errorType ?? "overloaded_error", message: reply.streamError } });
    },
    malformed(res, reply, model) {
      messageStart(res, model, 10);
      textStart(res);
      textDelta(res, reply.text ?? "Partial");
      res.write(
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_del\n\n',
      );
    },
  },
  view,
  listModels: (models) => ({
    data: models.map((id) => ({ id, type: "model", display_name: id, created_at: "2025-01-01T00:00:00Z" })),
    has_more: false,
    first_id: models[0] ?? null,
    last_id: models[models.length - 1] ?? null,
  }),
};

/** Start a fake Anthropic server; `baseURL` is `http://127.0.0.1:PORT` (the SDK appends /v1/messages). */
export const startFakeAnthropic = fake.fakeServerStarter(protocol);

/** The provider-neutral view of an Anthropic request body (for custom `setDefault` functions). */
export function anthropicConversationView(body: fake.FakeRequestBody): fake.ConversationView {
  return view(body);
}
