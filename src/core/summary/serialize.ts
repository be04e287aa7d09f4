/**
 * Turns messages into the plain-text transcript a summarizer model reads (pi's `[User]:` /
 * `[Assistant]:` / `[Assistant tool calls]:` format). Serializing, rather than replaying the messages,
 * keeps the summarizer from continuing the conversation instead of describing it.
 */
import { contentText, type AgentMessage } from "../messages.js";
import { estimateTextTokens } from "../compaction/tokens.js";

/** Default cap on one tool result inside a summary prompt. */
export const DEFAULT_MAX_TOOL_RESULT_CHARS = 2000;

/** Shortens `text` to `max` characters, saying how much was cut. */
export function truncateMiddle(text: string, max: number): string {
  if (text.length <= max) return text;
  const keep = Math.max(0, max - 60);
  const head = Math.ceil(keep * 0.7);
  const tail = keep - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n[… ${omitted} characters omitted …]\n${tail > 0 ? text.slice(-tail) : ""}`;
}

function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args)
    .map(([k, v]) => `${k}=${truncateMiddle(JSON.stringify(v) ?? "undefined", 300)}`)
    .join(", ");
}

/** One message as transcript lines (empty string for a message with nothing to say). */
export function serializeMessage(m: AgentMessage, maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS): string {
  switch (m.role) {
    case "system":
      // A recorded system prompt is set-up, not conversation.
      return "";
    case "user": {
      const text = contentText(m.content);
      return text ? `[User]: ${text}` : "";
    }
    case "custom": {
      const text = contentText(m.content);
      return text ? `[User (${m.customType})]: ${text}` : "";
    }
    case "assistant": {
      const lines: string[] = [];
      const thinking = m.content.filter((c) => c.type === "thinking").map((c) => c.thinking);
      if (thinking.length > 0) lines.push(`[Assistant thinking]: ${thinking.join("\n")}`);
      const text = contentText(m.content);
      if (text) lines.push(`[Assistant]: ${text}`);
      const calls = m.content.filter((c) => c.type === "toolCall");
      if (calls.length > 0)
        lines.push(`[Assistant tool calls]: ${calls.map((c) => `${c.name}(${formatArgs(c.arguments)})`).join("; ")}`);
      if (m.stopReason === "error" && m.errorMessage) lines.push(`[Assistant error]: ${m.errorMessage}`);
      if (m.stopReason === "aborted") lines.push("[Assistant]: (reply aborted by the user)");
      return lines.join("\n");
    }
    case "toolResult": {
      const text = truncateMiddle(contentText(m.content), maxToolResultChars);
      return `[Tool result${m.isError ? " (error)" : ""} ${m.toolName}]: ${text || "(no output)"}`;
    }
    case "bashExecution":
      return `[User ran]: ${m.command}\n${truncateMiddle(m.output, maxToolResultChars) || "(no output)"}`;
    case "branchSummary":
      return `[Summary of an abandoned branch]: ${m.summary}`;
    case "compactionSummary":
      return `[Summary of earlier conversation]: ${m.summary}`;
    default: {
      const never: never = m;
      void never;
      return "";
    }
  }
}

/** The whole transcript, messages separated by blank lines. */
export function serializeConversation(messages: readonly AgentMessage[], maxToolResultChars?: number): string {
  return messages
    .map((m) => serializeMessage(m, maxToolResultChars))
    .filter((s) => s !== "")
    .join("\n\n");
}

/** A transcript cut to a token budget. */
export interface BudgetedTranscript {
  text: string;
  /** Messages left out entirely (the oldest). */
  omittedMessages: number;
  /** True when some message was shortened to fit. */
  shortened: boolean;
}

/**
 * Serializes `messages` newest first until `budgetTokens` is used up, so the most recent work always
 * makes it in. Tool results are shortened to `maxToolResultChars` up front; a message that still does
 * not fit is cut to the room left instead of being dropped, and the transcript says how many older
 * messages were left out — nothing disappears silently.
 */
export function serializeWithinBudget(
  messages: readonly AgentMessage[],
  budgetTokens: number,
  maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS,
): BudgetedTranscript {
  const chunks: string[] = [];
  let remaining = Math.max(0, budgetTokens);
  let shortened = false;
  let i = messages.length - 1;
  for (; i >= 0; i--) {
    let chunk = serializeMessage(messages[i], maxToolResultChars);
    if (chunk === "") continue;
    const tokens = estimateTextTokens(chunk) + 1;
    if (tokens > remaining) {
      // Worth keeping a shortened tail of this message only if there is real room left.
      if (remaining >= 64) {
        chunk = truncateMiddle(chunk, (remaining - 1) * 4);
        chunks.push(chunk);
        shortened = true;
        i--;
      }
      break;
    }
    chunks.push(chunk);
    remaining -= tokens;
  }
  let omittedMessages = 0;
  for (; i >= 0; i--) if (serializeMessage(messages[i], 0) !== "") omittedMessages++;
  chunks.reverse();
  if (omittedMessages > 0)
    chunks.unshift(`[… ${omittedMessages} earlier messages omitted to fit the context window …]`);
  return { text: chunks.join("\n\n"), omittedMessages, shortened };
}
