/**
 * What "a search" means, shared by the tree view's search box (webview/tree) and the search over every session
 * (src/core/search), so the same words find the same entries in both: the query is split into lower-case
 * words, and an entry matches when every word occurs in its kind's words, its label or its text.
 */
import type { TreeNodeKind } from "./protocol.js";

/** Split a query into lower-case words; empty for a blank query. */
export function queryTokens(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 0);
}

/** Extra words a kind answers to in search, so "tool" or "summary" find what the row shows. */
export const KIND_SEARCH_WORDS: Readonly<Record<TreeNodeKind, string>> = {
  user: "user",
  assistant: "assistant",
  toolResult: "toolresult tool",
  bashExecution: "bash",
  custom_message: "custom",
  branch_summary: "branch summary branch_summary",
  compaction: "compaction",
  label: "label",
  custom: "custom",
  model_change: "model model_change",
  thinking_level_change: "thinking thinking_level_change",
  session_info: "session session_info",
  unknown: "unknown",
  usage: "usage cost",
  context_edit: "context edit context_edit",
  system: "system prompt",
};

/**
 * Kinds the tree's default filter hides (pi's): bookkeeping entries, not conversation (pi 1.5's context edits,
 * recorded system prompts and usage records too).
 */
export const DEFAULT_HIDDEN_KINDS: ReadonlySet<TreeNodeKind> = new Set<TreeNodeKind>([
  "label",
  "custom",
  "model_change",
  "thinking_level_change",
  "session_info",
  "context_edit",
  "system",
  "usage",
]);
