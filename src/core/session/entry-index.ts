/**
 * The in-memory tree of a session over its EntryTable: id → position, parent positions, roots (parentId
 * null or orphaned), children per parent (oldest first, file order breaking timestamp ties; built on first
 * use), resolved labels, the archived branches and the session name.
 *
 * A damaged file can hold parentId cycles (A → B → A). Each cycle is broken at its entry that comes first in
 * the file: that entry is treated as a root (flagged `orphan`, like an entry whose parent is missing), the
 * others hang below it, so every entry is in the tree once and no path repeats an entry.
 */
import type { EntryMeta } from "./entry-meta.js";
import type { DuplicateEntry, EntryTable } from "./entry-table.js";
import type { IdMap } from "./id-map.js";
import { breakCycles, compareSiblings, siblingInsertAt, timeOf } from "./tree-shape.js";
import type { EntryEnvelope } from "./types.js";

const NO_KIDS: readonly number[] = Object.freeze([]);

/** newestOnPath's mark for a position not asked about yet. */
const UNKNOWN = -2;

/** A parentId cycle found in the file, broken at its first entry. */
export interface ParentCycle {
  /** Ids around the cycle, starting with the entry made a root, each followed by its parent. */
  ids: string[];
  /** Line of the entry made a root. */
  line: number;
}

/** Mutable index of a session's entries. */
export class EntryIndex {
  /** The table's id map (kept up to date by its push). */
  private readonly byId: Map<string, number> | IdMap;
  /** The table's parent positions (kept up to date by its push); -1 for roots and orphans. */
  private readonly parents: number[];
  /** Date.parse of each timestamp, NaN until needed (only sibling order needs it). */
  private times: Float64Array;
  private readonly orphans = new Set<number>();
  private readonly rootList: number[] = [];
  /** Children positions per entry (undefined: none), once built. */
  private kids: (number[] | undefined)[] | undefined;
  readonly labels = new Map<string, string>();
  /** When each label in `labels` was set: its label entry's timestamp (pi's `labelTimestamp`). */
  readonly labelTimestamps = new Map<string, string>();
  /** First entries of the archived branches (the latest archive line of each target wins), oldest line first. */
  readonly archivedRoots = new Set<string>();
  sessionName: string | undefined;
  /** Position of the session_info entry `sessionName` comes from (-1: none). */
  sessionNameAt = -1;
  /** newestOnPath's answers per test: per position, the newest accepted entry on its path (-1: none; UNKNOWN). */
  private readonly newest = new Map<(position: number) => boolean, Int32Array>();
  /** Per position, how many entries lie above it on its path (UNKNOWN until asked; see depthOf). */
  private depths = new Int32Array(0);

  private constructor(readonly table: EntryTable) {
    this.byId = table.byId;
    this.parents = table.parents;
    this.times = new Float64Array(Math.max(16, table.length)).fill(NaN);
  }

  /**
   * Build from a table in file order. Lines whose id an earlier line already has are dropped (the first one
   * wins, as lookups in pi find the first too) and returned.
   */
  static build(table: EntryTable): { index: EntryIndex; duplicates: DuplicateEntry[]; cycles: ParentCycle[] } {
    let t = table;
    const duplicates = t.duplicates.slice();
    if (duplicates.length > 0) {
      // A damaged file: keep the first line of each id (the new table links its entries again without the others).
      const first = new Set<string>();
      const drop: number[] = [];
      for (let i = 0; i < t.length; i++) {
        if (first.has(t.envs[i].id)) drop.push(i);
        else first.add(t.envs[i].id);
      }
      t = t.without(drop);
    }
    const index = new EntryIndex(t);
    const cycles = index.link();
    return { index, duplicates, cycles };
  }

  /**
   * What the table's links leave to the whole file: parents that come later in it, orphans, metadata and roots
   * (the table made the id map and the other parent links while the entries were added).
   */
  private link(): ParentCycle[] {
    const { table, parents, byId } = this;
    const { envs } = table;
    for (const i of table.settings) this.applyMeta(i);
    for (const i of table.nullParents) this.rootList.push(i);
    // Entries whose parent comes later in the file: rare, and every parentId cycle has one.
    let forward: number[] | undefined;
    for (const i of table.unlinked) {
      const at = byId.get(envs[i].parentId as string);
      if (at !== undefined && at !== i) {
        parents[i] = at;
        (forward ??= []).push(i);
      } else {
        // Orphans: the parentId names no entry (or the entry itself).
        this.orphans.add(i);
        this.rootList.push(i);
        envs[i].orphan = true;
      }
    }
    const cycles = forward ? this.breakCycles(forward) : [];
    this.rootList.sort((a, b) => this.compare(a, b));
    return cycles;
  }

