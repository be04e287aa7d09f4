/** Chat rows for the webview, flattened from AgentMessages, and the token/cost line. Pure. */
import {
  contentText,
  repairMessage,
  systemPromptText,
  type AgentMessage,
  type AssistantMessage,
  type Usage,
} from "../core/messages.js";
import type { SessionEntry } from "../core/session/types.js";
import type { ChatMessageDto } from "../shared/protocol.js";

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
  return dto;
}

/** One message as a chat row with the given id (entry id, or a temporary id while streaming). */
export function messageToDto(id: string, message: AgentMessage): ChatMessageDto {
  const m = repairMessage(message);
  switch (m.role) {
    case "system":
      // pi 1.5's recorded prompt: not a chat row (pathToChat skips it); shown whole on hover and Copy Text.
      return { id, role: "custom", text: systemPromptText(m), timestamp: m.timestamp };
    case "user":
      return { id, role: "user", text: contentText(m.content), timestamp: m.timestamp };
    case "assistant":
      return assistantDto(id, m);
    case "toolResult":
      return {
        id,
        role: "toolResult",
        text: contentText(m.content),
        toolName: m.toolName,
        toolCallId: m.toolCallId,
        isError: m.isError,
        timestamp: m.timestamp,
      };
    case "bashExecution": {
      const exit =
        m.exitCode !== null && m.exitCode !== undefined && m.exitCode !== 0 ? `\n(exit code ${m.exitCode})` : "";
      return { id, role: "bashExecution", text: `$ ${m.command}\n${m.output}${exit}`, timestamp: m.timestamp };
    }
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

/** The usage line of chat/snapshot. */
export interface ChatUsage {
  input: number;
  output: number;
  cost: number;
  contextTokens: number;
  contextWindow: number;
}

/** Adds one usage record to the totals. */
function addUsage(u: ChatUsage, usage: Usage | undefined): void {
  if (!usage) return;
  u.input += usage.input ?? 0;
  u.output += usage.output ?? 0;
  u.cost += usage.cost?.total ?? 0;
}

/**
 * Sum token use and cost over a root→leaf path: assistant replies, pi 1.5's `usage` entries (model calls that
 * added no message) and the usage pi 1.5 records on compactions and branch summaries. The context size is the
 * last good assistant reply's total (what the model saw plus what it wrote).
 */
export function usageOf(path: readonly SessionEntry[], contextWindow: number): ChatUsage {
  const u: ChatUsage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow };
  for (const e of path) {
    if (e.type === "usage" || e.type === "compaction" || e.type === "branch_summary") addUsage(u, e.usage);
    if (e.type !== "message" || e.message.role !== "assistant" || !e.message.usage) continue;
    const m = e.message;
    addUsage(u, m.usage);
    if (m.stopReason !== "error" && m.stopReason !== "aborted") {
      u.contextTokens = m.usage.totalTokens || m.usage.input + m.usage.output + m.usage.cacheRead + m.usage.cacheWrite;
    }
  }
  return u;
}

/** The chat rows of a root→leaf path: messages, visible hook messages, summaries. */
export function pathToChat(path: readonly SessionEntry[]): ChatMessageDto[] {
  const out: ChatMessageDto[] = [];
  for (const e of path) {
    const ts = Date.parse(e.timestamp) || 0;
    switch (e.type) {
      case "message":
        if (e.message.role !== "system") out.push(messageToDto(e.id, e.message));
        break;
      case "custom_message":
        if (e.display) out.push({ id: e.id, role: "custom", text: contentText(e.content), timestamp: ts });
        break;
      case "branch_summary":
        out.push({ id: e.id, role: "branchSummary", text: e.summary, timestamp: ts });
        break;
      case "compaction":
        out.push({ id: e.id, role: "compactionSummary", text: e.summary, timestamp: ts });
        break;
      default:
        break;
    }
  }
  return out;
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
