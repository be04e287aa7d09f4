/**
 * Provider-neutral clean-up of the conversation before pi-ai maps it to a wire format. pi-ai replays neither a
 * failed nor an aborted reply, and gives a tool call without a result a synthetic one; this keeps the results the
 * agent loop wrote for the calls of such replies ("Aborted", "Not run: …") from reaching the wire without their
 * call, which every API rejects, and says in our words why a call has no result.
 */
import type { AssistantMessage, LlmMessage, ToolCall } from "../messages.js";

/** Text sent in place of a tool result the session never recorded (e.g. the user aborted). */
export const MISSING_TOOL_RESULT = "No result provided (the tool call was interrupted).";

/**
 * - Assistant messages that failed or were aborted are left out, as pi-ai leaves them out (their tool calls never
 *   ran); so are empty ones.
 * - Every tool call gets a result: a synthetic error result is inserted when none follows.
 * - Tool results whose call is not pending (their reply was left out, or they name no call) are dropped.
 */
export function prepareMessages(messages: readonly LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  let pending: ToolCall[] = [];
  const flushPending = (): void => {
    for (const call of pending) {
      out.push({
        role: "toolResult",
        toolCallId: call.id,
        toolName: call.name,
        content: [{ type: "text", text: MISSING_TOOL_RESULT }],
        isError: true,
        timestamp: Date.now(),
      });
    }
    pending = [];
  };
  for (const m of messages) {
    if (m.role === "toolResult") {
      const idx = pending.findIndex((c) => c.id === m.toolCallId);
      if (idx < 0) continue;
      pending.splice(idx, 1);
      out.push(m);
      continue;
    }
    flushPending();
    if (m.role === "assistant") {
      const kept = replayed(m);
      if (!kept) continue;
      out.push(kept);
      pending = kept.content.filter((c): c is ToolCall => c.type === "toolCall");
    } else {
      out.push(m);
    }
  }
  flushPending();
  return out;
}

/** The reply as it is replayed, or undefined when it is not (failed, aborted, or nothing in it). */
function replayed(m: AssistantMessage): AssistantMessage | undefined {
  if (m.stopReason === "error" || m.stopReason === "aborted") return undefined;
  const content = m.content.filter((c) => c.type !== "text" || c.text !== "");
  if (content.length === 0) return undefined;
  return content.length === m.content.length ? m : { ...m, content };
}