  /** Break the parentId cycles through the entries in `starts` (tree-shape.ts): each broken entry becomes a root. */
  private breakCycles(starts: readonly number[]): ParentCycle[] {
    return breakCycles(this.parents, starts).map(({ positions }) => {
      const first = positions[0];
      this.rootList.push(first);
      this.table.envs[first].orphan = true;
      return { ids: positions.map((k) => this.table.envs[k].id), line: this.table.lines[first] };
    });
  }

  /** Number of entries. */
  get count(): number {
    return this.table.length;
  }

  /** True when an entry has this id. */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The position of an entry (file order), or undefined. */
  positionOf(id: string): number | undefined {
    return this.byId.get(id);
  }

  /** The parent position of position `i` (-1 for roots, orphans and broken cycles' first entries). */
  parentOf(i: number): number {
    return this.parents[i];
  }

  /** The envelope at position `i`. */
  env(i: number): EntryEnvelope {
    return this.table.envs[i];
  }

  /** The meta at position `i`. */
  meta(i: number): EntryMeta {
    return this.table.metas[i];
  }

  /** True when some entry's parentId names no entry. */
  hasOrphans(): boolean {
    return this.orphans.size > 0;
  }

  /** Add an entry appended to the session (its parent, if any, exists). Returns its position. */
  add(env: EntryEnvelope, meta: EntryMeta, offset: number, size: number, line: number): number {
    // The table's push puts the id in the map and links the parent.
    const i = this.table.push(env, meta, offset, size, line);
    if (i >= this.times.length) {
      const grown = new Float64Array(this.times.length * 2).fill(NaN);
      grown.set(this.times);
      this.times = grown;
    }
    this.applyMeta(i);
    const p = this.parents[i];
    if (p < 0) {
      this.insertSorted(this.rootList, i);
      return i;
    }
    if (this.kids) {
      const list = this.kids[p];
      if (list) this.insertSorted(list, i);
      else this.kids[p] = [i];
    }
    return i;
  }

  /** Positions of the children of the entry at `i`, oldest first (do not mutate). */
  kidsAt(i: number): readonly number[] {
    return this.builtKids()[i] ?? NO_KIDS;
  }

  /**
   * Puts every item into its parent's `children` (items[i] stands for the entry at position i), oldest first, as
   * kidsAt orders them: what getTree() needs, without a list of positions per entry first (a big session's tree
   * is built once per open, in a process that has not optimised this code yet).
   */
  linkChildren(items: readonly { children: object[] }[]): void {
    if (this.kids) {
      for (let i = 0; i < items.length; i++) {
        const list = this.kids[i];
        if (list) for (let k = 0; k < list.length; k++) items[i].children.push(items[list[k]]);
      }
      return;
    }
    const { parents } = this;
    /** Children lists that went out of time order, and the position of their last child. */
    let unsorted: Set<number> | undefined;
    const lastChild = new Int32Array(items.length).fill(-1);
    for (let i = 0; i < parents.length; i++) {
      const p = parents[i];
      if (p < 0) continue;
      // File order is usually time order: only lists that went out of order need a sort.
      const last = lastChild[p];
      if (last >= 0 && this.compare(last, i) > 0) (unsorted ??= new Set()).add(p);
      lastChild[p] = i;
      items[p].children.push(items[i]);
    }
    if (!unsorted) return;
    const positionOf = new Map<object, number>();
    items.forEach((item, i) => positionOf.set(item, i));
    for (const p of unsorted)
      items[p].children.sort((a, b) => this.compare(positionOf.get(a) as number, positionOf.get(b) as number));
  }

  /** Positions of the roots: parentId null, orphans, and entries that break a parentId cycle. Oldest first. */
  rootPositions(): readonly number[] {
    return this.rootList;
  }

  /**
   * The position of the newest entry on the path from the root to position `i` (inclusive) that `test` accepts, or
   * -1. `test` must answer the same for an entry every time: its answers are kept per position (by the test), so a
   * later call walks only up to the first entry a call before it walked — after a move, the part of the path that
   * changed; after an append, the new entry. An entry's path never changes while this index lives (appends add
   * leaves; a rewrite of the file builds a new index).
   */
  newestOnPath(i: number, test: (position: number) => boolean): number {
    let memo = this.newest.get(test);
    if (!memo || memo.length < this.table.length) {
      const grown = new Int32Array(Math.max(this.table.length, (memo?.length ?? 0) * 2)).fill(UNKNOWN);
      if (memo) grown.set(memo);
      this.newest.set(test, grown);
      memo = grown;
    }
    const walked: number[] = [];
    let found = -1;
    for (let k = i; k >= 0; k = this.parents[k]) {
      const known = memo[k];
      if (known !== UNKNOWN) {
        found = known;
        break;
      }
      if (test(k)) {
        found = k;
        break;
      }
      walked.push(k);
    }
    for (const k of walked) memo[k] = found;
    if (found >= 0) memo[found] = found;
    return found;
  }

