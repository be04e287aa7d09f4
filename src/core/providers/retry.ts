/** Our retry policy (the SDKs' own retries are switched off so this one is testable). */
import { ProviderError, toProviderError, type ErrorContext } from "./provider-error.js";
import type { StreamRequest } from "./types.js";

/** Defaults of the retry policy. */
export const RETRY_DEFAULTS = { maxRetries: 3, baseDelayMs: 1000, maxDelayMs: 60_000 } as const;

/** Sleep that ends early (rejecting with an "aborted" ProviderError) when the signal fires. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new ProviderError("aborted", "Request aborted"));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new ProviderError("aborted", "Request aborted"));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The wait before retry number `attempt` (1-based): Retry-After if given, else exponential; capped. */
export function retryDelay(
  attempt: number,
  err: ProviderError,
  request: Pick<StreamRequest, "retryBaseDelayMs" | "maxRetryDelayMs">,
): number {
  const base = request.retryBaseDelayMs ?? RETRY_DEFAULTS.baseDelayMs;
  const cap = request.maxRetryDelayMs ?? RETRY_DEFAULTS.maxDelayMs;
  const wanted = err.retryAfterMs ?? base * 2 ** (attempt - 1);
  return Math.max(0, Math.min(wanted, cap));
}

/**
 * Run `open` (which sends the request and resolves once response headers arrived), retrying
 * retryable failures. Throws a ProviderError once retries are exhausted or on a final error.
 */
export async function openWithRetry<T>(request: StreamRequest, ctx: ErrorContext, open: () => Promise<T>): Promise<T> {
  const maxRetries = Math.max(0, request.maxRetries ?? RETRY_DEFAULTS.maxRetries);
  for (let attempt = 0; ; attempt++) {
    try {
      return await open();
    } catch (e) {
      const err = toProviderError(e, ctx, request.signal);
      if (!err.retryable || attempt >= maxRetries) throw err;
      const delayMs = retryDelay(attempt + 1, err, request);
      request.onRetry?.({ attempt: attempt + 1, delayMs, error: err.message });
      await abortableSleep(delayMs, request.signal);
    }
  }
}
