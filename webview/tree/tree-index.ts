/**
 * The tree as typed arrays over the snapshot's columns, built once per snapshot and extended in place by
 * appends. Indices (not ids) link nodes so that filtering and flattening 100k nodes stay tight loops; row
 * objects are decoded only for rows that are drawn, and the id → index map only when an id is looked up.
 */
import { kindSearchWords } from "../../src/core/entries/kind-words.js";
import { ENTRY_KINDS } from "../../src/core/session/entry-kinds.js";
import {
  columnString,
  columnText,
  decodeRows,
  idAt,
  indexOfId,
  kindCode,
  rowAt,
  rowFlags,
  sparseFields,
  type DecodedColumn,
  type RowColumns,
  type SparseRowFields,
} from "../../src/core/rows/row-columns.js";
import { PREVIEW_CHARS, type TreeRow } from "../../src/core/rows/tree-row.js";
import { compareSiblings, timeOf } from "../../src/core/session/tree-shape.js";
import { TreeBranches, type BranchItems } from "./tree-branches.js";

/** Kind words by kind code. */
const KIND_WORDS_BY_CODE: readonly string[] = ENTRY_KINDS.map(kindSearchWords);

function grow<T extends Int32Array | Uint8Array>(a: T, size: number, fill: number): T {
  if (a.length >= size) return a;
  const b = new (a.constructor as new (n: number) => T)(Math.max(size, a.length * 2, 16));
  b.set(a);
  if (fill !== 0) b.fill(fill, a.length);
  return b;
}

/** Marks nodes whose string in a lower-cased column contains `t` (a hit must not cross into the next string). */
function markHits(text: string, ends: Int32Array, t: string, m: Uint8Array, maxLen = Infinity): void {
  let node = 0;
  let from = 0;
  for (;;) {
    const at = text.indexOf(t, from);
    if (at < 0) return;
    while (node < ends.length && ends[node] <= at) node++;
    if (node >= ends.length) return;
    const start = node === 0 ? 0 : ends[node - 1];
    const stop = Math.min(ends[node], start + maxLen);
    if (at + t.length <= stop) {
      m[node] = 1;
      // One hit per node is enough: go on from the next node's start.
      from = ends[node];
    } else from = at + t.length > ends[node] && at < stop ? at + 1 : ends[node];
  }
}

/** The lower-cased preview and tool-name columns, with their UTF-16 ends. */
interface LoweredColumns {
  previews: DecodedColumn;
  toolNames: DecodedColumn;
}

/** Node arrays indexed by snapshot order, then append order; `parent[i] === -1` marks a root. */
export class TreeIndex {
  /** Parent node index, -1 for roots (valid below `size`). */
  parent: Int32Array;
  /** Kind codes (ENTRY_KINDS). */
  kinds: Uint8Array;
  /** FLAG_* bits of src/core/rows/row-columns.ts. */
  flags: Uint8Array;
  /** Children as linked lists, oldest first: first child and next sibling, -1 for none. */
  firstChild: Int32Array;
  nextSibling: Int32Array;
  /** Root nodes, oldest first. */
  readonly roots: number[] = [];
  private count: number;
  private readonly cols: RowColumns;
  /** Labels by node index (authoritative for every node). */
  private readonly labels = new Map<number, string>();
  /** The snapshot's other sparse fields by node index (parent ids outside it, tokens, fromId, badges). */
  private readonly sparse: Map<number, SparseRowFields>;
  /** summarySource() answers, by node index. */
  private readonly sources = new Map<number, number>();
  /** Rows that arrived after the snapshot (appends), authoritative over the columns. */
  private readonly own = new Map<number, TreeRow>();
  /** Decoded snapshot rows, a cache. */
  private readonly decoded = new Map<number, TreeRow>();
  private readonly searchText: (string | undefined)[];
  private idMap: Map<string, number> | undefined;
  /** Lower-cased columns for search; null when unusable. */
  private lowered: LoweredColumns | null | undefined;
  private leafIdx = -1;
  private pathMarks: Uint8Array = new Uint8Array(0);
  /** Which branch run beside the user's each row is on (the row menu's parallel items). */
  private readonly branches = new TreeBranches();

