/**
 * Shared machinery of the fake model servers (fake-openai-server.ts, fake-anthropic-server.ts):
 * the reply script, request recording, the HTTP control endpoints, and the deterministic default replies.
 * Loopback only. Used by unit tests, the end-to-end tests (as a separate process) and `npm start`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A tool call the fake model makes. `rawArgs` (sent verbatim) wins over `args` (JSON-encoded). */
export interface FakeToolCall {
  name: string;
  args?: Record<string, unknown>;
  rawArgs?: string;
  id?: string;
}

/** Token counts to report; missing ones are estimated (chars / 4). */
export interface FakeUsage {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** A normal streamed reply: optional thinking, text, tool calls. */
export interface FakeMessageReply {
  text?: string;
  /** Split the text into this many chunks (default: about one per word, at most 20). */
  chunks?: number;
  /** Anthropic thinking block (OpenAI: `reasoning_content`). */
  thinking?: string;
  /** Anthropic thinking signature (default: a deterministic fake). */
  signature?: string;
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /** Force the stop reason ("length" → finish_reason length / stop_reason max_tokens). */
  stopReason?: "stop" | "length" | "toolUse";
  /** Pause between chunks, ms (default: the server's `chunkDelayMs`, else 0). */
  chunkDelayMs?: number;
}

/** An HTTP error answer (e.g. 429 with `headers: {"retry-after": "0"}`, 500, 401). */
export interface FakeErrorReply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Send `cutAfterChunks` chunks of `text`, then destroy the socket mid-message. With `toolCall`, the text is
 * followed by the start of that tool call and only the first `sentArgChars` characters of its arguments.
 */
export interface FakeCutReply {
  cutAfterChunks: number;
  text?: string;
  /** A tool call cut in the middle of its arguments. */
  toolCall?: FakeToolCall;
  /** Characters of the tool call's JSON arguments sent before the cut (default: half of them). */
  sentArgChars?: number;
  /** "destroy" (default) resets the connection; "end" ends the HTTP response normally, mid-message. */
  cutBy?: "destroy" | "end";
}

/** A tool call's JSON arguments as sent: `rawArgs` verbatim, else `args` encoded. */
export function toolArgs(call: FakeToolCall): string {
  return call.rawArgs ?? JSON.stringify(call.args ?? {});
}

/** The pieces a tool call's arguments ({@link toolArgs}) stream in (up to four). */
export function argPieces(call: FakeToolCall): string[] {
  const args = toolArgs(call);
  return splitChunks(args, Math.min(4, args.length));
}

/** What a cut reply sends before its cut: its text's pieces, then the tool call cut in its arguments' pieces. */
export interface CutPieces {
  text: string[];
  toolCall?: { name: string; id?: string; args: string[] };
}

/** A cut reply's {@link CutPieces}: up to `cutAfterChunks` of 8 text pieces; the sent arguments in up to two. */
function cutPieces(reply: FakeCutReply): CutPieces {
  const text = splitChunks(reply.text ?? "This reply will be cut off before it ends", 8).slice(0, reply.cutAfterChunks);
  if (!reply.toolCall) return { text };
  const args = toolArgs(reply.toolCall);
  const sent = args.slice(0, reply.sentArgChars ?? Math.floor(args.length / 2));
  return { text, toolCall: { name: reply.toolCall.name, id: reply.toolCall.id, args: splitChunks(sent, 2) } };
}

/** The output tokens a message reply reports: its usage's, else estimated from its text, thinking and calls. */
export function outputTokens(reply: FakeMessageReply): number {
  return (
    reply.usage?.output ??
    estimateTokens((reply.text ?? "") + (reply.thinking ?? "") + JSON.stringify(reply.toolCalls ?? []))
  );
}

/** Close a cut reply's connection the way it asks. */
async function cutConnection(res: http.ServerResponse, reply: FakeCutReply): Promise<void> {
  await pause(20);
  if (reply.cutBy === "end") res.end();
  else res.socket?.destroy();
}

/** Send `text` (if any) then hang until the client disconnects (for abort tests). */
export interface FakeStallReply {
  stall: true;
  text?: string;
}

/** Send one valid text chunk (`text`), then a chunk whose JSON is broken. */
export interface FakeMalformedReply {
  malformed: true;
  text?: string;
}

/** Send `text` (if any), then an in-stream error event (Anthropic `overloaded_error`, OpenAI `{"error": …}`). */
export interface FakeStreamErrorReply {
  streamError: string;
  /** Anthropic error type (default "overloaded_error"). */
  errorType?: string;
  text?: string;
}

/** Send these SSE frames verbatim (then end the response), to test unusual servers. */
export interface FakeRawReply {
  rawEvents: { event?: string; data: string }[];
}

/** Everything a fake server can be scripted to do for one request. */
export type FakeReply =
  | FakeMessageReply
  | FakeErrorReply
  | FakeCutReply
  | FakeStallReply
  | FakeMalformedReply
  | FakeStreamErrorReply
  | FakeRawReply;

/** A request body as received (JSON object). */
export type FakeRequestBody = Record<string, unknown>;

/** Computes a reply from the request body. */
export type FakeReplyFn = (body: FakeRequestBody) => FakeReply;

/** Full record of one model request. */
export interface FakeCall {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: FakeRequestBody;
}

/** Options common to both fake servers. */
export interface FakeServerOptions {
  /** Port to listen on (default: random free port). Always binds 127.0.0.1. */
  port?: number;
  /** Reply when the queue is empty (default: the deterministic echo/summary reply). */
  defaultReply?: FakeReplyFn;
  /** Default pause between chunks, ms. */
  chunkDelayMs?: number;
  /** If set, any other model id gets a 404 "model not found". */
  models?: string[];
  /** If set, requests without exactly this key get a 401. */
  apiKey?: string;
  /** Called when a streamed reply was written to its end (its last chunk sent), e.g. to time what a client shows. */
  onReplyEnd?: (body: FakeRequestBody) => void;
}

/** A running fake server. */
export interface FakeServer {
  /** Base URL to give the SDK (OpenAI: ends in /v1; Anthropic: no /v1). */
  baseURL: string;
  port: number;
  /** Bodies of the model requests, in order. */
  requests: FakeRequestBody[];
  /** Full records (with headers) of the model requests. */
  calls: FakeCall[];
  /** Queue a reply for the next request (FIFO); a function computes it from the body. */
  enqueue(...replies: (FakeReply | FakeReplyFn)[]): void;
  /** Replace the reply used when the queue is empty. */
  setDefault(fn: FakeReplyFn): void;
  /** Replies still queued. */
  pending(): number;
  /** Forget queued replies and recorded requests, and restore the default reply. */
  reset(): void;
  /** Stop listening and drop open connections (stalled streams included). */
  close(): Promise<void>;
}

/** What a provider module contributes: its routes and wire format. */
export interface FakeProtocol {
  /** Path prefix of the base URL ("/v1" for OpenAI, "" for Anthropic). */
  basePath: string;
  /** Path of the streaming endpoint. */
  completionPath: string;
  /**
   * For APIs that name the model in the path (Gemini's `/models/<id>:streamGenerateContent`): the model of a
   * request path, or undefined when the path is not the streaming endpoint. Replaces `completionPath`.
   */
  completionModel?: (path: string) => string | undefined;
  /** Key the client sent, from the headers. */
  keyFromHeaders(headers: http.IncomingHttpHeaders): string | undefined;
  /** Write an HTTP error in the provider's JSON shape. */
  writeError(
    res: http.ServerResponse,
    status: number,
    message: string,
    type: string,
    headers?: Record<string, string>,
  ): void;
  /** How this provider streams each kind of scripted reply. */
  stream: FakeStreamWriters;
  /** Extract what the default reply needs from a request. */
  view(body: FakeRequestBody): ConversationView;
  /** Path of the model list (default `<basePath>/models`). */
  modelsPath?: string;
  /** Model ids for GET <modelsPath>. */
  listModels?: (models: string[]) => unknown;
}

/**
 * One provider's SSE frames for each kind of streamed reply. The shared server sends the SSE headers
 * before calling one, and afterwards closes the stream the way the reply asks (cut, hang, end).
 */
export interface FakeStreamWriters {
  /** A whole message: thinking, text, tool calls, stop reason and usage. */
  message(
    res: http.ServerResponse,
    reply: FakeMessageReply,
    body: FakeRequestBody,
    chunkDelayMs: number,
  ): Promise<void>;
  /** What a cut reply sends before its connection is cut. */
  cut(res: http.ServerResponse, sent: CutPieces, model: string, chunkDelayMs: number): Promise<void>;
  /** What a stalled reply sends before it hangs. */
  stall(res: http.ServerResponse, reply: FakeStallReply, model: string): void;
  /** The text and the in-stream error event. */
  streamError(res: http.ServerResponse, reply: FakeStreamErrorReply, model: string): void;
  /** One valid text chunk, then a frame whose JSON is broken. */
  malformed(res: http.ServerResponse, reply: FakeMalformedReply, model: string): void;
}

/** A provider-neutral view of a request for the default reply. */
export interface ConversationView {
  system: string;
  /** Text of the last user turn (empty if the last turn is a tool result). */
  lastUserText: string;
  /** All text in the request (system + messages). */
  allText: string;
  toolNames: string[];
  /** Text of the last message when it is a tool result. */
  lastToolResult?: { toolName?: string; text: string };
}

/** Type guards for FakeReply variants. */
export const isErrorReply = (r: FakeReply): r is FakeErrorReply => "status" in r;
export const isCutReply = (r: FakeReply): r is FakeCutReply => "cutAfterChunks" in r;
export const isStallReply = (r: FakeReply): r is FakeStallReply => "stall" in r;
export const isMalformedReply = (r: FakeReply): r is FakeMalformedReply => "malformed" in r;
export const isStreamErrorReply = (r: FakeReply): r is FakeStreamErrorReply => "streamError" in r;
export const isRawReply = (r: FakeReply): r is FakeRawReply => "rawEvents" in r;

/** Split text into about `n` pieces (n ≥ 1); by default roughly per word, capped at 20 pieces. */
export function splitChunks(text: string, n?: number): string[] {
  if (!text) return [];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const count = Math.max(1, Math.min(n ?? Math.min(words.length, 20), text.length));
  const size = Math.ceil(text.length / count);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Rough token estimate used for fake usage numbers. */
export function estimateTokens(text: string): number {
  return Math.max(1, Math.ceil(text.length / 4));
}

/** Resolve after `ms` (no-op for 0). */
export function pause(ms: number): Promise<void> {
  return ms > 0 ? new Promise((r) => setTimeout(r, ms)) : Promise.resolve();
}

/** Sends `pieces` one by one, each after a pause of `delay` ms: a streamed reply's pace. */
export async function paced<T>(
  pieces: readonly T[],
  delay: number,
  send: (piece: T, index: number) => void,
): Promise<void> {
  for (const [i, piece] of pieces.entries()) {
    await pause(delay);
    send(piece, i);
  }
}

/** The key of an `Authorization: Bearer <key>` header (OpenAI's way). */
export function bearerKey(headers: http.IncomingHttpHeaders): string | undefined {
  return typeof headers.authorization === "string" ? headers.authorization.replace(/^Bearer\s+/i, "") : undefined;
}

/** An HTTP error in OpenAI's JSON shape (Chat Completions and Responses alike). */
export const writeOpenAIError: FakeProtocol["writeError"] = (res, status, message, type, headers) => {
  res.writeHead(status, { "content-type": "application/json", ...headers });
  const code = status === 404 ? "model_not_found" : status === 401 ? "invalid_api_key" : null;
  res.end(
    JSON.stringify({
      error: { message, type: type === "not_found_error" ? "invalid_request_error" : type, param: null, code },
    }),
  );
};

/** Write one SSE frame. */
export function sse(res: http.ServerResponse, data: string, event?: string): void {
  res.write((event ? `event: ${event}\n` : "") + `data: ${data}\n\n`);
}

/** Start SSE headers. */
function startSse(res: http.ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
}

/** Hang until the client goes away. */
function waitForClose(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.destroyed || res.socket?.destroyed) return resolve();
    res.on("close", () => resolve());
  });
}

