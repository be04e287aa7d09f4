/**
 * "Messages: … · Tool calls: N": a set of entries counted by kind as pi's export page heads its page (user,
 * assistant, tool results, hook messages, compactions, branch summaries; the replies' tool calls). The export page
 * (webview/export) counts the entries it embeds with it; they may hold anything: fields of the wrong type count as
 * nothing.
 */
import { isRecord } from "../providers/json-check.js";

function asRecord(v: unknown): Record<string, unknown> | undefined {
  return isRecord(v) ? v : undefined;
}

/** What the line counts. */
export interface MessageCounts {
  user: number;
  assistant: number;
  toolResults: number;
  custom: number;
  compactions: number;
  branchSummaries: number;
  toolCalls: number;
}

/** The counts of `entries` (the page's embedded entries, whole tree or one branch). */
export function countMessages(entries: readonly unknown[]): MessageCounts {
  const c: MessageCounts = {
    user: 0,
    assistant: 0,
    toolResults: 0,
    custom: 0,
    compactions: 0,
    branchSummaries: 0,
    toolCalls: 0,
  };
  for (const raw of entries) {
    const e = asRecord(raw);
    if (e?.type === "compaction") c.compactions++;
    else if (e?.type === "branch_summary") c.branchSummaries++;
    else if (e?.type === "custom_message") c.custom++;
    else if (e?.type === "message") {
      const m = asRecord(e.message);
      if (m?.role === "user") c.user++;
      else if (m?.role === "toolResult") c.toolResults++;
      else if (m?.role === "assistant") {
        c.assistant++;
        if (Array.isArray(m.content)) for (const b of m.content) if (asRecord(b)?.type === "toolCall") c.toolCalls++;
      }
    }
  }
  return c;
}

/** "Messages: 3 user, 2 assistant, 1 tool result · Tool calls: 1", or "" for a page without messages. */
export function countsLine(c: MessageCounts): string {
  const parts: string[] = [];
  const add = (n: number, one: string, many: string): void => {
    if (n > 0) parts.push(`${n} ${n === 1 ? one : many}`);
  };
  add(c.user, "user", "user");
  add(c.assistant, "assistant", "assistant");
  add(c.toolResults, "tool result", "tool results");
  add(c.custom, "hook message", "hook messages");
  add(c.compactions, "compaction", "compactions");
  add(c.branchSummaries, "branch summary", "branch summaries");
  if (parts.length === 0) return "";
  return `Messages: ${parts.join(", ")} · Tool calls: ${c.toolCalls}`;
}