  /**
   * Build from a snapshot's columns. Their shape is the core's (src/core/session/tree-shape.ts): no cycles, and
   * `cols.order`, when present, the order to link rows in so that children come in sibling order.
   */
  constructor(cols: RowColumns, leafId: string | null) {
    const n = cols.count;
    this.cols = cols;
    this.count = n;
    // Copies: the index grows and changes its arrays; the message's stay as they came.
    this.parent = cols.parents.slice();
    this.kinds = cols.kinds.slice();
    this.flags = cols.flags.slice();
    this.firstChild = new Int32Array(n).fill(-1);
    this.nextSibling = new Int32Array(n).fill(-1);
    this.sparse = sparseFields(cols);
    for (const [i, s] of this.sparse) {
      if (s.label === undefined) continue;
      this.labels.set(i, s.label);
      delete s.label;
    }
    this.searchText = new Array<string | undefined>(n).fill(undefined);
    // Link in sibling order, tracking each list's tail so every link is O(1).
    const last = new Int32Array(n).fill(-1);
    const parent = this.parent;
    const order = cols.order;
    for (let k = 0; k < n; k++) {
      const i = order === undefined ? k : order[k];
      const p = parent[i];
      if (p < 0 || p >= n) {
        parent[i] = -1;
        this.roots.push(i);
      } else {
        if (last[p] < 0) this.firstChild[p] = i;
        else this.nextSibling[last[p]] = i;
        last[p] = i;
      }
    }
    for (const [i, s] of this.sparse) this.branches.note(i, this.parent[i], s);
    this.setLeafIndex(leafId === null ? -1 : indexOfId(cols, leafId));
  }

  /** The row menu's parallel items that apply to node `i` (its data-vscode-context). */
  branchItems(i: number): BranchItems {
    return this.branches.itemsOf(i, this.parent, this.count);
  }

  /** Number of nodes. */
  get size(): number {
    return this.count;
  }

  /** Index of the leaf node, or -1. */
  get leaf(): number {
    return this.leafIdx;
  }

  /** 1 for nodes on the root→leaf path. */
  get onPath(): Uint8Array {
    return this.pathMarks;
  }

  /** Id → node index, built on first use (first paint needs none). */
  get idToIdx(): ReadonlyMap<string, number> {
    return this.ids();
  }

  /** The node as a row object (decoded on demand and cached). */
  node(i: number): TreeRow {
    const mine = this.own.get(i);
    if (mine !== undefined) return mine;
    let d = this.decoded.get(i);
    if (d === undefined) {
      d = rowAt(this.cols, i, { ...this.sparse.get(i), label: this.labels.get(i) });
      this.decoded.set(i, d);
    }
    return d;
  }

  /** The node's entry id. */
  id(i: number): string {
    return this.own.get(i)?.id ?? idAt(this.cols, i);
  }

  /**
   * Where a branch summary came from: the node index of its `fromId` when that node is not on the summary's own
   * path (the summary was brought from another branch, or left behind by a move), else -1.
   */
  summarySource(i: number): number {
    const known = this.sources.get(i);
    if (known !== undefined) return known;
    const fromId = this.node(i).fromId;
    const src = fromId === undefined ? undefined : this.ids().get(fromId);
    // Not cached while the source is unknown: it may still arrive.
    if (src === undefined) return -1;
    let out = src === i ? -1 : src;
    // Bounded by the node count, so a corrupt parent cycle cannot loop forever. Parents never change: cache it.
    for (let a = this.parent[i], guard = 0; out >= 0 && a >= 0 && guard <= this.count; a = this.parent[a], guard++)
      if (a === src) out = -1;
    this.sources.set(i, out);
    return out;
  }

  /** Whether the node has a label. */
  hasLabel(i: number): boolean {
    return this.labels.has(i);
  }

