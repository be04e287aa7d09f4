/**
 * The vocabulary of session entries: the entry types and message roles of the format (docs/session-format.md),
 * and the one classification of an entry into the kind of row it is. Core owns it; the store's scanner, the
 * host's tree rows, the export and the session search all read entries through these names, so a new entry
 * kind is added here first.
 *
 * Pure data and functions (no Node or VS Code imports): the webview bundles it too.
 */

/** Entry types this version knows (an entry of any other type is kept verbatim and shown as `unknown`). */
export const ENTRY_TYPES = [
  "message",
  "compaction",
  "branch_summary",
  "label",
  "custom",
  "custom_message",
  "model_change",
  "thinking_level_change",
  "session_info",
  "context_edit",
  "usage",
] as const;

/** A known entry type. */
export type EntryType = (typeof ENTRY_TYPES)[number];

/** Roles of `message` entries this version knows. */
export const MESSAGE_ROLES = [
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "system",
  "custom",
  "branchSummary",
  "compactionSummary",
] as const;

/** A known message role. */
export type MessageRole = (typeof MESSAGE_ROLES)[number];

/**
 * What an entry is, as one word: a message's role (custom, branch-summary and compaction-summary messages
 * count as the entries they stand for), else the entry's type; `unknown` for types and roles this version
 * does not know.
 */
export type EntryKind =
  | "user"
  | "assistant"
  | "toolResult"
  | "bashExecution"
  | "system"
  | "custom_message"
  | "branch_summary"
  | "compaction"
  | "label"
  | "custom"
  | "model_change"
  | "thinking_level_change"
  | "session_info"
  | "usage"
  | "context_edit"
  | "unknown";

const ROLE_KINDS: Readonly<Record<MessageRole, EntryKind>> = {
  user: "user",
  assistant: "assistant",
  toolResult: "toolResult",
  bashExecution: "bashExecution",
  system: "system",
  custom: "custom_message",
  branchSummary: "branch_summary",
  compactionSummary: "compaction",
};

const TYPE_KINDS: Readonly<Record<Exclude<EntryType, "message">, EntryKind>> = {
  compaction: "compaction",
  branch_summary: "branch_summary",
  label: "label",
  custom: "custom",
  custom_message: "custom_message",
  model_change: "model_change",
  thinking_level_change: "thinking_level_change",
  session_info: "session_info",
  context_edit: "context_edit",
  usage: "usage",
};

/** True for a known entry type. */
export function isEntryType(type: string): type is EntryType {
  return (ENTRY_TYPES as readonly string[]).includes(type);
}

/** True for a known message role. */
export function isMessageRole(role: string): role is MessageRole {
  return Object.hasOwn(ROLE_KINDS, role);
}

/** The kind of an entry of type `type` (and, for messages, role `role`). */
export function kindOf(type: string, role?: string): EntryKind {
  if (type === "message") return role !== undefined && isMessageRole(role) ? ROLE_KINDS[role] : "unknown";
  return type !== "message" && Object.hasOwn(TYPE_KINDS, type)
    ? TYPE_KINDS[type as keyof typeof TYPE_KINDS]
    : "unknown";
}

/**
 * customType of the `custom` entry that archives or unarchives a branch (docs/archive.md). pi keeps custom
 * entries and leaves them out of the context, so an archive line changes nothing pi sees. The entry hangs off
 * the leaf without moving it (like a label); the latest line naming a target wins.
 */
export const ARCHIVE_MARKER_TYPE = "agent-tree/archive";

/** data of an archive line: the first entry of the branch, and whether it is archived from now on. */
export interface ArchiveMarkerData {
  targetId: string;
  archived: boolean;
}

/** The data of an archive line, or undefined when `data` is not one (a damaged or foreign entry). */
export function archiveMarkerData(data: unknown): ArchiveMarkerData | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const { targetId, archived } = data as Record<string, unknown>;
  return typeof targetId === "string" && typeof archived === "boolean" ? { targetId, archived } : undefined;
}
