/** A failed model call, categorised so callers (and the UI) can react without parsing messages. */
import type { AssistantMessage } from "../messages.js";
import type { ProviderErrorKind } from "./types.js";

/** Error thrown by `completeText` and used internally by the providers. Its message never holds an API key. */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  /** HTTP status, when the server answered. */
  readonly status?: number;
  /** Server-requested wait (Retry-After), in ms. */
  readonly retryAfterMs?: number;

  constructor(
    kind: ProviderErrorKind,
    message: string,
    opts: { status?: number; retryAfterMs?: number; cause?: unknown } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "ProviderError";
    this.kind = kind;
    this.status = opts.status;
    this.retryAfterMs = opts.retryAfterMs;
  }

  /** Whether retrying the same request may succeed. */
  get retryable(): boolean {
    return this.kind === "rate_limit" || this.kind === "server" || (this.kind === "unreachable" && !this.refused);
  }

  /** True for "connection refused": nothing listens, retrying won't help. */
  refused = false;

  /** What was received before the failure (set by `completeText`). */
  partial?: AssistantMessage;
}

/** Remove anything that looks like a secret: the given key, and common key shapes. */
export function redactSecrets(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join("***");
  return out.replace(/\b(sk-(?:ant-)?[A-Za-z0-9_-]{4})[A-Za-z0-9_*-]{8,}/g, "$1***");
}

interface ErrorLike {
  status?: unknown;
  headers?: unknown;
  message?: unknown;
  code?: unknown;
  cause?: unknown;
  name?: unknown;
  error?: unknown;
  type?: unknown;
}

function asErrorLike(e: unknown): ErrorLike | undefined {
  return typeof e === "object" && e !== null ? (e as ErrorLike) : undefined;
}

/** Walk the `cause` chain looking for a Node system error code (ECONNREFUSED, ...). */
function findErrorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 6 && cur; depth++) {
    const el = asErrorLike(cur);
    if (!el) return undefined;
    if (typeof el.code === "string" && /^E[A-Z]+$/.test(el.code)) return el.code;
    // undici wraps several attempts (IPv4/IPv6) in an AggregateError.
    if (cur instanceof AggregateError) {
      for (const inner of cur.errors) {
        const c = findErrorCode(inner);
        if (c) return c;
      }
    }
    cur = el.cause;
  }
  return undefined;
}

function getHeader(headers: unknown, name: string): string | undefined {
  if (!headers) return undefined;
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  if (typeof headers === "object") {
    const v = (headers as Record<string, unknown>)[name];
    return typeof v === "string" ? v : undefined;
  }
  return undefined;
}

/** Parse `retry-after-ms` / `Retry-After` (seconds or HTTP date) into ms. */
export function parseRetryAfter(headers: unknown, now = Date.now()): number | undefined {
  const ms = getHeader(headers, "retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const ra = getHeader(headers, "retry-after");
  if (ra === undefined) return undefined;
  const t = ra.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const date = Date.parse(t);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return undefined;
}

/** The server's own error text from an SDK APIError, if any. */
function serverMessage(el: ErrorLike): string | undefined {
  const body = asErrorLike(el.error);
  if (body) {
    if (typeof body.message === "string") return body.message;
    const inner = asErrorLike(body.error);
    if (inner && typeof inner.message === "string") return inner.message;
  }
  return typeof el.message === "string" ? el.message : undefined;
}

/** Context for turning SDK errors into messages a user can act on. */
export interface ErrorContext {
  provider: string;
  modelId: string;
  baseUrl: string;
  apiKey?: string;
}

/**
 * Map any error thrown by an SDK (or fetch) to a ProviderError with a clear message.
 * Messages are redacted so they never contain the key.
 */
export function toProviderError(e: unknown, ctx: ErrorContext, signal?: AbortSignal): ProviderError {
  if (e instanceof ProviderError) return e;
  if (signal?.aborted) return new ProviderError("aborted", "Request aborted", { cause: e });
  const el = asErrorLike(e) ?? {};
  const name = typeof el.name === "string" ? el.name : "";
  const rawMsg = redactSecrets(serverMessage(el) ?? String(e), ctx.apiKey);
  if (name === "APIUserAbortError" || name === "AbortError") return new ProviderError("aborted", "Request aborted");
  const status = typeof el.status === "number" ? el.status : undefined;
  if (status !== undefined) {
    const retryAfterMs = parseRetryAfter(el.headers);
    const opts = { status, retryAfterMs };
    if (status === 401 || status === 403)
      return new ProviderError(
        "auth",
        `Authentication failed for ${ctx.provider} (HTTP ${status}): check the API key. Server said: ${rawMsg}`,
        opts,
      );
    if (status === 404)
      return new ProviderError(
        "not_found",
        `Model "${ctx.modelId}" not found at ${ctx.baseUrl} (HTTP 404). Server said: ${rawMsg}`,
        opts,
      );
    if (status === 429)
      return new ProviderError("rate_limit", `Rate limited by ${ctx.provider} (HTTP 429): ${rawMsg}`, opts);
    if (status === 408 || status === 409 || status >= 500)
      return new ProviderError("server", `${ctx.provider} server error (HTTP ${status}): ${rawMsg}`, opts);
    return new ProviderError("bad_response", `${ctx.provider} rejected the request (HTTP ${status}): ${rawMsg}`, opts);
  }
  // Mid-stream `error` events (e.g. Anthropic overloaded_error) arrive as APIError without status.
  if (name.endsWith("APIError") && el.error !== undefined) {
    const body = asErrorLike(el.error);
    const inner = asErrorLike(body?.error);
    const type = typeof inner?.type === "string" ? inner.type : typeof body?.type === "string" ? body.type : "";
    const kind = type.includes("rate_limit") ? "rate_limit" : "server";
    return new ProviderError(kind, `${ctx.provider} stream error: ${rawMsg}`);
  }
  if (e instanceof SyntaxError)
    return new ProviderError("bad_response", `Malformed response from ${ctx.baseUrl}: ${rawMsg}`);
  const code = findErrorCode(e);
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
    const err = new ProviderError("unreachable", `Cannot reach ${ctx.baseUrl}: is the server running? (${code})`);
    err.refused = true;
    return err;
  }
  if (
    name === "APIConnectionError" ||
    name === "APIConnectionTimeoutError" ||
    code !== undefined ||
    name === "TypeError"
  ) {
    return new ProviderError(
      "unreachable",
      `Connection to ${ctx.baseUrl} failed${code ? ` (${code})` : ""}: ${rawMsg}`,
    );
  }
  return new ProviderError("bad_response", `Unexpected error from ${ctx.provider}: ${rawMsg}`);
}