  /**
   * How many entries lie above position `i` on its path (0 for a root): the length of pathTo less one. Kept per
   * position, like newestOnPath's answers (an entry's path never changes while this index lives), so a later call
   * walks only up to the first entry an earlier one reached, and nothing is allocated per call.
   */
  depthOf(i: number): number {
    const n = this.table.length;
    if (this.depths.length < n) {
      const grown = new Int32Array(Math.max(n, this.depths.length * 2)).fill(UNKNOWN);
      grown.set(this.depths);
      this.depths = grown;
    }
    const depths = this.depths;
    let steps = 0;
    let k = i;
    // Bounded by the entry count, as pathTo is: more steps would mean a parentId cycle (link() breaks them).
    for (; k >= 0 && depths[k] === UNKNOWN && steps <= n; k = this.parents[k]) steps++;
    let d = (k >= 0 ? depths[k] : -1) + steps;
    for (k = i; steps > 0; steps--, k = this.parents[k]) depths[k] = d--;
    return depths[i];
  }

  /**
   * The deepest position on the paths of both `a` and `b` (either itself, when it is on the other's path), or -1
   * when the paths share no entry. Walks from each up to that entry only (see depthOf), without building a path: a
   * move between two leaves of a 30,000-entry path looks at the few entries after their fork.
   */
  commonAncestor(a: number, b: number): number {
    let da = this.depthOf(a);
    let db = this.depthOf(b);
    for (; da > db; da--) a = this.parents[a];
    for (; db > da; db--) b = this.parents[b];
    while (a !== b && a >= 0 && b >= 0) {
      a = this.parents[a];
      b = this.parents[b];
    }
    return a === b ? a : -1;
  }

  /** Positions from the root to `id` (inclusive); stops at an orphan or a broken cycle's root. */
  pathTo(id: string): number[] {
    const out: number[] = [];
    const n = this.table.length;
    // A path is at most as long as the file: more steps mean a parentId cycle (a damaged file).
    for (let i = this.byId.get(id) ?? -1; i >= 0 && out.length <= n; i = this.parents[i]) out.push(i);
    return out.reverse();
  }

  private applyMeta(i: number): void {
    const meta = this.table.metas[i];
    if (meta.labelTarget !== undefined) {
      if (meta.label !== undefined) {
        this.labels.set(meta.labelTarget, meta.label);
        this.labelTimestamps.set(meta.labelTarget, this.table.envs[i].timestamp);
      } else {
        this.labels.delete(meta.labelTarget);
        this.labelTimestamps.delete(meta.labelTarget);
      }
    }
    if (meta.archive !== undefined) {
      if (meta.archive.archived) this.archivedRoots.add(meta.archive.targetId);
      else this.archivedRoots.delete(meta.archive.targetId);
    }
    if (this.table.envs[i].type === "session_info") {
      this.sessionName = meta.name;
      this.sessionNameAt = i;
    }
  }

  /** Date.parse of the entry's timestamp (0 when unparsable), computed once. */
  private timeAt(i: number): number {
    let t = this.times[i];
    if (Number.isNaN(t)) {
      t = timeOf(this.table.envs[i].timestamp);
      this.times[i] = t;
    }
    return t;
  }

  /** Sibling order (tree-shape.ts). */
  private compare(a: number, b: number): number {
    return compareSiblings(this.timeAt(a), a, this.timeAt(b), b);
  }

  /** Insert in sibling order; new entries usually go last. */
  private insertSorted(list: number[], i: number): void {
    list.splice(
      siblingInsertAt(list, (k) => this.timeAt(k), i),
      0,
      i,
    );
  }

  /** Children lists, built on first use (open() needs only parent positions). */
  private builtKids(): (number[] | undefined)[] {
    if (this.kids) return this.kids;
    const kids: (number[] | undefined)[] = new Array<number[] | undefined>(this.table.length);
    const unsorted = new Set<number[]>();
    for (let i = 0; i < this.parents.length; i++) {
      const p = this.parents[i];
      if (p < 0) continue;
      const list = kids[p];
      if (!list) kids[p] = [i];
      else {
        // File order is usually time order: only lists that went out of order need a sort.
        if (this.compare(list[list.length - 1], i) > 0) unsorted.add(list);
        list.push(i);
      }
    }
    for (const list of unsorted) list.sort((a, b) => this.compare(a, b));
    this.kids = kids;
    return kids;
  }
}
