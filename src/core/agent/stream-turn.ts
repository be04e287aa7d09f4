/** Streams one assistant reply and turns provider events into AgentEvents. */
import { emptyUsage, type AssistantMessage } from "../messages.js";
import type { ProviderErrorKind, StreamEvent, StreamRequest } from "../providers/types.js";
import type { AgentEvent } from "./events.js";
import { errorText } from "../error-text.js";

/** Streams a reply (the providers' streamCompletion in production). */
export type StreamFn = (request: StreamRequest) => AsyncIterable<StreamEvent>;

/** A streamed reply: the final message and, when it failed, what kind of failure the provider layer saw. */
export interface StreamedReply {
  message: AssistantMessage;
  errorKind?: ProviderErrorKind;
}

/**
 * Runs `request` and returns the final assistant message, which always exists: a stream that throws
 * or ends early yields a message with stopReason "error", and an aborted signal gives "aborted".
 * message_start is emitted with the first content (or at the end), so a reply that fails before
 * saying anything is announced only once, complete.
 */
export async function streamAssistant(
  stream: StreamFn,
  request: StreamRequest,
  emit: (event: AgentEvent) => void,
): Promise<StreamedReply> {
  let started = false;
  const start = (message: AssistantMessage): void => {
    if (started) return;
    started = true;
    emit({ type: "message_start", message });
  };
  let final: AssistantMessage | undefined;
  let errorKind: ProviderErrorKind | undefined;
  let last: AssistantMessage | undefined;
  /** The reply as far as it came before a failure: the last partial, or an empty reply from the model. */
  const soFar = (): Omit<AssistantMessage, "stopReason"> =>
    last ?? {
      role: "assistant",
      content: [],
      provider: request.model.provider,
      model: request.model.id,
      usage: emptyUsage(),
      timestamp: Date.now(),
    };
  try {
    for await (const event of stream(request)) {
      if (event.type === "done" || event.type === "error") {
        final = event.message;
        if (event.type === "error") errorKind = event.errorKind;
        break;
      }
      last = event.partial;
      if (event.type === "start") continue;
      start(event.partial);
      emit({ type: "message_update", message: event.partial });
    }
  } catch (err) {
    final = {
      ...soFar(),
      api: request.model.api,
      stopReason: "error",
      errorMessage: errorText(err),
    };
  }
  if (!final) {
    final = {
      ...soFar(),
      stopReason: "error",
      errorMessage: "The model stream ended without a result",
    };
  }
  if (request.signal?.aborted && final.stopReason === "error") {
    final = { ...final, stopReason: "aborted", errorMessage: final.errorMessage ?? "Aborted" };
    errorKind = "aborted";
  }
  start(final);
  return final.stopReason === "error" || final.stopReason === "aborted"
    ? { message: final, ...(errorKind ? { errorKind } : {}) }
    : { message: final };
}
