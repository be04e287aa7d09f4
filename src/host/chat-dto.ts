/** Chat rows for the webview, flattened from AgentMessages, and the token/cost line. Pure. */
import { splitAttachments } from "../core/mentions/user-content.js";
import {
  contentText,
  repairMessage,
  systemPromptText,
  type AgentMessage,
  type AssistantMessage,
  type BashExecutionMessage,
  type ToolResultMessage,
  type Usage,
  type UserMessage,
} from "../core/messages.js";
import type { EntryEnvelope, SessionEntry } from "../core/session/types.js";
import { todosOfContent } from "../core/tools/todo-list.js";
import type { ChatMessageDto, ChatUsage, ImageDto } from "../shared/protocol.js";

/** Tool-call arguments shown in the chat are capped; the full call stays in the session. */
const MAX_ARGS_CHARS = 4000;

function argsText(args: Record<string, unknown>): string {
  let s: string;
  try {
    s = JSON.stringify(args, null, 2) ?? "";
  } catch {
    s = "(arguments not serializable)";
  }
  return s.length > MAX_ARGS_CHARS ? s.slice(0, MAX_ARGS_CHARS) + "\n…" : s;
}

function assistantDto(id: string, m: AssistantMessage): ChatMessageDto {
  const text: string[] = [];
  const thinking: string[] = [];
  const toolCalls: { id: string; name: string; args: string }[] = [];
  for (const c of m.content) {
    if (c.type === "text") text.push(c.text);
    else if (c.type === "thinking") thinking.push(c.thinking);
    else if (c.type === "toolCall") toolCalls.push({ id: c.id, name: c.name, args: argsText(c.arguments) });
  }
  const dto: ChatMessageDto = { id, role: "assistant", text: text.join("\n"), timestamp: m.timestamp };
  if (thinking.length) dto.thinking = thinking.join("\n");
  if (toolCalls.length) dto.toolCalls = toolCalls;
  dto.stopReason = m.stopReason;
  if (m.errorMessage) dto.errorMessage = m.errorMessage;
  dto.model = `${m.provider}/${m.model}`;
  if (m.usage) dto.usage = { input: m.usage.input, output: m.usage.output, cost: m.usage.cost?.total ?? 0 };
  const todos = toolCalls.length > 0 ? todosOfContent(m.content) : undefined;
  if (todos) dto.todos = todos;
  return dto;
}

/** One message as a chat row with the given id (entry id, or a temporary id while streaming). */
export function messageToDto(id: string, message: AgentMessage): ChatMessageDto {
  const m = repairMessage(message);
  switch (m.role) {
    case "system":
      // pi 1.5's recorded prompt: not a chat row (isChatEntry skips it); shown whole on hover and Copy Text.
      return { id, role: "custom", text: systemPromptText(m), timestamp: m.timestamp };
    case "user": {
      const { text, attachments } = splitAttachments(m.content);
      const dto: ChatMessageDto = { id, role: "user", text, timestamp: m.timestamp };
      if (attachments.length > 0) dto.attachments = attachments;
      const images = imagesOf(m.content);
      if (images.length > 0) dto.images = images;
      return dto;
    }
    case "assistant":
      return assistantDto(id, m);
    case "toolResult":
      return {
        id,
        role: "toolResult",
        text: toolResultText(m.content),
        toolName: m.toolName,
        toolCallId: m.toolCallId,
        isError: m.isError,
        timestamp: m.timestamp,
      };
    case "bashExecution":
      return bashDto(id, m);
    case "custom":
      return { id, role: "custom", text: contentText(m.content), timestamp: m.timestamp };
    case "branchSummary":
      return { id, role: "branchSummary", text: m.summary, timestamp: m.timestamp };
    case "compactionSummary":
      return { id, role: "compactionSummary", text: m.summary, timestamp: m.timestamp };
    default: {
      const never: never = m;
      return never;
    }
  }
}

/** A command the user typed (`!command`), as the chat shows it: the command, its output and how it ended. */
export function bashDto(id: string, m: BashExecutionMessage): ChatMessageDto {
  const exit =
    m.cancelled === true
      ? "\n(cancelled)"
      : m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0
        ? `\n(exit code ${m.exitCode})`
        : "";
  const dto: ChatMessageDto = {
    id,
    role: "bashExecution",
    text: `$ ${m.command}\n${m.output}${exit}`,
    timestamp: m.timestamp,
  };
  if (m.excludeFromContext === true) dto.excludedFromContext = true;
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
  const ts = Date.parse(e.timestamp) || 0;
  switch (e.type) {
    case "message":
      // A message entry whose message is null is a load issue; nothing to show.
      return typeof e.message !== "object" || e.message === null || e.message.role === "system"
        ? undefined
        : messageToDto(e.id, e.message);
    case "custom_message":
      return e.display ? { id: e.id, role: "custom", text: contentText(e.content), timestamp: ts } : undefined;
    case "branch_summary":
      return { id: e.id, role: "branchSummary", text: e.summary, timestamp: ts };
    case "compaction":
      return { id: e.id, role: "compactionSummary", text: e.summary, timestamp: ts };
    default:
      return undefined;
  }
}

/** Cap of the text sent for hover and copy; a session line can be megabytes. */
export const MAX_ENTRY_TEXT = 200_000;

/** An entry's whole readable text (hover, Copy Text). */
export function entryFullText(entry: SessionEntry | { type: string; [k: string]: unknown }): string {
  const e = entry as SessionEntry;
  let text: string;
  switch (e.type) {
    case "message": {
      const dto = messageToDto(e.id, e.message);
      const calls = (dto.toolCalls ?? []).map((c) => `${c.name}(${c.args})`);
      text = [dto.text, ...calls].filter((s) => s !== "").join("\n\n");
      break;
    }
    case "custom_message":
      text = contentText(e.content);
      break;
    case "branch_summary":
    case "compaction":
      text = e.summary;
      break;
    case "label":
      text = e.label === undefined ? `Label removed from ${e.targetId}` : `Label "${e.label}" on ${e.targetId}`;
      break;
    case "model_change":
      text = `Model: ${e.provider}/${e.modelId}`;
      break;
    case "thinking_level_change":
      text = `Thinking level: ${e.thinkingLevel}`;
      break;
    case "session_info":
      text = `Session name: ${e.name ?? ""}`;
      break;
    default: {
      let json: string;
      try {
        json = JSON.stringify(entry, null, 2) ?? "";
      } catch {
        json = "";
      }
      text = json;
    }
  }
  return text.length > MAX_ENTRY_TEXT ? text.slice(0, MAX_ENTRY_TEXT) + "\n…" : text;
}

/** The images of a user message's content (for thumbnails in the chat). */
function imagesOf(content: UserMessage["content"]): ImageDto[] {
  if (typeof content === "string") return [];
  return content.flatMap((c) => (c.type === "image" ? [{ mimeType: c.mimeType, data: c.data }] : []));
}

/** A tool result's text, with a line naming each image it holds (MCP tools return images; the chat shows text). */
function toolResultText(content: ToolResultMessage["content"]): string {
  const text = contentText(content);
  const images = content.flatMap((c) => (c.type === "image" ? [`[image ${c.mimeType}]`] : []));
  return images.length === 0 ? text : [text, ...images].filter((t) => t !== "").join("\n");
}
