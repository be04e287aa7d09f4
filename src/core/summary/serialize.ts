/**
 * Turns messages into the plain-text transcript a summarizer model reads (pi's `[User]:` /
 * `[Assistant]:` / `[Assistant tool calls]:` format, with every kind named by its title). Serializing, rather than
 * replaying the messages, keeps the summarizer from continuing the conversation instead of describing it.
 */
import { contentText, type AgentMessage } from "../messages.js";
import { estimateTextTokens } from "../compaction/tokens.js";
import { messageView } from "../entries/entry-view.js";
import { isConversationKind } from "../session/entry-kinds.js";

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

function formatArgs(args: unknown): string {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return "";
  return Object.entries(args)
    .map(([k, v]) => `${k}=${truncateMiddle(JSON.stringify(v) ?? "undefined", 300)}`)
    .join(", ");
}

/**
 * One message as transcript lines (empty string for a message with nothing to say), worded by its view
 * (src/core/entries/entry-view.ts): `[Title]: text`, `[Title: subject (error)]` for what a tool result or a hook
 * message is about, a reply's thinking, tool calls and failure on lines of their own. Set-up (a recorded system
 * prompt) is no conversation and says nothing.
 */
export function serializeMessage(m: AgentMessage, maxToolResultChars = DEFAULT_MAX_TOOL_RESULT_CHARS): string {
  const v = messageView(m);
  if (!isConversationKind(v.kind) || v.kind === "unknown") return "";
  const title = v.title;
  if (v.kind === "assistant") {
    const lines: string[] = [];
    if (v.thinking !== undefined) lines.push(`[${title} thinking]: ${v.thinking}`);
    if (v.text !== "") lines.push(`[${title}]: ${v.text}`);
    if (v.toolCalls)
      lines.push(`[${title} tool calls]: ${v.toolCalls.map((c) => `${c.name}(${formatArgs(c.args)})`).join("; ")}`);
    if (v.failure !== undefined) lines.push(`[${title}]: ${v.failure}`);
    return lines.join("\n");
  }
  // A user message reads whole, its attachments' text with it: the summarizer should know what the user gave.
  const text = m.role === "user" ? contentText(m.content) : v.text;
  // What it is about (a tool, a hook's type), unless the text starts by saying it (a command).
  const about = v.subject !== undefined && !text.startsWith(v.subject) ? `: ${v.subject}` : "";
  const head = `[${title}${about}${v.isError === true ? " (error)" : ""}]`;
  if (v.prose) return text === "" ? "" : `${head}: ${text}`;
  // Program output is shortened; the summary needs its gist, not all of it.
  return `${head}: ${truncateMiddle(text, maxToolResultChars) || "(no output)"}`;
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
