/**
 * Our retry policy. pi-ai's own retries (and the SDKs') are switched off for our requests (`maxRetries: 0`), so a
 * retry is visible: the agent emits a `retry` event ("retrying in …") before each wait, and the wait ends at once
 * when the request is aborted.
 */
import { ProviderError } from "./provider-error.js";
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
