/**
 * How tree rows travel from the host to the webview: as columns, for a snapshot (every row) and for an append (a
 * few rows) alike. A snapshot of 100k rows as 100k objects cost most of the webview's first paint in the
 * structured clone alone; as a handful of columns it clones in a few copies, and the webview decodes a row only
 * when it draws it.
 *
 * The big columns are binary: numbers in typed arrays, strings as UTF-8 bytes with their byte ends. VS Code's
 * webview `postMessage` lifts typed arrays out of the message's JSON and sends their buffers as binary (for
 * extensions whose engines.vscode is ≥ 1.57; ours is ^1.100.0), and revives them as typed arrays in the webview.
 * A 300 MB session's snapshot was 6.25 M characters of JSON (a two-byte string when a preview holds one
 * character outside Latin-1); as binary the JSON is a few KB (the sparse columns) and the rest is copied, never
 * parsed. Each typed array owns its buffer, exactly its size: VS Code sends a view's whole `.buffer`. Sparse
 * columns (few rows) stay plain arrays. Strings are UTF-8 (TextEncoder's rules: a lone surrogate, which is not
 * valid UTF-16, arrives as U+FFFD); an id holding one also travels as it is in `rawIds`, so no row is lost.
 */
import { ENTRY_KINDS, kindOf, type EntryKind } from "../session/entry-kinds.js";
import { breakCycles, siblingOrder } from "../session/tree-shape.js";
import type { EntryEnvelope } from "../session/types.js";
import { PREVIEW_CHARS, rowPreview, type RowCheck, type TreeRow } from "./tree-row.js";
import type { BranchRunMark } from "../parallel/branch-run-lines.js";

/** Bits of `RowColumns.flags`. */
export const FLAG_TOOL_CALLS_ONLY = 1;
export const FLAG_FAILED = 2;
export const FLAG_ORPHAN = 4;
export const FLAG_HIDDEN = 8;
export const FLAG_ABORTED = 16;

const KIND_CODES: ReadonlyMap<EntryKind, number> = new Map(ENTRY_KINDS.map((k, i) => [k, i]));
const UNKNOWN_CODE = KIND_CODES.get("unknown") as number;

/** The code of a kind in `RowColumns.kinds` (ENTRY_KINDS order). */
export function kindCode(kind: EntryKind): number {
  return KIND_CODES.get(kind) ?? UNKNOWN_CODE;
}

/** Many strings as one: the UTF-8 bytes of string `i` are `bytes.subarray(ends[i - 1] ?? 0, ends[i])`. */
export interface StringColumn {
  bytes: Uint8Array;
  /** Byte offset where each string ends. */
  ends: Int32Array;
}

/** A field most rows lack: `values[k]` belongs to row `at[k]`. */
export interface SparseColumn<T> {
  at: number[];
  values: T[];
}

/**
 * Rows as columns, in file order (the first occurrence of a duplicated id only). Parent links are indexes into
 * the batch, so a snapshot needs no id → index map to be drawn.
 */
export interface RowColumns {
  count: number;
  ids: StringColumn;
  /** Parent index in this batch, or -1: a root, or a parent outside the batch (then in `parentIds`). */
  parents: Int32Array;
  /** Parent ids that are not in this batch: an appended row's earlier parent, an orphan's missing one. */
  parentIds: SparseColumn<string>;
  /** Codes into ENTRY_KINDS. */
  kinds: Uint8Array;
  /** FLAG_* bits. */
  flags: Uint8Array;
  /** ISO timestamps. */
  timestamps: StringColumn;
  /** Single-line previews (≤ 200 characters each). */
  previews: StringColumn;
  /** Tool names ("" when none). */
  toolNames: StringColumn;
  labels: SparseColumn<string>;
  /** Compaction tokensBefore. */
  tokens: SparseColumn<number>;
  /** Branch summaries' fromId. */
  fromIds: SparseColumn<string>;
  /** Files changed by a row's tool calls. */
  changedFiles: SparseColumn<number>;
  /** Check marks of parallel branches' rows (absent when no row has one). */
  checks?: SparseColumn<RowCheck>;
  /** Run lines' marks (on the run line's row, a few per session; absent when none). */
  branchRuns?: SparseColumn<BranchRunMark>;
  /** Ids that UTF-8 cannot carry (a lone surrogate: a damaged or hand-made file), as they are; absent when none. */
  rawIds?: SparseColumn<string>;
  /**
   * The rows in sibling order (src/core/session/tree-shape.ts): linking each row to its parent in this order gives
   * every parent, and the roots, their children in pi's order. Absent when index order is that order (nearly
   * always), so the receiver links in index order and sorts nothing.
   */
  order?: Int32Array;
}

