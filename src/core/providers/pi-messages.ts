/**
 * The boundary between this extension's message types (src/core/messages.ts) and pi-ai's. They describe the same
 * JSON — pi's session format is pi-ai's message format — so crossing it copies nothing; the checks below make the
 * compiler say so, and the two functions hold the only casts.
 */
import type {
  AssistantMessage as PiAssistantMessage,
  Message as PiMessage,
  Tool as PiTool,
} from "@earendil-works/pi-ai";
import type { AssistantMessage, LlmMessage, StopReason } from "../messages.js";
import type { ToolDefinition } from "./types.js";

/** A pi-ai reply whose stop reason this extension knows (pi-ai's "pending" and "deferred" never end a stream here). */
type FinishedPiReply = Omit<PiAssistantMessage, "stopReason"> & { stopReason: StopReason };

// Compile-time checks: a finished pi-ai reply is one of ours, and ours are pi-ai's messages but for the fields
// pi-ai types more narrowly (tool arguments and details as JSON, `api` always set).
const _replyFits = (m: FinishedPiReply): AssistantMessage => m;
void _replyFits;

/** Our conversation as pi-ai's messages. */
export function toPiMessages(messages: readonly LlmMessage[]): PiMessage[] {
  // Session messages are JSON read from (or written to) a file: their arguments and details are JSON values, and a
  // missing `api` (old sessions) only makes pi-ai treat the reply as another model's (its thinking is not replayed).
  return messages as unknown as PiMessage[];
}

/** Our tools as pi-ai's. */
export function toPiTools(tools: readonly ToolDefinition[]): PiTool[] {
  return tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
}

/** A reply from pi-ai as one of ours; a stop reason we do not know ("pending", "deferred") is an error. */
export function fromPiReply(message: PiAssistantMessage): AssistantMessage {
  if (message.stopReason === "pending" || message.stopReason === "deferred") {
    return {
      ...(message as Omit<PiAssistantMessage, "stopReason">),
      stopReason: "error",
      errorMessage: message.errorMessage ?? `The reply ended unfinished (${message.stopReason})`,
    };
  }
  return message as FinishedPiReply;
}
