/** Turning failures into the final `error` event, keeping whatever was streamed. */
import type { AssistantMessage, ToolCall } from "../messages.js";
import { ProviderError, redactSecrets, toProviderError, type ErrorContext } from "./provider-error.js";
import type { StreamEvent } from "./types.js";
import { errorText } from "../error-text.js";

/** An error thrown while reading the body: the connection was cut, the JSON was bad, or the user aborted. */
export function streamCutError(e: unknown, ctx: ErrorContext, signal?: AbortSignal): ProviderError {
  const err = toProviderError(e, ctx, signal);
  if (err.kind === "unreachable") {
    const reason = redactSecrets(errorText(e), ctx.apiKey);
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

/**
 * Mark `out` as failed (error or aborted) and build the final event. `cutCalls` are the tool calls whose
 * arguments were still streaming when the reply failed: the message says so, because "the partial reply
 * was kept" alone would read as if the call in it were whole.
 */
export function failStream(
  out: AssistantMessage,
  e: unknown,
  ctx: ErrorContext,
  signal?: AbortSignal,
  cutCalls: readonly ToolCall[] = [],
): StreamEvent {
  const err = toProviderError(e, ctx, signal);
  out.stopReason = err.kind === "aborted" ? "aborted" : "error";
  out.errorMessage = err.message;
  if (err.kind !== "aborted" && cutCalls.length) {
    const names = cutCalls.map((c) => `"${c.name}"`).join(", ");
    out.errorMessage +=
      cutCalls.length === 1
        ? ` The tool call ${names} was cut off before its arguments were complete.`
        : ` The tool calls ${names} were cut off before their arguments were complete.`;
  }
  return { type: "error", message: out, errorKind: err.kind };
}
