/**
 * The tree's row: one session entry as every view of the tree shows it — the side bar's tree, the pickers, the
 * exported page — built from the store's envelope, so no body is read. One type from the store to the webview;
 * between host and webview rows travel as columns (row-columns.ts). What a row says is worded by the entry view
 * (src/core/entries/row-words.ts); docs/tree-navigation.md says what a row shows.
 */
import { kindOf, type EntryKind } from "../session/entry-kinds.js";
import type { EntryEnvelope } from "../session/types.js";
import type { BranchCheckState } from "../parallel/branch-check.js";
import type { BranchRunMark } from "../parallel/branch-run-lines.js";

/** One session entry as the tree draws it: envelope and a short preview, never the whole body. */
export interface TreeRow {
  id: string;
  parentId: string | null;
  kind: EntryKind;
  /** ISO timestamp (children are ordered oldest first). */
  timestamp: string;
  /** First ~200 characters of the entry's text, single line. */
  preview: string;
  /** Resolved label, if any. */
  label?: string;
  /** Assistant: the message has tool calls only, no text. */
  toolCallsOnly?: boolean;
  /** Tool name (toolResult) or tool names (assistant tool calls), for display and search. */
  toolName?: string;
  /** Compaction: tokensBefore. */
  tokens?: number;
  /** Assistant: stopReason "error" or "aborted". */
  failed?: boolean;
  /** Assistant: stopReason "aborted": the user stopped it (`failed` is set too); shown as such, not as a failure. */
  aborted?: boolean;
  /** Shown as a root although its parentId is set: the parent names no entry, or the store broke a cycle here. */
  orphan?: boolean;
  /** custom_message with display:false. */
  hidden?: boolean;
  /** Branch summary: the node it summarizes up to (its `fromId`); the row shows where it came from. */
  fromId?: string;
  /**
   * How many files this entry's tool calls changed in the workspace (the checkpoint entries hanging off it,
   * docs/checkpoints.md); absent when none.
   */
  changedFiles?: number;
  /**
   * A parallel branch's check on the row it checked (the newest check record hanging off it, src/core/parallel/
   * branch-check.ts): ✓ / ✗ or running, its hover the command, outcome and output tail.
   */
  check?: RowCheck;
  /**
   * A branch's run line (src/core/parallel/branch-run-lines.ts): what the branch it hangs off ran as. The tree
   * reads from it which of the row menu's parallel items apply to that branch's rows.
   */
  branchRun?: BranchRunMark;
}

/** A check's mark on a row. */
export interface RowCheck {
  state: BranchCheckState;
  /** The hover: the command, how it went, the end of its output (capped). */
  title: string;
}

/** Longest preview a row carries. */
export const PREVIEW_CHARS = 200;

/** Text as one line of at most `max` characters (whitespace runs become one space, a cut ends in `…`). */
export function singleLine(text: string, max = PREVIEW_CHARS): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/** A preview as rows carry it: the store's are single-line and bounded already, so only check (cheap). */
export function rowPreview(preview: string): string {
  return preview.length > PREVIEW_CHARS || preview.includes("\n") ? singleLine(preview) : preview;
}

/**
 * One envelope as a row; `changedFiles` is its badge (src/host/checkpoints/file-counts.ts), `check` its check mark,
 * `branchRun` a run line's mark.
 */
export function treeRowOf(
  env: EntryEnvelope,
  label?: string,
  changedFiles?: number,
  check?: RowCheck,
  branchRun?: BranchRunMark,
): TreeRow {
  const row: TreeRow = {
    id: env.id,
    parentId: env.parentId,
    kind: kindOf(env.type, env.role),
    timestamp: env.timestamp,
    preview: rowPreview(env.preview),
  };
  if (label !== undefined && label !== "") row.label = label;
  if (env.toolCallsOnly) row.toolCallsOnly = true;
  if (env.toolName !== undefined) row.toolName = env.toolName;
  if (env.tokens !== undefined) row.tokens = env.tokens;
  if (env.failed) row.failed = true;
  if (env.aborted) row.aborted = true;
  if (env.orphan) row.orphan = true;
  if (env.hidden) row.hidden = true;
  if (env.fromId !== undefined) row.fromId = env.fromId;
  if (changedFiles !== undefined) row.changedFiles = changedFiles;
  if (check !== undefined) row.check = check;
  if (branchRun !== undefined) row.branchRun = branchRun;
  return row;
}

/** Every entry of a session as a row, in file order, labels resolved (the pickers; the view gets columns). */
export function treeRows(session: {
  getEnvelopes(): readonly EntryEnvelope[];
  getLabel(id: string): string | undefined;
}): TreeRow[] {
  return session.getEnvelopes().map((e) => treeRowOf(e, session.getLabel(e.id)));
}
