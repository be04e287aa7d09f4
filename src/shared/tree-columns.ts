/**
 * The columnar form of a tree snapshot (`tree/snapshot`'s `tree`), shared by host and webview.
 * A snapshot of 100k entries as 100k objects cost most of the webview's first paint in the structured clone
 * alone; as a handful of big strings and number arrays it clones in a few copies and the webview decodes a
 * row only when it is drawn. Everything here stays JSON-safe (VS Code's postMessage and the test harness
 * both serialise through JSON).
 */
import type { TreeNodeDto, TreeNodeKind } from "./protocol.js";

/** Row kinds by their code in `TreeColumns.kinds` (append-only: codes are part of the wire format). */
export const TREE_NODE_KINDS: readonly TreeNodeKind[] = [
  "user",
  "assistant",
  "toolResult",
  "bashExecution",
  "custom_message",
  "branch_summary",
  "compaction",
  "label",
  "custom",
  "model_change",
  "thinking_level_change",
  "session_info",
  "unknown",
  "usage",
  "context_edit",
  "system",
];

const KIND_CODES: ReadonlyMap<TreeNodeKind, number> = new Map(TREE_NODE_KINDS.map((k, i) => [k, i]));
const UNKNOWN_CODE = KIND_CODES.get("unknown") as number;

/** The code of a kind in `TreeColumns.kinds` ("unknown" for anything unexpected). */
export function kindCode(kind: TreeNodeKind): number {
  return KIND_CODES.get(kind) ?? UNKNOWN_CODE;
}

/** Bits of `TreeColumns.flags`. */
export const FLAG_TOOL_CALLS_ONLY = 1;
export const FLAG_FAILED = 2;
export const FLAG_ORPHAN = 4;
export const FLAG_HIDDEN = 8;

/** Many strings as one: string `i` is `text.slice(ends[i - 1] ?? 0, ends[i])`; "" means absent where optional. */
export interface StringColumn {
  text: string;
  ends: number[];
}

/**
 * A whole tree, one entry per index, in file order (the first occurrence of a duplicated id only).
 * Parent links are indexes, so the receiver needs no id → index map to draw the tree.
 */
export interface TreeColumns {
  count: number;
  ids: StringColumn;
  /** Parent index, or -1 for a root (including orphans and self-parented entries). */
  parents: number[];
  /** Codes into TREE_NODE_KINDS. */
  kinds: number[];
  /** FLAG_* bits. */
  flags: number[];
  /** ISO timestamps (children are ordered oldest first). */
  timestamps: StringColumn;
  /** Single-line previews (≤ 200 characters each). */
  previews: StringColumn;
  /** Tool names ("" when none). */
  toolNames: StringColumn;
  /** Labels, sparse: `labels.text[k]` is the label of entry `labels.at[k]`. */
  labels: { at: number[]; text: string[] };
  /** Compaction tokensBefore, sparse like labels. */
  tokens: { at: number[]; value: number[] };
  /** Branch summaries' fromId, sparse like labels. */
  fromIds: { at: number[]; id: string[] };
  /** Files changed by an entry's tool calls (TreeNodeDto.changedFiles), sparse like labels. */
  changedFiles: { at: number[]; value: number[] };
  /** Index of the leaf entry, or -1. */
  leaf: number;
  /**
   * True when every entry's children already come in timestamp order (file order usually is), so the
   * receiver can skip sorting.
   */
  childrenSorted: boolean;
}

/** String `i` of a column. */
export function columnString(col: StringColumn, i: number): string {
  return col.text.slice(i === 0 ? 0 : col.ends[i - 1], col.ends[i]);
}

/** Builds a StringColumn by appending strings in order. */
export class StringColumnBuilder {
  private readonly parts: string[] = [];
  private readonly ends: number[] = [];
  private length = 0;

  /** Append the next string. */
  push(s: string): void {
    if (s !== "") this.parts.push(s);
    this.length += s.length;
    this.ends.push(this.length);
  }

  /** The finished column. */
  build(): StringColumn {
    return { text: this.parts.join(""), ends: this.ends };
  }
}

/**
 * Columns from row objects (tests, the HTML export, and anything else that has `TreeNodeDto`s). Later
 * duplicates of an id are dropped; parents naming no entry, or the entry itself, become roots.
 */