  /** Add an append's rows in file order; an id seen before replaces that node's fields (same parent kept). */
  append(batch: RowColumns): void {
    const ids = this.ids();
    for (const dto of decodeRows(batch)) {
      const existing = ids.get(dto.id);
      const i = existing ?? this.count;
      if (existing === undefined) {
        this.count++;
        this.ensureCapacity(this.count);
        ids.set(dto.id, i);
        this.searchText.push(undefined);
      }
      this.own.set(i, dto);
      this.decoded.delete(i);
      this.sources.delete(i);
      this.searchText[i] = undefined;
      this.kinds[i] = kindCode(dto.kind);
      this.flags[i] = rowFlags(dto);
      if (dto.label !== undefined) this.labels.set(i, dto.label);
      else this.labels.delete(i);
      if (existing === undefined)
        this.linkNew(i, dto.parentId === null || dto.orphan === true ? -1 : (ids.get(dto.parentId) ?? -1));
      this.branches.note(i, this.parent[i], dto);
    }
    // The path array must cover new indices even when the leaf did not move.
    if (this.pathMarks.length < this.count) this.setLeafIndex(this.leafIdx);
  }

  /** Move the leaf and recompute the active path. */
  setLeaf(leafId: string | null): void {
    this.setLeafIndex(leafId === null ? -1 : (this.ids().get(leafId) ?? -1));
  }

  /** Apply label changes; unknown ids are ignored. */
  setLabels(changes: readonly { id: string; label?: string }[]): void {
    const ids = this.ids();
    for (const ch of changes) {
      const i = ids.get(ch.id);
      if (i === undefined) continue;
      const label = ch.label === undefined || ch.label === "" ? undefined : ch.label;
      if (label === undefined) this.labels.delete(i);
      else this.labels.set(i, label);
      const mine = this.own.get(i);
      if (mine !== undefined) {
        const dto = { ...mine };
        if (label === undefined) delete dto.label;
        else dto.label = label;
        this.own.set(i, dto);
      }
      this.decoded.delete(i);
      this.searchText[i] = undefined;
    }
  }

  /** Lower-case text a search token is matched against: kind, label, preview start, tool name. */
  search(i: number): string {
    let s = this.searchText[i];
    if (s === undefined) {
      const mine = this.own.get(i);
      const preview = mine !== undefined ? mine.preview : columnString(this.cols.previews, i);
      const tool = mine !== undefined ? (mine.toolName ?? "") : columnString(this.cols.toolNames, i);
      s =
        `${KIND_WORDS_BY_CODE[this.kinds[i]] ?? "unknown"} ${this.labels.get(i) ?? ""} ${preview.slice(0, PREVIEW_CHARS)} ${tool}`.toLowerCase();
      this.searchText[i] = s;
    }
    return s;
  }

  /**
   * 1 for nodes whose search text (see `search`) contains every token. Snapshot rows are matched by scanning
   * the lower-cased preview and tool-name columns once per token, so no per-node string is built.
   */
  matchAll(tokens: readonly string[]): Uint8Array {
    const n = this.count;
    const hits = new Uint8Array(n);
    const blobs = this.lowerColumns();
    if (blobs === undefined) {
      for (let i = 0; i < n; i++) hits[i] = tokens.every((t) => this.search(i).includes(t)) ? 1 : 0;
      return hits;
    }
    const base = this.cols.count;
    hits.fill(1, 0, base);
    const m = new Uint8Array(base);
    for (const t of tokens) {
      m.fill(0);
      markHits(blobs.previews.text, blobs.previews.ends, t, m, PREVIEW_CHARS);
      markHits(blobs.toolNames.text, blobs.toolNames.ends, t, m);
      for (let i = 0; i < base; i++) {
        if (hits[i] === 0 || m[i] === 1) continue;
        const label = this.labels.get(i);
        if (!KIND_WORDS_BY_CODE[this.kinds[i]]?.includes(t) && !(label?.toLowerCase().includes(t) ?? false))
          hits[i] = 0;
      }
    }
    // Rows that arrived or changed after the snapshot are not in the columns: match their own text.
    for (const i of this.own.keys()) hits[i] = tokens.every((t) => this.search(i).includes(t)) ? 1 : 0;
    return hits;
  }