/** The fields a row has before its kind, label and badge are known: a TreeRow's, and a store envelope's alike. */
type RowFields = Pick<
  TreeRow,
  | "id"
  | "parentId"
  | "timestamp"
  | "preview"
  | "toolName"
  | "toolCallsOnly"
  | "tokens"
  | "fromId"
  | "failed"
  | "aborted"
  | "hidden"
  | "orphan"
>;

/** The FLAG_* bits of a row. */
export function rowFlags(r: RowFields): number {
  return (
    (r.toolCallsOnly === true ? FLAG_TOOL_CALLS_ONLY : 0) |
    (r.failed === true ? FLAG_FAILED : 0) |
    (r.orphan === true ? FLAG_ORPHAN : 0) |
    (r.hidden === true ? FLAG_HIDDEN : 0) |
    (r.aborted === true ? FLAG_ABORTED : 0)
  );
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A StringColumn decoded whole: string `i` is `text.slice(ends[i - 1] ?? 0, ends[i])` (UTF-16 offsets). */
export interface DecodedColumn {
  text: string;
  ends: Int32Array;
}

/** Columns decoded whole so far (search, the id lookup); their strings are then slices of one string. */
const decodedColumns = new WeakMap<StringColumn, DecodedColumn>();

/**
 * A column as one string, decoded once (by one TextDecoder call) and kept: for scanning every string (search, an
 * id lookup). When every byte is ASCII, its ends are the byte ends.
 */
export function columnText(col: StringColumn): DecodedColumn {
  let d = decodedColumns.get(col);
  if (d === undefined) {
    const text = decoder.decode(col.bytes);
    d = { text, ends: text.length === col.bytes.length ? col.ends : utf16Ends(col) };
    decodedColumns.set(col, d);
  }
  return d;
}

/** The UTF-16 end of each string: every byte but a continuation byte starts a character, a 4-byte one two units. */
function utf16Ends(col: StringColumn): Int32Array {
  const { bytes, ends } = col;
  const out = new Int32Array(ends.length);
  let units = 0;
  let b = 0;
  for (let i = 0; i < ends.length; i++) {
    for (const end = ends[i]; b < end; b++) {
      const x = bytes[b];
      if ((x & 0xc0) !== 0x80) units += x >= 0xf0 ? 2 : 1;
    }
    out[i] = units;
  }
  return out;
}

/** String `i` of a column: a slice of the whole decoded column once there is one, else its own bytes decoded. */
export function columnString(col: StringColumn, i: number): string {
  const d = decodedColumns.get(col);
  if (d !== undefined) return d.text.slice(i === 0 ? 0 : d.ends[i - 1], d.ends[i]);
  return decodeBytes(col.bytes, i === 0 ? 0 : col.ends[i - 1], col.ends[i]);
}

/** A surrogate code point: with the `u` flag only a lone surrogate is one (a pair is one astral character). */
const LONE_SURROGATE = /\p{Cs}/u;

/** The id of row `i` (`rawIds` holds the few that UTF-8 cannot carry). */
export function idAt(cols: RowColumns, i: number): string {
  const raw = cols.rawIds;
  const k = raw === undefined ? -1 : raw.at.indexOf(i);
  return k >= 0 ? (raw as SparseColumn<string>).values[k] : columnString(cols.ids, i);
}

/** Strings up to this long (ids, timestamps, tool names) are encoded and decoded in JS when they are ASCII. */
const SHORT_BYTES = 32;

function decodeBytes(bytes: Uint8Array, start: number, end: number): string {
  if (end - start <= SHORT_BYTES) {
    let s = "";
    for (let k = start; k < end; k++) {
      const c = bytes[k];
      if (c >= 0x80) return decoder.decode(bytes.subarray(start, end));
      s += String.fromCharCode(c);
    }
    return s;
  }
  return decoder.decode(bytes.subarray(start, end));
}

/** Builds a StringColumn by writing strings' UTF-8 in order into one growing byte array. */
class StringColumnBuilder {
  private bytes: Uint8Array;
  private readonly ends: Int32Array;
  private length = 0;
  private count = 0;

  /** `rows`: how many strings will be pushed; `capacity`: bytes to start with (it grows as needed). */
  constructor(rows: number, capacity: number) {
    this.ends = new Int32Array(rows);
    this.bytes = new Uint8Array(Math.max(64, capacity));
  }

  /** Appends `s`; false when it may hold a character outside ASCII (it went through TextEncoder). */
  push(s: string): boolean {
    const n = s.length;
    let at = this.length;
    // A UTF-16 unit takes at most 3 bytes (a surrogate pair, two units, takes 4).
    if (at + n * 3 > this.bytes.length) this.grow(at + n * 3);
    const b = this.bytes;
    // Short ASCII (ids, timestamps, tool names) is written quicker here than by a TextEncoder call; long strings
    // (previews) and the rest of a short one from its first other unit go through TextEncoder.
    let k = 0;
    if (n <= SHORT_BYTES)
      for (; k < n; k++) {
        const c = s.charCodeAt(k);
        if (c >= 0x80) break;
        b[at + k] = c;
      }
    at += k;
    if (k < n) at += encoder.encodeInto(k === 0 ? s : s.slice(k), b.subarray(at)).written;
    this.length = at;
    this.ends[this.count++] = at;
    return k === n;
  }

  /** The column, its bytes copied to their exact size (VS Code posts a view's whole buffer). */
  build(): StringColumn {
    return { bytes: this.bytes.slice(0, this.length), ends: this.ends };
  }

  private grow(size: number): void {
    const bigger = new Uint8Array(Math.max(size, this.bytes.length * 2));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
  }
}

/** What the encoder asks of each item besides its RowFields. */
interface RowExtras<T> {
  kind(item: T): EntryKind;
  label?(item: T): string | undefined;
  changedFiles?(item: T): number | undefined;
  check?(item: T): RowCheck | undefined;
  branchRun?(item: T): BranchRunMark | undefined;
}

/**
 * Encode rows (or store envelopes, with `extras` giving their kind, label and badge). Later duplicates of an id
 * are dropped; an orphan, a self-parented row and a row whose parent is not in `items` get parent -1.
 */
function encodeRows<T extends RowFields>(items: readonly T[], extras: RowExtras<T>): RowColumns {
  const total = items.length;
  // Index of each id's first occurrence; later duplicates are left out (the tree never shows them).
  const indexOf = new Map<string, number>();
  let keep: Uint8Array | undefined;
  // The previews' UTF-16 length: their bytes' room, so that the biggest column is not grown and copied.
  let previewChars = 0;
  for (let e = 0; e < total; e++) {
    previewChars += Math.min(items[e].preview.length, PREVIEW_CHARS);
    const id = items[e].id;
    if (indexOf.has(id)) (keep ??= new Uint8Array(total).fill(1))[e] = 0;
    else indexOf.set(id, indexOf.size);
  }
  const n = indexOf.size;
  const parents = new Int32Array(n);
  const kinds = new Uint8Array(n);
  const flags = new Uint8Array(n);
  const ids = new StringColumnBuilder(n, n * 12);
  const timestamps = new StringColumnBuilder(n, n * 24);
  // An eighth more for characters outside ASCII (two or three bytes each).
  const previews = new StringColumnBuilder(n, previewChars + (previewChars >> 3));
  const toolNames = new StringColumnBuilder(n, n * 4);
  const sparse = {
    parentIds: { at: [], values: [] } as SparseColumn<string>,
    labels: { at: [], values: [] } as SparseColumn<string>,
    tokens: { at: [], values: [] } as SparseColumn<number>,
    fromIds: { at: [], values: [] } as SparseColumn<string>,
    changedFiles: { at: [], values: [] } as SparseColumn<number>,
  };
  const checks: SparseColumn<RowCheck> = { at: [], values: [] };
  const branchRuns: SparseColumn<BranchRunMark> = { at: [], values: [] };
  const rawIds: SparseColumn<string> = { at: [], values: [] };
  const put = <V>(col: SparseColumn<V>, i: number, v: V | undefined): void => {
    if (v === undefined) return;
    col.at.push(i);
    col.values.push(v);
  };
  const stamps = new Array<string>(n);
  // Rows whose parent comes later in the batch: rare, and every parentId cycle holds one.
  let forward: number[] | undefined;
  for (let e = 0, i = 0; e < total; e++) {
    if (keep !== undefined && keep[e] === 0) continue;
    const item = items[e];
    if (!ids.push(item.id) && LONE_SURROGATE.test(item.id)) put(rawIds, i, item.id);
    // An orphan is a root even when its parentId names a row: the store broke a parentId cycle there.
    const inBatch = item.parentId === null || item.orphan === true ? undefined : indexOf.get(item.parentId);
    const p = inBatch === undefined || inBatch === i ? -1 : inBatch;
    parents[i] = p;
    if (p > i) (forward ??= []).push(i);
    if (p < 0 && item.parentId !== null) put(sparse.parentIds, i, item.parentId);
    kinds[i] = kindCode(extras.kind(item));
    flags[i] = rowFlags(item);
    const ts = item.timestamp;
    timestamps.push(ts);
    stamps[i] = ts;
    previews.push(rowPreview(item.preview));
    toolNames.push(item.toolName ?? "");
    const label = extras.label?.(item);
    put(sparse.labels, i, label === "" ? undefined : label);
    put(sparse.tokens, i, item.tokens);
    put(sparse.fromIds, i, item.fromId);
    put(sparse.changedFiles, i, extras.changedFiles?.(item));
    put(checks, i, extras.check?.(item));
    put(branchRuns, i, extras.branchRun?.(item));
    i++;
  }
  // A cycle the store did not break already (rows not from the store): broken where the store would break it.
  for (const { positions } of forward ? breakCycles(parents, forward) : []) {
    const at = positions[0];
    flags[at] |= FLAG_ORPHAN;
    put(sparse.parentIds, at, items[keptIndex(keep, at)].parentId as string);
  }
  const order = siblingOrder(parents, (k) => stamps[k]);
  const cols: RowColumns = {
    count: n,
    ids: ids.build(),
    parents,
    kinds,
    flags,
    timestamps: timestamps.build(),
    previews: previews.build(),
    toolNames: toolNames.build(),
    ...sparse,
  };
  if (checks.at.length > 0) cols.checks = checks;
  if (branchRuns.at.length > 0) cols.branchRuns = branchRuns;
  if (rawIds.at.length > 0) cols.rawIds = rawIds;
  if (order !== undefined) cols.order = Int32Array.from(order);
  return cols;
}

/** The item index of batch row `row` when `keep` marks the items left out (later duplicates). */
function keptIndex(keep: Uint8Array | undefined, row: number): number {
  if (keep === undefined) return row;
  for (let e = 0, i = -1; e < keep.length; e++) if (keep[e] === 1 && ++i === row) return e;
  return row;
}

const ROW_EXTRAS: RowExtras<TreeRow> = {
  kind: (r) => r.kind,
  label: (r) => r.label,
  changedFiles: (r) => r.changedFiles,
  check: (r) => r.check,
  branchRun: (r) => r.branchRun,
};

/**
 * Encode a session's envelopes (the host's snapshot), labels resolved through `getLabel`, badges from
 * `changedFiles` (src/host/checkpoints/file-counts.ts), check marks from `checks`, run lines' marks from
 * `branchRuns`. No row object is made.
 */
export function encodeEnvelopes(
  envelopes: readonly EntryEnvelope[],
  getLabel: (id: string) => string | undefined,
  changedFiles: ReadonlyMap<string, number> = new Map(),
  checks: ReadonlyMap<string, RowCheck> = new Map(),
  branchRuns: ReadonlyMap<string, BranchRunMark> = new Map(),
): RowColumns {
  // Runs of one type and role are common: the kind of the previous envelope is reused for them.
  let lastType = "";
  let lastRole: string | undefined;
  let lastKind: EntryKind = "unknown";
  return encodeRows(envelopes, {
    kind: (e) => {
      if (e.type !== lastType || e.role !== lastRole) {
        lastType = e.type;
        lastRole = e.role;
        lastKind = kindOf(e.type, e.role);
      }
      return lastKind;
    },
    label: (e) => getLabel(e.id),
    changedFiles: changedFiles.size > 0 ? (e) => changedFiles.get(e.id) : undefined,
    check: checks.size > 0 ? (e) => checks.get(e.id) : undefined,
    branchRun: branchRuns.size > 0 ? (e) => branchRuns.get(e.id) : undefined,
  });
}

/** Encode row objects (an append batch, the exported page, tests). */
export function encodeTreeRows(rows: readonly TreeRow[]): RowColumns {
  return encodeRows(rows, ROW_EXTRAS);
}

/** The sparse fields of one row (most rows have none of them). */
export type SparseRowFields = Pick<TreeRow, "label" | "tokens" | "fromId" | "changedFiles" | "check" | "branchRun"> & {
  parentId?: string;
};

/** Row `i` from the columns; its sparse fields are passed in (the receiver keeps them by index). */
export function rowAt(cols: RowColumns, i: number, sparse: SparseRowFields = {}): TreeRow {
  const p = cols.parents[i];
  const f = cols.flags[i];
  const row: TreeRow = {
    id: idAt(cols, i),
    parentId: p >= 0 ? idAt(cols, p) : (sparse.parentId ?? null),
    kind: ENTRY_KINDS[cols.kinds[i]] ?? "unknown",
    timestamp: columnString(cols.timestamps, i),
    preview: columnString(cols.previews, i),
  };
  if (sparse.label !== undefined) row.label = sparse.label;
  if (f & FLAG_TOOL_CALLS_ONLY) row.toolCallsOnly = true;
  const tool = columnString(cols.toolNames, i);
  if (tool !== "") row.toolName = tool;
  if (sparse.tokens !== undefined) row.tokens = sparse.tokens;
  if (f & FLAG_FAILED) row.failed = true;
  if (f & FLAG_ABORTED) row.aborted = true;
  if (f & FLAG_ORPHAN) row.orphan = true;
  if (f & FLAG_HIDDEN) row.hidden = true;
  if (sparse.fromId !== undefined) row.fromId = sparse.fromId;
  if (sparse.changedFiles !== undefined) row.changedFiles = sparse.changedFiles;
  if (sparse.check !== undefined) row.check = sparse.check;
  if (sparse.branchRun !== undefined) row.branchRun = sparse.branchRun;
  return row;
}

/** The sparse fields of every row that has any, by row index. */
export function sparseFields(cols: RowColumns): Map<number, SparseRowFields> {
  const out = new Map<number, SparseRowFields>();
  const add = <K extends keyof SparseRowFields>(col: SparseColumn<SparseRowFields[K]>, key: K): void => {
    for (let k = 0; k < col.at.length; k++) {
      let s = out.get(col.at[k]);
      if (s === undefined) out.set(col.at[k], (s = {}));
      s[key] = col.values[k];
    }
  };
  add(cols.parentIds, "parentId");
  add(cols.labels, "label");
  add(cols.tokens, "tokens");
  add(cols.fromIds, "fromId");
  add(cols.changedFiles, "changedFiles");
  if (cols.checks) add(cols.checks, "check");
  if (cols.branchRuns) add(cols.branchRuns, "branchRun");
  return out;
}

/** Every row of a batch as an object (an append batch, tests; the webview decodes a snapshot lazily). */
export function decodeRows(cols: RowColumns): TreeRow[] {
  const sparse = sparseFields(cols);
  const out = new Array<TreeRow>(cols.count);
  for (let i = 0; i < cols.count; i++) out[i] = rowAt(cols, i, sparse.get(i));
  return out;
}

/** Index of the row with this id, or -1, without building an id map (a snapshot's leaf, before first paint). */
export function indexOfId(cols: RowColumns, id: string): number {
  if (id === "") return -1;
  const raw = cols.rawIds;
  if (raw !== undefined) {
    const k = raw.values.indexOf(id);
    if (k >= 0) return raw.at[k];
  }
  const { text, ends } = columnText(cols.ids);
  for (let at = text.indexOf(id); at >= 0; at = text.indexOf(id, at + 1)) {
    // The hit must be a whole id: it starts where one id starts and ends where it ends.
    let lo = 0;
    let hi = ends.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid] <= at) lo = mid + 1;
      else hi = mid;
    }
    const start = lo === 0 ? 0 : ends[lo - 1];
    // A raw id's U+FFFD stand-in is not that id.
    if (start === at && ends[lo] === at + id.length && !(raw?.at.includes(lo) ?? false)) return lo;
  }
  return -1;
}
