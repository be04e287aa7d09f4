/** Turning failures into the final `error` event, keeping whatever was streamed. */
import type { AssistantMessage } from "../messages.js";
import { ProviderError, redactSecrets, toProviderError, type ErrorContext } from "./provider-error.js";
import type { StreamEvent } from "./types.js";

/** An error thrown while reading the body: the connection was cut, the JSON was bad, or the user aborted. */
export function streamCutError(e: unknown, ctx: ErrorContext, signal?: AbortSignal): ProviderError {
  const err = toProviderError(e, ctx, signal);
  if (err.kind === "unreachable") {
    const reason = redactSecrets(e instanceof Error ? e.message : String(e), ctx.apiKey);
    return new ProviderError(
      "unreachable",
      `Connection to ${ctx.baseUrl} was lost mid-reply (${reason}); the partial reply was kept.`,
      {
        cause: e,
      },
    );
  }
  return err;
}

/** Mark `out` as failed (error or aborted) and build the final event. */
export function failStream(out: AssistantMessage, e: unknown, ctx: ErrorContext, signal?: AbortSignal): StreamEvent {
  const err = toProviderError(e, ctx, signal);
  out.stopReason = err.kind === "aborted" ? "aborted" : "error";
  out.errorMessage = err.message;
  return { type: "error", message: out, errorKind: err.kind };
}
