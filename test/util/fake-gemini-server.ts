/**
 * A fake Gemini API server on 127.0.0.1 speaking what `@google/genai` sends and reads:
 * `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`, each SSE event a `GenerateContentResponse`
 * (`candidates[0].content.parts` of text, thought text with its signature, and whole `functionCall`s; the last one
 * with `finishReason` and `usageMetadata`). For tests of pi-ai's `google-generative-ai` API; scriptable like the
 * other fake servers (FakeReply), with the same default replies.
 *
 *   const fake = await startFakeGemini();
 *   // model: { provider: "fake-gemini", api: "google-generative-ai", baseUrl: fake.baseURL, ... }
 */
import http from "node:http";
import {
  estimateTokens,
  fakeServerStarter,
  paced,
  pause,
  splitChunks,
  type ConversationView,
  type FakeProtocol,
  type FakeRequestBody,
  type FakeStreamWriters,
} from "./fake-provider-common.js";

type Part = Record<string, unknown>;
type Content = { role?: string; parts?: Part[] };

/** One SSE event (genai reads `data:` lines). */
function chunk(res: http.ServerResponse, data: Record<string, unknown>): void {
  res.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
}

/** A chunk of the model's turn holding `parts`. */
function partsChunk(res: http.ServerResponse, parts: Part[], extra: Record<string, unknown> = {}): void {
  chunk(res, { candidates: [{ content: { role: "model", parts }, index: 0, ...extra }], modelVersion: "fake-gemini" });
}

const textOfParts = (parts: Part[] | undefined): string =>
  (parts ?? [])
    .map((p) => (typeof p.text === "string" && p.thought !== true ? p.text : ""))
    .filter(Boolean)
    .join("\n");

function view(body: FakeRequestBody): ConversationView {
  const contents = Array.isArray(body.contents) ? (body.contents as Content[]) : [];
  const system = textOfParts((body.systemInstruction as Content | undefined)?.parts);
  const last = contents[contents.length - 1];
  const response = last?.parts?.find((p) => p.functionResponse)?.functionResponse as
    { name?: string; response?: unknown } | undefined;
  const lastUser = [...contents].reverse().find((c) => c.role === "user" && !c.parts?.some((p) => p.functionResponse));
  const tools = Array.isArray(body.tools) ? (body.tools as { functionDeclarations?: { name?: string }[] }[]) : [];
  return {
    system,
    lastUserText: response ? "" : textOfParts(lastUser?.parts),
    allText: [system, ...contents.map((c) => textOfParts(c.parts))].join("\n"),
    toolNames: tools.flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name ?? "")).filter(Boolean),
    lastToolResult: response ? { toolName: response.name, text: JSON.stringify(response.response ?? "") } : undefined,
  };
}

const writeMessage: FakeStreamWriters["message"] = async (res, reply, body, delay) => {
  if (reply.thinking) {
    const pieces = splitChunks(reply.thinking, reply.chunks);
    await paced(pieces, delay, (text, i) => {
      const signature = i === pieces.length - 1 ? { thoughtSignature: reply.signature ?? "sig-fake" } : {};
      partsChunk(res, [{ text, thought: true, ...signature }]);
    });
  }
  await paced(splitChunks(reply.text ?? "", reply.chunks), delay, (text) => partsChunk(res, [{ text }]));
  const calls = reply.toolCalls ?? [];
  if (calls.length > 0) {
    await pause(delay);
    partsChunk(
      res,
      calls.map((call) => ({
        functionCall: {
          ...(call.id ? { id: call.id } : {}),
          name: call.name,
          args: call.rawArgs !== undefined ? (JSON.parse(call.rawArgs) as unknown) : (call.args ?? {}),
        },
      })),
    );
  }
  const input = reply.usage?.input ?? estimateTokens(JSON.stringify(body.contents ?? ""));
  const cached = reply.usage?.cacheRead ?? 0;
  const thoughts = reply.thinking ? estimateTokens(reply.thinking) : 0;
  const output = reply.usage?.output ?? estimateTokens((reply.text ?? "") + JSON.stringify(calls));
  chunk(res, {
    candidates: [
      {
        content: { role: "model", parts: [{ text: "" }] },
        finishReason: reply.stopReason === "length" ? "MAX_TOKENS" : "STOP",
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: input + cached,
      cachedContentTokenCount: cached,
      candidatesTokenCount: output,
      thoughtsTokenCount: thoughts,
      totalTokenCount: input + cached + output + thoughts,
    },
    modelVersion: "fake-gemini",
  });
};

const MODEL_PATH = /^\/v1beta\/models\/([^/:]+):streamGenerateContent$/;

const protocol: FakeProtocol = {
  basePath: "/v1beta",
  completionPath: "/v1beta/models/{model}:streamGenerateContent",
  completionModel: (path) => MODEL_PATH.exec(path)?.[1],
  keyFromHeaders: (h) => (typeof h["x-goog-api-key"] === "string" ? h["x-goog-api-key"] : undefined),
  writeError(res, status, message, _type, headers) {
    res.writeHead(status, { "content-type": "application/json", ...headers });
    const statusName =
      status === 429
        ? "RESOURCE_EXHAUSTED"
        : status === 404
          ? "NOT_FOUND"
          : status >= 500
            ? "INTERNAL"
            : "INVALID_ARGUMENT";
    res.end(JSON.stringify({ error: { code: status, message, status: statusName } }));
  },
  stream: {
    message: writeMessage,
    async cut(res, sent, _model, delay) {
      await paced(sent.text, delay, (text) => partsChunk(res, [{ text }]));
    },
    stall(res, reply) {
      partsChunk(res, [{ text: reply.text ?? "Thinking about it" }]);
    },
    streamError(res, reply) {
      partsChunk(res, [{ text: reply.text ?? "" }]);
      chunk(res, { error: { code: 500, message: reply.streamError, status: "INTERNAL" } });
    },
    malformed(res, reply) {
      partsChunk(res, [{ text: reply.text ?? "Partial" }]);
      res.write('data: {"candidates":[{"content":{"parts":[{"text":"x"\r\n\r\n');
    },
  },
  view,
};

/** Start a fake Gemini server; `baseURL` is `http://127.0.0.1:PORT/v1beta` (what pi-ai's Google models carry). */
export const startFakeGemini = fakeServerStarter(protocol);
