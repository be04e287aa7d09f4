/**
 * Which row kind an entry is (a message's role, or the entry's type): one mapping for the tree's rows (host),
 * the session search's results (core) and whatever else shows entries by kind.
 */
import type { TreeNodeKind } from "./protocol.js";

const ROLE_KINDS: Record<string, TreeNodeKind> = {
  system: "system",
  user: "user",
  assistant: "assistant",
  toolResult: "toolResult",
  bashExecution: "bashExecution",
  custom: "custom_message",
  branchSummary: "branch_summary",
  compactionSummary: "compaction",
};

const TYPE_KINDS: Record<string, TreeNodeKind> = {
  custom_message: "custom_message",
  branch_summary: "branch_summary",
  compaction: "compaction",
  label: "label",
  custom: "custom",
  model_change: "model_change",
  thinking_level_change: "thinking_level_change",
  session_info: "session_info",
  usage: "usage",
  context_edit: "context_edit",
};

/** The row kind of an entry type (and message role). */
export function kindOf(type: string, role?: string): TreeNodeKind {
  if (type === "message")
    return (role !== undefined && Object.hasOwn(ROLE_KINDS, role) && ROLE_KINDS[role]) || "unknown";
  return (Object.hasOwn(TYPE_KINDS, type) && TYPE_KINDS[type]) || "unknown";
}