  /**
   * After first paint: fill the search cache (and the id map) ahead of the first keystroke, in slices so
   * the UI stays responsive.
   */
  warmSearch(budgetMs = 8): void {
    let next = 0;
    const step = (): void => {
      const end = performance.now() + budgetMs;
      while (next < this.count && performance.now() < end) {
        for (let k = 0; k < 500 && next < this.count; k++) this.search(next++);
      }
      if (next < this.count) setTimeout(step, 0);
      else this.ids();
    };
    const start = (): void => {
      // With usable lower-cased columns, search needs no per-node strings: warm those and the id map only.
      if (this.lowerColumns() !== undefined) setTimeout(() => this.ids(), 0);
      else step();
    };
    // Start after the next frame: work queued right away would run ahead of the first paint.
    if (typeof requestAnimationFrame === "function") requestAnimationFrame(() => setTimeout(start, 0));
    else setTimeout(start, 0);
  }

  /**
   * The preview and tool-name columns decoded whole and lower-cased, or undefined when lower-casing changes their
   * lengths.
   */
  private lowerColumns(): LoweredColumns | undefined {
    if (this.lowered === undefined) {
      const previews = columnText(this.cols.previews);
      const toolNames = columnText(this.cols.toolNames);
      const lowPreviews = previews.text.toLowerCase();
      const lowTools = toolNames.text.toLowerCase();
      // A few characters lower-case to two (İ): offsets would no longer line up, so match per node then.
      const ok = lowPreviews.length === previews.text.length && lowTools.length === toolNames.text.length;
      this.lowered = ok
        ? { previews: { text: lowPreviews, ends: previews.ends }, toolNames: { text: lowTools, ends: toolNames.ends } }
        : null;
    }
    return this.lowered ?? undefined;
  }

  private setLeafIndex(idx: number): void {
    this.leafIdx = idx;
    const marks = new Uint8Array(this.count);
    // Bounded by the node count, so a corrupt parent cycle cannot loop forever.
    for (let i = idx, guard = 0; i >= 0 && guard <= marks.length; i = this.parent[i], guard++) marks[i] = 1;
    this.pathMarks = marks;
  }

  private ids(): Map<string, number> {
    if (this.idMap === undefined) {
      const m = new Map<string, number>();
      // Reverse order so that, should an id repeat, the first occurrence wins.
      for (let i = this.count - 1; i >= 0; i--) m.set(this.id(i), i);
      this.idMap = m;
    }
    return this.idMap;
  }

  private ensureCapacity(size: number): void {
    this.parent = grow(this.parent, size, -1);
    this.kinds = grow(this.kinds, size, 0);
    this.flags = grow(this.flags, size, 0);
    this.firstChild = grow(this.firstChild, size, -1);
    this.nextSibling = grow(this.nextSibling, size, -1);
  }

  private timestamp(i: number): string {
    return this.own.get(i)?.timestamp ?? columnString(this.cols.timestamps, i);
  }

  /**
   * Link an appended node in sibling order (the core's rule; node indexes follow the file's order). Appends are
   * nearly always the newest child, so it usually goes last.
   */
  private linkNew(i: number, p: number): void {
    const safe = p === i ? -1 : p;
    this.parent[i] = safe;
    this.firstChild[i] = -1;
    this.nextSibling[i] = -1;
    const t = timeOf(this.timestamp(i));
    const after = (c: number): boolean => compareSiblings(timeOf(this.timestamp(c)), c, t, i) < 0;
    if (safe < 0) {
      let at = this.roots.length;
      while (at > 0 && !after(this.roots[at - 1])) at--;
      this.roots.splice(at, 0, i);
      return;
    }
    let prev = -1;
    let c = this.firstChild[safe];
    while (c >= 0 && after(c)) {
      prev = c;
      c = this.nextSibling[c];
    }
    this.nextSibling[i] = c;
    if (prev < 0) this.firstChild[safe] = i;
    else this.nextSibling[prev] = i;
  }
}
