/** Entry points: stream a reply from whichever API the model speaks, or collect it whole. */
import type { AssistantMessage } from "../messages.js";
import { streamAnthropicMessages } from "./anthropic-stream.js";
import { newAssistantMessage } from "./assistant-output.js";
import { streamOpenAICompletions } from "./openai-stream.js";
import { ProviderError } from "./provider-error.js";
import type { StreamEvent, StreamRequest } from "./types.js";

/**
 * Stream one model reply. Never throws: every failure (HTTP error after retries, cut stream,
 * malformed chunk, abort) ends the stream with an `error` event carrying the partial message.
 * `partial` objects are the live message being built (not copies): read, don't mutate.
 */
export function streamCompletion(request: StreamRequest): AsyncIterable<StreamEvent> {
  switch (request.model.api) {
    case "openai-completions":
      return streamOpenAICompletions(request, request.apiKey);
    case "anthropic-messages":
      return streamAnthropicMessages(request, request.apiKey);
    default:
      return unsupportedApi(request);
  }
}

/** A stream that fails cleanly for an api this build does not speak (e.g. from a newer settings file). */
async function* unsupportedApi(request: StreamRequest): AsyncGenerator<StreamEvent> {
  const out = newAssistantMessage(request.model);
  yield { type: "start", partial: out };
  out.stopReason = "error";
  out.errorMessage = `Unsupported model api "${String(request.model.api)}" for ${request.model.provider}/${request.model.id}.`;
  yield { type: "error", message: out, errorKind: "bad_response" };
}

/**
 * Run a request to completion and return the final message.
 * Rejects with a ProviderError (its `partial` holds what was received) on error or abort.
 */
export async function completeText(request: StreamRequest): Promise<AssistantMessage> {
  for await (const event of streamCompletion(request)) {
    if (event.type === "done") return event.message;
    if (event.type === "error") {
      const err = new ProviderError(
        event.errorKind ?? (event.message.stopReason === "aborted" ? "aborted" : "bad_response"),
        event.message.errorMessage ?? "Model call failed",
      );
      err.partial = event.message;
      throw err;
    }
  }
  throw new ProviderError("bad_response", "The model stream ended without a result");
}
