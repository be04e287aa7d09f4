/**
 * Chat rows for the webview, flattened from AgentMessages, and the token/cost line. What a row says (its title, text,
 * tool calls, failure) is its entry's view (src/core/entries/entry-view.ts); this adds what only the chat needs. Pure.
 */
import { entryView, messageView, MAX_PLAIN_TEXT, plainText, type EntryView } from "../../core/entries/entry-view.js";
import { repairMessage, type AgentMessage, type Usage } from "../../core/messages.js";
import { envelopeOf } from "../../core/session/preview.js";
import type { EntryEnvelope, SessionEntry } from "../../core/session/types.js";
import { todosOfContent } from "../../core/tools/todo-list.js";
import type { ChatMessageDto, ChatUsage } from "../../shared/protocol.js";

/** Tool-call arguments shown in the chat are capped; the full call stays in the session. */
const MAX_ARGS_CHARS = 4000;

function capArgs(s: string): string {
  return s.length > MAX_ARGS_CHARS ? s.slice(0, MAX_ARGS_CHARS) + "\n…" : s;
}

/** A chat row from what the entry says (src/core/entries/entry-view.ts), with the chat's own fields. */
function viewDto(id: string, role: ChatMessageDto["role"], v: EntryView, timestamp: number): ChatMessageDto {
  const dto: ChatMessageDto = { id, role, title: v.title, icon: v.icon, text: v.text, timestamp };
  if (v.facts.length > 0) dto.facts = v.facts;
  if (v.thinking !== undefined) dto.thinking = v.thinking;
  if (v.toolCalls)
    dto.toolCalls = v.toolCalls.map((c) => ({
      id: c.id,
      name: c.name,
      label: c.label,
      hint: c.hint,
      args: capArgs(c.argsText),
    }));
  if (v.failure !== undefined) dto.failure = v.failure;
  if (v.note !== undefined) dto.note = v.note;
  if (v.attachments) dto.attachments = v.attachments;
  return dto;
}

/** One message as a chat row with the given id (entry id, or a temporary id while streaming). */
export function messageToDto(id: string, message: AgentMessage): ChatMessageDto {
  const m = repairMessage(message);
  // pi 1.5's recorded prompt is no chat row (isChatEntry skips it); shown whole on hover and Copy Text.
  const v = messageView(m);
  const dto = viewDto(id, m.role === "system" ? "custom" : m.role, v, m.timestamp);
  if (m.role === "user") {
    if (v.images) dto.images = v.images;
  } else if (m.role === "assistant") {
    dto.stopReason = m.stopReason;
    if (m.errorMessage) dto.errorMessage = m.errorMessage;
    dto.model = `${m.provider}/${m.model}`;
    if (m.usage) dto.usage = { input: m.usage.input, output: m.usage.output, cost: m.usage.cost?.total ?? 0 };
    const todos = dto.toolCalls ? todosOfContent(m.content) : undefined;
    if (todos) dto.todos = todos;
  } else if (m.role === "toolResult") {
    dto.toolName = m.toolName;
    dto.toolCallId = m.toolCallId;
    dto.isError = m.isError;
  } else if (m.role === "bashExecution" && m.excludeFromContext === true) dto.excludedFromContext = true;
  return dto;
}

/** One usage record on a path, as the usage line counts it. */
export interface PathUsage {
  usage: Usage;
  /** An assistant reply that did not fail: its total is the context size from there on. */
  setsContext: boolean;
}

/**
 * Sum token use and cost over a root→leaf path's usage records (root first): assistant replies, pi 1.5's
 * `usage` entries (model calls that added no message) and the usage pi 1.5 records on compactions and branch
 * summaries. The context size is the last good assistant reply's total (what the model saw plus what it
 * wrote).
 */
export function usageOf(records: readonly PathUsage[], contextWindow: number): ChatUsage {
  const u: ChatUsage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow };
  for (const { usage, setsContext } of records) {
    u.input += usage.input;
    u.output += usage.output;
    u.cost += usage.cost.total;
    if (setsContext)
      u.contextTokens = usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
  }
  return u;
}

/** The fields of an entry's envelope that say whether it is a chat row (and whether it calls `todo`). */
export type ChatEnvelope = Pick<EntryEnvelope, "id" | "type" | "role" | "failed" | "hidden" | "toolName">;

/**
 * True when the entry is a row of the chat: a message (not pi 1.5's recorded system prompt), a visible hook
 * message, a summary.
 */
export function isChatEntry(env: ChatEnvelope): boolean {
  switch (env.type) {
    case "message":
      return env.role !== "system";
    case "branch_summary":
    case "compaction":
      return true;
    case "custom_message":
      return env.hidden !== true;
    default:
      return false;
  }
}

/** The chat row of an entry (see isChatEntry), or undefined for entries the chat does not show. */
export function entryToChat(e: SessionEntry): ChatMessageDto | undefined {
  if (!isChatEntry(envelopeOf(e))) return undefined;
  // A message entry whose message is null is a load issue; nothing to show.
  if (e.type === "message") return isRecord(e.message) ? messageToDto(e.id, e.message) : undefined;
  const role = e.type === "branch_summary" ? "branchSummary" : e.type === "compaction" ? "compactionSummary" : "custom";
  return viewDto(e.id, role, entryView(e), Date.parse(e.timestamp) || 0);
}

function isRecord(v: unknown): v is AgentMessage {
  return typeof v === "object" && v !== null;
}

/** Cap of the text sent for hover and copy; a session line can be megabytes. */
export const MAX_ENTRY_TEXT = MAX_PLAIN_TEXT;

/** An entry's whole readable text (hover, Copy Text), as its view says it. */
export function entryFullText(entry: SessionEntry | { type: string; [k: string]: unknown }): string {
  return plainText(entryView(entry));
}
