/**
 * Tree rows for the webview, built from the session store's envelopes (no body parsing, so a
 * 100k-entry session stays cheap). Pure: no `vscode` import.
 */
import type { TreeNodeDto, TreeNodeKind } from "../shared/protocol.js";

/**
 * The fields of the core's `EntryEnvelope` this module reads (structural, so it works with the
 * store's own type without importing its implementation).
 */
export interface EnvelopeLike {
  id: string;
  parentId: string | null;
  type: string;
  role?: string;
  timestamp: string | number;
  preview: string;
  toolName?: string;
  toolCallsOnly?: boolean;
  tokens?: number;
  failed?: boolean;
  hidden?: boolean;
  orphan?: boolean;
}

const ROLE_KINDS: Record<string, TreeNodeKind> = {
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
};

/** The row kind of an entry type (and message role). */
export function kindOf(type: string, role?: string): TreeNodeKind {
  if (type === "message")
    return (role !== undefined && Object.hasOwn(ROLE_KINDS, role) && ROLE_KINDS[role]) || "unknown";
  return (Object.hasOwn(TYPE_KINDS, type) && TYPE_KINDS[type]) || "unknown";
}

/** Previews are single-line and bounded whatever the store hands over. */
export function singleLine(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

function previewOf(p: string | undefined): string {
  if (typeof p !== "string") return "";
  return p.length > 200 || p.includes("\n") ? singleLine(p) : p;
}

function isoTimestamp(t: string | number): string {
  if (typeof t === "string") return t;
  const d = new Date(t);
  return Number.isNaN(d.getTime()) ? "" : d.toISOString();
}

/** One envelope as a tree row. */
export function envelopeToDto(env: EnvelopeLike, label?: string): TreeNodeDto {
  const dto: TreeNodeDto = {
    id: env.id,
    parentId: env.parentId,
    kind: kindOf(env.type, env.role),
    timestamp: isoTimestamp(env.timestamp),
    // The store already collapses whitespace and bounds previews; only enforce the bound (cheap).
    preview: previewOf(env.preview),
  };
  if (label !== undefined && label !== "") dto.label = label;
  if (env.toolCallsOnly) dto.toolCallsOnly = true;
  if (env.toolName !== undefined) dto.toolName = env.toolName;
  if (env.tokens !== undefined) dto.tokens = env.tokens;
  if (env.failed) dto.failed = true;
  if (env.orphan) dto.orphan = true;
  if (env.hidden) dto.hidden = true;
  return dto;
}

/** All envelopes as rows (file order), labels resolved through `getLabel`. */
export function buildTreeNodes(
  envelopes: readonly EnvelopeLike[],
  getLabel: (id: string) => string | undefined,
): TreeNodeDto[] {
  const out = new Array<TreeNodeDto>(envelopes.length);
  for (let i = 0; i < envelopes.length; i++) out[i] = envelopeToDto(envelopes[i], getLabel(envelopes[i].id));
  return out;
}

/**
 * Find the envelope of a just-appended entry. Appends land at the end of the file-ordered list, so
 * search backwards (bounded) instead of building an index.
 */
export function findRecentEnvelope(
  envelopes: readonly EnvelopeLike[],
  id: string,
  maxScan = 1000,
): EnvelopeLike | undefined {
  const stop = Math.max(0, envelopes.length - maxScan);
  for (let i = envelopes.length - 1; i >= stop; i--) if (envelopes[i].id === id) return envelopes[i];
  return undefined;
}

/** A label entry as the tree sees it: which entry's label changed, and to what. */
export interface LabelChange {
  id: string;
  label?: string;
}

/** The label change an appended entry makes, if it is a label entry. */
export function labelChangeOf(entry: { type: string; targetId?: unknown; label?: unknown }): LabelChange | undefined {
  if (entry.type !== "label" || typeof entry.targetId !== "string") return undefined;
  const label = typeof entry.label === "string" && entry.label !== "" ? entry.label : undefined;
  return label === undefined ? { id: entry.targetId } : { id: entry.targetId, label };
}
