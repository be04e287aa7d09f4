/**
 * Provider-neutral clean-up of the conversation before it is mapped to a wire format:
 * both APIs reject a tool call without a result, or a result without its call.
 */
import type { AssistantMessage, LlmMessage, ToolCall } from "../messages.js";

/** Text sent in place of a tool result the session never recorded (e.g. the user aborted). */
export const MISSING_TOOL_RESULT = "No result provided (the tool call was interrupted).";

/**
 * - Assistant messages that failed or were aborted keep only their text (their tool calls never ran).
 * - Every tool call gets a result: a synthetic error result is inserted when none follows.
 * - Tool results whose call is unknown are dropped.
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
      const cleaned = cleanAssistant(m);
      if (!cleaned) continue;
      out.push(cleaned);
      pending = cleaned.content.filter((c): c is ToolCall => c.type === "toolCall");
    } else {
      out.push(m);
    }
  }
  flushPending();
  return out;
}

function cleanAssistant(m: AssistantMessage): AssistantMessage | undefined {
  let content = m.content;
  if (m.stopReason === "error" || m.stopReason === "aborted") {
    content = content.filter((c) => c.type === "text" && c.text.trim() !== "");
  }
  content = content.filter((c) => c.type !== "text" || c.text !== "");
  if (content.length === 0) return undefined;
  return content === m.content ? m : { ...m, content };
}
