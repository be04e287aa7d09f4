/**
 * The vocabulary of session entries: the entry types and message roles of the format (docs/session-format.md),
 * and the one classification of an entry into the kind of row it is. Core owns it; the store's scanner, the
 * host's tree rows, the export and the session search all read entries through these names, so a new entry
 * kind is added here first, then worded in src/core/entries/ (what an entry says).
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
 * Conversation (shown as `word: text`) or bookkeeping (`[word] text`, hidden by the tree's default filter), per kind;
 * a `Record` so that a kind added to `EntryKind` must be placed here too. Its words are src/core/entries/kind-words.ts.
 */
const CONVERSATION: Readonly<Record<EntryKind, boolean>> = {
  user: true,
  assistant: true,
  toolResult: true,
  bashExecution: true,
  custom_message: true,
  branch_summary: true,
  compaction: true,
  label: false,
  custom: false,
  model_change: false,
  thinking_level_change: false,
  session_info: false,
  unknown: true,
  usage: false,
  context_edit: false,
  system: false,
};

/**
 * Every kind, in a fixed order: a kind's position is its code where kinds travel as numbers (the tree's row
 * columns, src/core/rows/row-columns.ts). Host and webview are built together, so the order only has to agree
 * within one build.
 */
export const ENTRY_KINDS: readonly EntryKind[] = Object.keys(CONVERSATION) as EntryKind[];

/** True for conversation kinds; false for bookkeeping, which the tree's default filter hides. */
export function isConversationKind(kind: EntryKind): boolean {
  return CONVERSATION[kind];
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

/**
 * customType of the `custom` entry that turns plan mode on or off (src/core/agent/plan-mode.ts). pi ignores custom
 * entries in the context, so the line changes nothing pi sees; the mode of a branch is its path's newest line.
 */
export const PLAN_MODE_TYPE = "agent-tree/plan-mode";

/** data of a plan-mode line. */
export interface PlanModeData {
  enabled: boolean;
}

/** The data of a plan-mode line, or undefined when `data` is not one (a damaged or foreign entry). */
export function planModeData(data: unknown): PlanModeData | undefined {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return undefined;
  const { enabled } = data as Record<string, unknown>;
  return typeof enabled === "boolean" ? { enabled } : undefined;
}

/** A plan-mode line's preview: its customType and the state it sets, so its row reads without its body. */
export function planModePreview(data: unknown): string {
  const d = planModeData(data);
  return d ? `${PLAN_MODE_TYPE} ${d.enabled ? "on" : "off"}` : PLAN_MODE_TYPE;
}

/** The state a plan-mode line's preview says (planModePreview), or undefined for another preview. */
export function planModeOfPreview(preview: string): boolean | undefined {
  if (preview === `${PLAN_MODE_TYPE} on`) return true;
  if (preview === `${PLAN_MODE_TYPE} off`) return false;
  return undefined;
}