export function encodeTreeNodes(nodes: readonly TreeNodeDto[], leafId: string | null): TreeColumns {
  const first = new Map<string, number>();
  const kept: TreeNodeDto[] = [];
  for (const d of nodes) {
    if (first.has(d.id)) continue;
    first.set(d.id, kept.length);
    kept.push(d);
  }
  const n = kept.length;
  const ids = new StringColumnBuilder();
  const timestamps = new StringColumnBuilder();
  const previews = new StringColumnBuilder();
  const toolNames = new StringColumnBuilder();
  const cols: TreeColumns = {
    count: n,
    ids: { text: "", ends: [] },
    parents: new Array<number>(n),
    kinds: new Array<number>(n),
    flags: new Array<number>(n),
    timestamps: { text: "", ends: [] },
    previews: { text: "", ends: [] },
    toolNames: { text: "", ends: [] },
    labels: { at: [], text: [] },
    tokens: { at: [], value: [] },
    fromIds: { at: [], id: [] },
    changedFiles: { at: [], value: [] },
    leaf: leafId === null ? -1 : (first.get(leafId) ?? -1),
    childrenSorted: true,
  };
  for (let i = 0; i < n; i++) {
    const d = kept[i];
    ids.push(d.id);
    const p = d.parentId === null ? -1 : (first.get(d.parentId) ?? -1);
    cols.parents[i] = p === i ? -1 : p;
    cols.kinds[i] = kindCode(d.kind);
    cols.flags[i] =
      (d.toolCallsOnly === true ? FLAG_TOOL_CALLS_ONLY : 0) |
      (d.failed === true ? FLAG_FAILED : 0) |
      (d.orphan === true ? FLAG_ORPHAN : 0) |
      (d.hidden === true ? FLAG_HIDDEN : 0);
    timestamps.push(d.timestamp);
    previews.push(d.preview);
    toolNames.push(d.toolName ?? "");
    if (d.label !== undefined && d.label !== "") {
      cols.labels.at.push(i);
      cols.labels.text.push(d.label);
    }
    if (d.tokens !== undefined) {
      cols.tokens.at.push(i);
      cols.tokens.value.push(d.tokens);
    }
    if (d.fromId !== undefined) {
      cols.fromIds.at.push(i);
      cols.fromIds.id.push(d.fromId);
    }
    if (d.changedFiles !== undefined) {
      cols.changedFiles.at.push(i);
      cols.changedFiles.value.push(d.changedFiles);
    }
  }
  cols.ids = ids.build();
  cols.timestamps = timestamps.build();
  cols.previews = previews.build();
  cols.toolNames = toolNames.build();
  cols.childrenSorted = childrenInOrder(cols.parents, (i) => kept[i].timestamp);
  return cols;
}

/** Whether each entry's children, in index order, have non-decreasing timestamps (one pass). */
export function childrenInOrder(parents: readonly number[], timestampOf: (i: number) => string): boolean {
  const n = parents.length;
  // Last child seen per parent; slot n stands for the roots.
  const last = new Int32Array(n + 1).fill(-1);
  for (let i = 0; i < n; i++) {
    const p = parents[i] < 0 ? n : parents[i];
    const prev = last[p];
    if (prev >= 0 && timestampOf(prev) > timestampOf(i)) return false;
    last[p] = i;
  }
  return true;
}

/** Row objects from columns (tests and tools; the webview decodes rows lazily instead). */
export function decodeTreeColumns(cols: TreeColumns): TreeNodeDto[] {
  const out: TreeNodeDto[] = [];
  const sparse = new Map<number, SparseRowFields>();
  const at = (i: number): SparseRowFields => {
    let s = sparse.get(i);
    if (s === undefined) sparse.set(i, (s = {}));
    return s;
  };
  cols.labels.at.forEach((i, k) => (at(i).label = cols.labels.text[k]));
  cols.tokens.at.forEach((i, k) => (at(i).tokens = cols.tokens.value[k]));
  cols.fromIds.at.forEach((i, k) => (at(i).fromId = cols.fromIds.id[k]));
  cols.changedFiles.at.forEach((i, k) => (at(i).changedFiles = cols.changedFiles.value[k]));
  for (let i = 0; i < cols.count; i++) out.push(rowAt(cols, i, sparse.get(i)));
  return out;
}

/** The row fields that travel in sparse columns (most rows have none of them). */
export interface SparseRowFields {
  label?: string;
  tokens?: number;
  fromId?: string;
  changedFiles?: number;
}

/** One row object from columns; the sparse fields come from the sparse columns. */
export function rowAt(cols: TreeColumns, i: number, sparse: SparseRowFields = {}): TreeNodeDto {
  const { label, tokens, fromId, changedFiles } = sparse;
  const p = cols.parents[i];
  const f = cols.flags[i];
  const d: TreeNodeDto = {
    id: columnString(cols.ids, i),
    parentId: p >= 0 ? columnString(cols.ids, p) : null,
    kind: TREE_NODE_KINDS[cols.kinds[i]] ?? "unknown",
    timestamp: columnString(cols.timestamps, i),
    preview: columnString(cols.previews, i),
  };
  if (label !== undefined && label !== "") d.label = label;
  if (f & FLAG_TOOL_CALLS_ONLY) d.toolCallsOnly = true;
  const tool = columnString(cols.toolNames, i);
  if (tool !== "") d.toolName = tool;
  if (tokens !== undefined) d.tokens = tokens;
  if (f & FLAG_FAILED) d.failed = true;
  if (f & FLAG_ORPHAN) d.orphan = true;
  if (f & FLAG_HIDDEN) d.hidden = true;
  if (fromId !== undefined) d.fromId = fromId;
  if (changedFiles !== undefined) d.changedFiles = changedFiles;
  return d;
}
