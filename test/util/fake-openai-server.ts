/**
 * A fake OpenAI Chat Completions server on 127.0.0.1 speaking the real SSE wire format, for tests
 * that drive the real `openai` SDK. Scriptable per request (see FakeReply) and reusable across tests.
 *
 *   const fake = await startFakeOpenAI();
 *   fake.enqueue({ status: 429, headers: { "retry-after": "0" } }, { text: "Hello" });
 *   // model: { provider: "openai", api: "openai-completions", baseUrl: fake.baseURL, ... }
 *   await fake.close();
 */
import * as fake from "./fake-provider-common.js";

export * from "./fake-provider-common.js";

function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
}

function view(body: fake.FakeRequestBody): fake.ConversationView {
  const messages = Array.isArray(body.messages) ? (body.messages as Record<string, unknown>[]) : [];
  const system = messages
    .filter((m) => m.role === "system" || m.role === "developer")
    .map((m) => fake.textOf(m.content))
    .join("\n");
  const last = messages[messages.length - 1];
  const lastUser = [...messages].reverse().find((m) => m.role === "user");
  const tools = Array.isArray(body.tools) ? (body.tools as { function?: { name?: string } }[]) : [];
  let lastToolResult: fake.ConversationView["lastToolResult"];
  if (last?.role === "tool") {
    const callId = last.tool_call_id;
    const call = messages
      .flatMap((m) =>
        Array.isArray(m.tool_calls) ? (m.tool_calls as { id?: string; function?: { name?: string } }[]) : [],
      )
      .find((c) => c.id === callId);
    lastToolResult = { toolName: call?.function?.name, text: fake.textOf(last.content) };
  }
  return {
    system,
    lastUserText: last?.role === "tool" ? "" : fake.textOf(lastUser?.content),
    allText: messages.map((m) => fake.textOf(m.content)).join("\n"),
    toolNames: tools.map((t) => t.function?.name ?? "").filter(Boolean),
    lastToolResult,
  };
}

const writeMessage: fake.FakeStreamWriters["message"] = async (res, reply, body, delay) => {
  const model = String(body.model);
  fake.sse(res, chunk(model, { role: "assistant", content: "" }));
  await fake.paced(fake.splitChunks(reply.thinking ?? "", reply.chunks), delay, (piece) =>
    fake.sse(res, chunk(model, { reasoning_content: piece })),
  );
  await fake.paced(fake.splitChunks(reply.text ?? "", reply.chunks), delay, (piece) =>
    fake.sse(res, chunk(model, { content: piece })),
  );
  const calls = reply.toolCalls ?? [];
  for (const [index, call] of calls.entries()) {
    const id = call.id ?? `call_fake_${requestsSeen(body)}_${index}`;
    fake.sse(
      res,
      chunk(model, { tool_calls: [{ index, id, type: "function", function: { name: call.name, arguments: "" } }] }),
    );
    await fake.paced(fake.argPieces(call), delay, (piece) =>
      fake.sse(res, chunk(model, { tool_calls: [{ index, function: { arguments: piece } }] })),
    );
  }
  const finish =
    reply.stopReason === "length" ? "length" : calls.length || reply.stopReason === "toolUse" ? "tool_calls" : "stop";
  fake.sse(res, chunk(model, {}, finish));
  const input = reply.usage?.input ?? fake.estimateTokens(JSON.stringify(body.messages ?? ""));
  const cached = reply.usage?.cacheRead ?? 0;
  const output = fake.outputTokens(reply);
  fake.sse(
    res,
    JSON.stringify({
      id: "chatcmpl-fake",
      object: "chat.completion.chunk",
      created: 1_700_000_000,
      model,
      choices: [],
      usage: {
        prompt_tokens: input + cached,
        completion_tokens: output,
        total_tokens: input + cached + output,
        prompt_tokens_details: { cached_tokens: cached },
      },
    }),
  );
  fake.sse(res, "[DONE]");
};

/** Deterministic ids: count of messages in the request. */
function requestsSeen(body: fake.FakeRequestBody): number {
  return Array.isArray(body.messages) ? body.messages.length : 0;
}

const protocol: fake.FakeProtocol = {
  basePath: "/v1",
  completionPath: "/v1/chat/completions",
  keyFromHeaders: fake.bearerKey,
  writeError: fake.writeOpenAIError,
  stream: {
    message: writeMessage,
    async cut(res, sent, model, delay) {
      fake.sse(res, chunk(model, { role: "assistant", content: "" }));
      await fake.paced(sent.text, delay, (piece) => fake.sse(res, chunk(model, { content: piece })));
      if (sent.toolCall) {
        const { name, id = "call_cut_0", args } = sent.toolCall;
        fake.sse(
          res,
          chunk(model, { tool_calls: [{ index: 0, id, type: "function", function: { name, arguments: "" } }] }),
        );
        await fake.paced(args, delay, (piece) =>
          fake.sse(res, chunk(model, { tool_calls: [{ index: 0, function: { arguments: piece } }] })),
        );
      }
    },
    stall(res, reply, model) {
      fake.sse(res, chunk(model, { role: "assistant", content: reply.text ?? "Thinking about it" }));
    },
    streamError(res, reply, model) {
      fake.sse(res, chunk(model, { role: "assistant", content: reply.text ?? "" }));
      fake.sse(
        res,
        JSON.stringify({ error: { message: reply.streamError, type: reply.errorType ?? "server_error", code: null } }),
      );
    },
    malformed(res, reply, model) {
      fake.sse(res, chunk(model, { role: "assistant", content: reply.text ?? "Partial" }));
      res.write('data: {"id":"chatcmpl-fake","choices":[{"index":0,"delta":{"content":"x"\n\n');
    },
  },
  view,
  listModels: (models) => ({
    object: "list",
    data: models.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "fake" })),
  }),
};

/** What an OpenAI server answers when the request is longer than the model's context window. */
export const CONTEXT_OVERFLOW_REPLY: fake.FakeErrorReply = {
  status: 400,
  body: {
    error: {
      message: "This model's maximum context length is 8192 tokens.",
      type: "invalid_request_error",
      code: "context_length_exceeded",
    },
  },
};

/** Start a fake OpenAI server; `baseURL` is `http://127.0.0.1:PORT/v1`. */
export const startFakeOpenAI = fake.fakeServerStarter(protocol);

/** The default (echo / summary / `/tool`) reply for an OpenAI request body; handy inside custom `setDefault` functions. */
export function openAIConversationView(body: fake.FakeRequestBody): fake.ConversationView {
  return view(body);
}
