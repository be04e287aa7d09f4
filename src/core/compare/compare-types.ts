/**
 * The comparison of two branches as plain JSON-safe data: the compare view (webview/compare) draws it as the host
 * sends it. Both paths are split into turns — a user message and everything up to the next user message; a branch
 * summary or a compaction is a turn of its own — and the turns after the common ancestor are aligned.
 * No Node or editor imports here: the webview imports these types.
 */
import type { EntryKind } from "../session/entry-kinds.js";

/** How the two sides of an aligned turn or item relate: the same, both present but different, or one side only. */
export type CompareStatus = "same" | "changed" | "left" | "right";

/** One letter per status, as `CompareOverview.statuses` carries them. */
export const STATUS_CODES: Readonly<Record<CompareStatus, string>> = {
  same: "s",
  changed: "c",
  left: "l",
  right: "r",
};

/** The status a letter of `CompareOverview.statuses` stands for. */
export function statusOfCode(code: string): CompareStatus {
  return code === "s" ? "same" : code === "l" ? "left" : code === "r" ? "right" : "changed";
}

/**
 * How a turn starts: a user message, entries after the branch point before any user message (`continuation`,
 * e.g. a regenerated reply), a branch summary, or a compaction.
 */
export type CompareTurnKind = "turn" | "continuation" | "branchSummary" | "compaction";

/** What an item of a turn is: the kind of its entry, or one tool call of an assistant reply. */
export type CompareItemKind = EntryKind | "toolCall";

/** One thing a turn shows: a message, a tool call, a tool result, a summary… */
export interface CompareItem {
  entryId: string;
  kind: CompareItemKind;
  /** Tool name, command, custom type, token count. */
  title?: string;
  /** The text, cut at a bound (see `omitted`). */
  text: string;
  /** Characters cut from the end of `text`. */
  omitted?: number;
  /** A failed tool result or a reply that ended in an error. */
  isError?: boolean;
  /** The text is prose (rendered as markdown); else program output or a value, shown as it is. */
  prose?: boolean;
  /** A user message's images (pi's image blocks), shown as thumbnails. */
  images?: { mimeType: string; data: string }[];
}

/** A run of text of a changed item; `changed` marks words the other side does not have. */
export interface DiffSpan {
  text: string;
  changed?: boolean;
}

/** One side of an aligned row: the item, and for a changed item its word-level differences. */
export interface CompareCell {
  item: CompareItem;
  /** Present when the item differs from the item beside it: `item.text` split into runs. */
  spans?: DiffSpan[];
}

/** Items of the two turns side by side (a side is absent when only the other has the item). */
export interface CompareRow {
  status: CompareStatus;
  left?: CompareCell;
  right?: CompareCell;
}

/** One aligned turn with its items. */
export interface CompareTurn {
  /** Position among the aligned turns. */
  index: number;
  status: CompareStatus;
  kind: CompareTurnKind;
  rows: CompareRow[];
}

/** One end of the comparison (a node and the path from the root to it). */
export interface CompareEnd {
  entryId: string;
  /** Role word and preview of the node. */
  title: string;
  label?: string;
  /** Turns after the common ancestor. */
  turns: number;
}

/** What the view shows first: both ends, the common ancestor, and the status of every aligned turn. */
export interface CompareOverview {
  left: CompareEnd;
  right: CompareEnd;
  /**
   * The deepest entry on both paths and the part of its turn up to it (for context); absent when the paths share
   * no entry. `sharedTurns` counts the turns from the root to it.
   */
  ancestor?: { entryId: string; label?: string; items: CompareItem[]; sharedTurns: number };
  /** One letter of STATUS_CODES per aligned turn; the turns themselves come in pages (CompareTurn). */
  statuses: string;
}

/** A file that differs between the workspace states at the two ends (from the left end to the right one). */
export interface CompareFileChange {
  /** Workspace-relative path (prefixed with the folder's name in a multi-root workspace). */
  path: string;
  change: "added" | "modified" | "deleted" | "renamed";
  /** The left end's path of a renamed file. */
  oldPath?: string;
}

/**
 * The files section's source: the workspace states recorded at two entries (workspace checkpoints). A host that
 * records checkpoints provides it; without one the view has no files section.
 */
export interface CompareFilesProvider {
  /** Files that differ between the states at `leftId` and `rightId`; undefined when either entry has none. */
  changedFiles(leftId: string, rightId: string): Promise<CompareFileChange[] | undefined>;
}