/** Deterministic structured summary shaped like pi's branch/compaction summaries. */
export function fakeSummary(view: ConversationView): string {
  const userLines = [...view.allText.matchAll(/\[User\]:\s*([^\n]+)/g)].map((m) => m[1].trim());
  const files = [
    ...new Set(view.allText.match(/(?:[\w.-]+\/)*[\w-]+\.(?:ts|tsx|js|json|md|py|txt|css|html)\b/g) ?? []),
  ].slice(0, 5);
  const goal =
    userLines[0] ??
    (view.lastUserText.split("\n").find((l) => l.trim() && !l.startsWith("<")) ?? "Continue the work").slice(0, 200);
  const done =
    userLines.length > 1 ? userLines.slice(1, 4).map((l) => `- [x] ${l.slice(0, 120)}`) : ["- [x] Discussed the task"];
  return [
    "## Goal",
    goal.slice(0, 200),
    "",
    "## Constraints & Preferences",
    "- (none stated)",
    "",
    "## Progress",
    "### Done",
    ...done,
    "",
    "### In Progress",
    "- [ ] Continue from the last message",
    "",
    "### Blocked",
    "- (none)",
    "",
    "## Key Decisions",
    files.length ? `- Work centred on ${files.map((f) => `\`${f}\``).join(", ")}` : "- (none recorded)",
    "",
    "## Next Steps",
    "1. Pick up where the branch left off",
  ].join("\n");
}

/**
 * The default reply: a structured summary when asked to summarize; `/tool NAME {json}` makes the
 * model call that tool (if the request offers it); after a tool result, a short acknowledgement;
 * otherwise "Echo: <last user text>".
 */
export function defaultFakeReply(view: ConversationView): FakeMessageReply {
  if (view.lastToolResult) {
    const name = view.lastToolResult.toolName ? ` from ${view.lastToolResult.toolName}` : "";
    return { text: `Tool result${name}: ${view.lastToolResult.text.slice(0, 200)}` };
  }
  const directive = /^\/tool\s+([\w-]+)\s*([\s\S]*)$/.exec(view.lastUserText.trim());
  if (directive && view.toolNames.includes(directive[1])) {
    const rawArgs = directive[2].trim() || "{}";
    return { text: `Calling ${directive[1]}.`, toolCalls: [{ name: directive[1], rawArgs }] };
  }
  if (/summar/i.test(view.system) || /summar/i.test(view.lastUserText)) return { text: fakeSummary(view) };
  return { text: `Echo: ${view.lastUserText}` };
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on("data", (c: Buffer) => parts.push(c));
    req.on("end", () => resolve(Buffer.concat(parts).toString("utf8")));
    req.on("error", reject);
  });
}

function json(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(value));
}

/** Stream one scripted reply with the provider's writers and close the stream the way the reply asks. */
async function writeStream(
  writers: FakeStreamWriters,
  res: http.ServerResponse,
  reply: Exclude<FakeReply, FakeErrorReply | FakeRawReply>,
  body: FakeRequestBody,
  model: string,
  chunkDelayMs: number,
): Promise<void> {
  startSse(res);
  if (isCutReply(reply)) {
    await writers.cut(res, cutPieces(reply), model, chunkDelayMs);
    await cutConnection(res, reply);
  } else if (isStallReply(reply)) {
    writers.stall(res, reply, model);
    await waitForClose(res);
  } else if (isStreamErrorReply(reply)) {
    writers.streamError(res, reply, model);
    res.end();
  } else if (isMalformedReply(reply)) {
    writers.malformed(res, reply, model);
    await pause(20);
    res.end();
  } else {
    await writers.message(res, reply, body, reply.chunkDelayMs ?? chunkDelayMs);
    res.end();
  }
}

/**
 * Start a fake server speaking `protocol`. Besides the model endpoint it serves
 * `POST /__fake/enqueue` (body: a FakeReply or an array of them), `GET /__fake/requests`,
 * `POST /__fake/reset`, so a server in another process can be scripted too.
 */
export async function startFakeServer(protocol: FakeProtocol, opts: FakeServerOptions = {}): Promise<FakeServer> {
  const queue: (FakeReply | FakeReplyFn)[] = [];
  const initialFallback: FakeReplyFn = opts.defaultReply ?? ((body) => defaultFakeReply(protocol.view(body)));
  let fallback = initialFallback;
  const requests: FakeRequestBody[] = [];
  const calls: FakeCall[] = [];

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const path = url.pathname;
    if (path === "/__fake/enqueue" && req.method === "POST") {
      const parsed: unknown = JSON.parse((await readBody(req)) || "null");
      const list = Array.isArray(parsed) ? parsed : [parsed];
      for (const r of list) if (typeof r === "object" && r !== null) queue.push(r as FakeReply);
      return json(res, 200, { queued: queue.length });
    }
    if (path === "/__fake/requests" && req.method === "GET") return json(res, 200, requests);
    if (path === "/__fake/reset" && req.method === "POST") {
      queue.length = 0;
      requests.length = 0;
      calls.length = 0;
      fallback = initialFallback;
      return json(res, 200, { ok: true });
    }
    if (
      req.method === "GET" &&
      path === (protocol.modelsPath ?? `${protocol.basePath}/models`) &&
      protocol.listModels
    ) {
      return json(res, 200, protocol.listModels(opts.models ?? ["fake-model"]));
    }
    const pathModel = protocol.completionModel?.(path);
    const isCompletion = protocol.completionModel ? pathModel !== undefined : path === protocol.completionPath;
    if (req.method !== "POST" || !isCompletion) {
      return protocol.writeError(res, 404, `No route ${req.method ?? "?"} ${path}`, "not_found_error");
    }
    const raw = await readBody(req);
    let body: FakeRequestBody;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
      body = parsed as FakeRequestBody;
    } catch {
      return protocol.writeError(res, 400, "Request body is not a JSON object", "invalid_request_error");
    }
    requests.push(body);
    calls.push({ method: req.method, path, headers: req.headers, body });
    if (opts.apiKey !== undefined && protocol.keyFromHeaders(req.headers) !== opts.apiKey) {
      return protocol.writeError(res, 401, "Incorrect API key provided", "authentication_error");
    }
    const model = pathModel ?? String(body.model);
    if (opts.models && !opts.models.includes(model)) {
      return protocol.writeError(res, 404, `The model \`${model}\` does not exist`, "not_found_error");
    }
    const next = queue.shift() ?? fallback;
    const reply = typeof next === "function" ? next(body) : next;
    if (isErrorReply(reply)) {
      const message = typeof reply.body === "string" ? reply.body : `Fake error ${reply.status}`;
      if (reply.body !== undefined && typeof reply.body !== "string") {
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        res.end(JSON.stringify(reply.body));
        return;
      }
      const type =
        reply.status === 429 ? "rate_limit_error" : reply.status === 401 ? "authentication_error" : "api_error";
      return protocol.writeError(res, reply.status, message, type, reply.headers);
    }
    if (isRawReply(reply)) {
      startSse(res);
      for (const ev of reply.rawEvents) sse(res, ev.data, ev.event);
      res.end();
      return;
    }
    await writeStream(protocol.stream, res, reply, body, model, opts.chunkDelayMs ?? 0);
    opts.onReplyEnd?.(body);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) json(res, 500, { error: { message: String(e) } });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    baseURL: `http://127.0.0.1:${port}${protocol.basePath}`,
    port,
    requests,
    calls,
    enqueue: (...replies) => void queue.push(...replies),
    setDefault: (fn) => {
      fallback = fn;
    },
    pending: () => queue.length,
    reset: () => {
      queue.length = 0;
      requests.length = 0;
      calls.length = 0;
      fallback = initialFallback;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A provider's start function: a fake server speaking `protocol`, with the options the test gives. */
export function fakeServerStarter(protocol: FakeProtocol): (opts?: FakeServerOptions) => Promise<FakeServer> {
  return (opts) => startFakeServer(protocol, opts);
}

/** Plain text of a content value in either provider's request format. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((c: unknown) => {
      if (typeof c !== "object" || c === null) return "";
      const b = c as { type?: unknown; text?: unknown; content?: unknown };
      if (typeof b.text === "string") return b.text;
      if (b.type === "tool_result") return textOf(b.content);
      return "";
    })
    .filter(Boolean)
    .join("\n");
}
