/**
 * A failed model call, categorised so callers (and the UI) can react without parsing messages, and told in words a
 * user can act on. pi-ai reports a failure as the reply's `errorMessage`; the HTTP status and headers of the
 * request (seen by the fetch the provider layer hands pi-ai, see request-recorder.ts) and the network error, if
 * any, decide the category.
 */
import type { AssistantMessage } from "../messages.js";
import type { ProviderErrorKind } from "./types.js";

/** Error thrown by `completeText` / `ModelRegistry.complete`. Its message never holds an API key. */
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

/** Remove anything that looks like a secret: the given keys, and common key shapes. */
export function redactSecrets(text: string, ...keys: (string | undefined)[]): string {
  let out = text;
  for (const key of keys) if (key && key.length >= 4) out = out.split(key).join("***");
  return out.replace(/\b(sk-(?:ant-)?[A-Za-z0-9_-]{4})[A-Za-z0-9_*-]{8,}/g, "$1***");
}

/** Parse `retry-after-ms` / `Retry-After` (seconds or HTTP date) into ms. */
export function parseRetryAfter(
  headers: Headers | Record<string, string> | undefined,
  now = Date.now(),
): number | undefined {
  const get = (name: string): string | undefined =>
    headers instanceof Headers ? (headers.get(name) ?? undefined) : headers?.[name];
  const ms = get("retry-after-ms");
  if (ms !== undefined && /^\d+(\.\d+)?$/.test(ms.trim())) return Math.round(Number(ms));
  const ra = get("retry-after");
  if (ra === undefined) return undefined;
  const t = ra.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const date = Date.parse(t);
  if (!Number.isNaN(date)) return Math.max(0, date - now);
  return undefined;
}

/**
 * The server's own words in pi-ai's error text: the SDKs report an HTTP error as `"<status> <body>"`, the body often
 * the provider's JSON error object; its `message` is what the user needs.
 */
export function serverWords(text: string): string {
  const body = text.replace(/^\d{3}:?\s*/, "");
  if (!body.startsWith("{")) return text;
  try {
    const parsed = JSON.parse(body) as { message?: unknown; error?: { message?: unknown } };
    const message = parsed.error?.message ?? parsed.message;
    return typeof message === "string" && message ? message : text;
  } catch {
    return text;
  }
}

/** Walk the `cause` chain for a Node system error code (ECONNREFUSED, ...). */
export function findErrorCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let depth = 0; depth < 6 && typeof cur === "object" && cur !== null; depth++) {
    const el = cur as { code?: unknown; cause?: unknown };
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

/** What the provider layer knows about a failed request. */
export interface FailureFacts {
  provider: string;
  modelId: string;
  baseUrl: string;
  /** pi-ai's error text. */
  message: string;
  /** The last HTTP answer of the request, if one came. */
  status?: number;
  headers?: Headers;
  /** The error fetch threw, if the request never got an answer or lost its body. */
  networkError?: unknown;
  /** The request was aborted. */
  aborted: boolean;
  /** Something of the reply had been streamed already. */
  streamed: boolean;
  /** Keys to keep out of the message. */
  secrets: (string | undefined)[];
  /** Environment variables that could hold the provider's key (for "no key" messages). */
  keyEnvNames: readonly string[];
}

const NOT_CONFIGURED = /Provider is not configured|No API key|Failed to resolve API key/i;
const STREAM_BROKE = /terminated|other side closed|ECONNRESET|socket hang up|network|fetch failed|connection/i;

/** The failure as a ProviderError: its kind, and a message that says what to do. */
export function classifyFailure(f: FailureFacts): ProviderError {
  const said = redactSecrets(serverWords(f.message), ...f.secrets);
  if (f.aborted) return new ProviderError("aborted", "Request aborted");
  const status = f.status !== undefined && f.status >= 400 ? f.status : undefined;
  if (status !== undefined) {
    const opts = { status, retryAfterMs: parseRetryAfter(f.headers) };
    if (status === 401 || status === 403)
      return new ProviderError(
        "auth",
        `Authentication failed for ${f.provider} (HTTP ${status}): check the API key. Server said: ${said}`,
        opts,
      );
    if (status === 404)
      return new ProviderError(
        "not_found",
        `Model "${f.modelId}" not found at ${f.baseUrl} (HTTP 404). Server said: ${said}`,
        opts,
      );
    if (status === 429)
      return new ProviderError("rate_limit", `Rate limited by ${f.provider} (HTTP 429): ${said}`, opts);
    if (status === 408 || status === 409 || status >= 500)
      return new ProviderError("server", `${f.provider} server error (HTTP ${status}): ${said}`, opts);
    return new ProviderError("bad_response", `${f.provider} rejected the request (HTTP ${status}): ${said}`, opts);
  }
  if (NOT_CONFIGURED.test(f.message) && f.status === undefined && !f.streamed) {
    const vars = f.keyEnvNames.length > 0 ? `set ${f.keyEnvNames.join(" or ")}, or ` : "";
    return new ProviderError(
      "auth",
      `No API key for ${f.provider}: ${vars}run "Agent: Set API Key" (or mark a local server's model "noApiKey"). ${said}`,
    );
  }
  const code = findErrorCode(f.networkError);
  if (f.status === undefined && f.networkError !== undefined) {
    if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN") {
      const err = new ProviderError("unreachable", `Cannot reach ${f.baseUrl}: is the server running? (${code})`);
      err.refused = true;
      return err;
    }
    return new ProviderError("unreachable", `Connection to ${f.baseUrl} failed${code ? ` (${code})` : ""}: ${said}`);
  }
  if (/malformed|JSON|Unexpected token|Unexpected end/i.test(f.message))
    return new ProviderError("bad_response", `Malformed response from ${f.baseUrl}: ${said}`);
  if (f.status !== undefined && (f.networkError !== undefined || STREAM_BROKE.test(f.message)))
    return new ProviderError(
      "unreachable",
      `Connection to ${f.baseUrl} was lost mid-reply (${said}); the partial reply was kept.`,
    );
  if (/rate.?limit/i.test(f.message)) return new ProviderError("rate_limit", `${f.provider} stream error: ${said}`);
  if (/overloaded|server.?error|internal.?error|unavailable|api_error/i.test(f.message))
    return new ProviderError("server", `${f.provider} stream error: ${said}`);
  if (/ended|incomplete|without/i.test(f.message))
    return new ProviderError(
      "bad_response",
      `The stream from ${f.baseUrl} ended before the reply was complete (${said}); the partial reply was kept.`,
    );
  return new ProviderError("bad_response", `${f.provider}: ${said}`);
}
