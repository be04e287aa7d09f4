/**
 * The in-memory tree of a session over its EntryColumns: id → position, parent positions, roots (parentId
 * null or orphaned), children per parent (oldest first, file order breaking timestamp ties; built on first
 * use), resolved labels. Records (EntryRecord) are made per entry when first asked for.
 *
 * A damaged file can hold parentId cycles (A → B → A). Each cycle is broken at its entry that comes first in
 * the file: that entry is treated as a root (flagged `orphan`, like an entry whose parent is missing), the
 * others hang below it, so every entry is in the tree once and no path repeats an entry.
 */
import type { EntryColumns } from "./entry-columns.js";
import { NO_META, timeOf, type EntryRecord } from "./entry-record.js";

const NO_KIDS: readonly number[] = Object.freeze([]);

/** A line dropped because an earlier line has its id. */
export interface DuplicateEntry {
  id: string;
  line: number;
}

/** A parentId cycle found in the file, broken at its first entry. */
export interface ParentCycle {
  /** Ids around the cycle, starting with the entry made a root, each followed by its parent. */
  ids: string[];
  /** Line of the entry made a root. */
  line: number;
}

/** Mutable index of a session's entries. */
export class EntryIndex {
  private byId = new Map<string, number>();
  /** Parent position per entry; -1 for roots and orphans. */
  private readonly parents: number[] = [];
  /** Date.parse of each timestamp, NaN until needed (only sibling order needs it). */
  private readonly times: number[] = [];
  private readonly orphans = new Set<number>();
  /** Entries made roots to break a parentId cycle. */
  private readonly cycleRoots = new Set<number>();
  private readonly rootList: number[] = [];
  /** Children positions per entry (undefined: none), once built. */
  private kids: (number[] | undefined)[] | undefined;
  /** Made records; the columns' own records for lines parsed whole. */
  private readonly recs: (EntryRecord | undefined)[];
  readonly labels = new Map<string, string>();
  sessionName: string | undefined;

  private constructor(private readonly cols: EntryColumns) {
    this.recs = cols.full;
  }

  /**
   * Build from columns in file order. Lines whose id an earlier line already has are dropped (the first one
   * wins, as lookups in pi find the first too) and returned.
   */
  static build(columns: EntryColumns): { index: EntryIndex; duplicates: DuplicateEntry[]; cycles: ParentCycle[] } {
    let cols = columns;
    const duplicates: DuplicateEntry[] = [];
    const seen = new Map<string, number>();
    for (let i = 0; i < cols.length; i++) {
      const before = seen.size;
      seen.set(cols.ids[i], i); // one hash operation per entry
      if (seen.size === before) duplicates.push({ id: cols.ids[i], line: cols.lines[i] });
    }
    if (duplicates.length > 0) {
      // A damaged file: keep the first line of each id.
      const first = new Map<string, number>();
      const drop: number[] = [];
      for (let i = 0; i < cols.length; i++) {
        if (first.has(cols.ids[i])) drop.push(i);
        else first.set(cols.ids[i], i);
      }
      cols = cols.without(drop);
    }
    const index = new EntryIndex(cols);
    const cycles = index.link(duplicates.length > 0 ? undefined : seen);
    return { index, duplicates, cycles };
  }

  /** Ids, parents, metadata and roots of every entry. `ids`: the id map when it is already right. */
  private link(ids: Map<string, number> | undefined): ParentCycle[] {
    const { cols, parents, times } = this;
    const n = cols.length;
    if (ids) this.byId = ids;
    else for (let i = 0; i < n; i++) this.byId.set(cols.ids[i], i);
    const { byId } = this;
    let later: number[] | undefined;
    // Entries whose parent comes later in the file: rare, and every parentId cycle has one.
    let forward: number[] | undefined;
    for (let i = 0; i < n; i++) {
      times.push(NaN);
      const rec = this.recs[i];
      if (rec) {
        rec.seq = i;
        if (rec.meta !== NO_META) this.applyMeta(rec);
      }
      const p = cols.parentIds[i];
      if (p === null) {
        parents.push(-1);
        this.rootList.push(i);
        continue;
      }
      // Most entries follow their parent, and the loader reuses the parent's id string for them.
      const at = i > 0 && cols.ids[i - 1] === p ? i - 1 : byId.get(p);
      if (at !== undefined && at !== i) {
        parents.push(at);
        if (at > i) (forward ??= []).push(i);
      } else {
        parents.push(-1);
        (later ??= []).push(i);
      }
    }
    // Orphans: the parentId names no entry (or the entry itself).
    for (const i of later ?? []) {
      this.orphans.add(i);
      this.rootList.push(i);
      const rec = this.recs[i];
      if (rec) rec.env.orphan = true;
    }
    const cycles = forward ? this.breakCycles(forward) : [];
    this.rootList.sort((a, b) => this.compare(a, b));
    return cycles;
  }

  /**
   * Find the parentId cycles through the entries in `starts` (every cycle has one) and break each at its
   * entry that comes first in the file. Each entry is walked once.
   */
  private breakCycles(starts: readonly number[]): ParentCycle[] {
    const { parents } = this;
    // 0: not seen; 1: on the walk in progress; 2: done.
    const state = new Uint8Array(parents.length);
    const cycles: ParentCycle[] = [];
    for (const start of starts) {
      const walk: number[] = [];
      let i = start;
      while (i >= 0 && state[i] === 0) {
        state[i] = 1;
        walk.push(i);
        i = parents[i];
      }
      if (i >= 0 && state[i] === 1) {
        const loop = walk.slice(walk.indexOf(i));
        let first = loop[0];
        for (const k of loop) if (k < first) first = k;
        const at = loop.indexOf(first);
        const ids = [...loop.slice(at), ...loop.slice(0, at)].map((k) => this.cols.ids[k]);
        parents[first] = -1;
        this.cycleRoots.add(first);
        this.rootList.push(first);
        const rec = this.recs[first];
        if (rec) rec.env.orphan = true;
        cycles.push({ ids, line: this.cols.lines[first] });
      }
      for (const k of walk) state[k] = 2;
    }
    return cycles;
  }

  /** Number of entries. */
  get count(): number {
    return this.cols.length;
  }

  /** True when an entry has this id. */
  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** The record of an entry. */
  get(id: string): EntryRecord | undefined {
    const i = this.byId.get(id);
    return i === undefined ? undefined : this.recordAt(i);
  }

  /** The record at position `i` (file order), made on first use. */
  recordAt(i: number): EntryRecord {
    const made = this.recs[i];
    if (made) return made;
    const rec = this.cols.recordAt(i, this.orphans.has(i) || this.cycleRoots.has(i));
    this.recs[i] = rec;
    return rec;
  }

  /** Every record in file order (made as needed; do not mutate the array). */
  all(): readonly EntryRecord[] {
    for (let i = 0; i < this.cols.length; i++) if (!this.recs[i]) this.recordAt(i);
    return this.recs as EntryRecord[];
  }

  /** The last entry in file order. */
  last(): EntryRecord | undefined {
    return this.cols.length === 0 ? undefined : this.recordAt(this.cols.length - 1);
  }

  /** True when some entry's parentId names no entry. */
  hasOrphans(): boolean {
    return this.orphans.size > 0;
  }

  /** Add a new record (appended to the file) whose parent, if any, exists. */
  add(rec: EntryRecord): void {
    const i = this.cols.length;
    this.cols.pushRecord(rec);
    rec.seq = i;
    this.byId.set(rec.env.id, i);
    this.times.push(NaN);
    this.applyMeta(rec);
    const p = rec.env.parentId === null ? undefined : this.byId.get(rec.env.parentId);
    this.parents.push(p ?? -1);
    if (p === undefined) {
      this.insertSorted(this.rootList, i);
      return;
    }
    if (!this.kids) return;
    const list = this.kids[p];
    if (list) this.insertSorted(list, i);
    else this.kids[p] = [i];
  }

  /** Children of `id`, oldest first. */
  childrenOf(id: string): EntryRecord[] {
    const i = this.byId.get(id);
    return i === undefined ? [] : this.kidsAt(i).map((k) => this.recordAt(k));
  }

  /** Positions of the children of the entry at `i`, oldest first (do not mutate). */
  kidsAt(i: number): readonly number[] {
    return this.builtKids()[i] ?? NO_KIDS;
  }

  /** Positions of the roots: parentId null, orphans, and entries that break a parentId cycle. Oldest first. */
  rootPositions(): readonly number[] {
    return this.rootList;
  }

  /** Records of the roots, oldest first. */
  roots(): EntryRecord[] {
    return this.rootList.map((i) => this.recordAt(i));
  }

  /** Records from the root to `id` (inclusive); stops at an orphan or a broken cycle's root. */
  pathTo(id: string): EntryRecord[] {
    const out: EntryRecord[] = [];
    const n = this.cols.length;
    // A path is at most as long as the file: more steps mean a parentId cycle (a damaged file).
    for (let i = this.byId.get(id) ?? -1; i >= 0 && out.length <= n; i = this.parents[i]) out.push(this.recordAt(i));
    return out.reverse();
  }

  private applyMeta(rec: EntryRecord): void {
    const { meta } = rec;
    if (meta.labelTarget !== undefined) {
      if (meta.label !== undefined) this.labels.set(meta.labelTarget, meta.label);
      else this.labels.delete(meta.labelTarget);
    }
    if (rec.env.type === "session_info") this.sessionName = meta.name;
  }

  /** Date.parse of the entry's timestamp (0 when unparsable), computed once. */
  private timeAt(i: number): number {
    let t = this.times[i];
    if (Number.isNaN(t)) {
      t = timeOf(this.cols.timestamps[i]);
      this.times[i] = t;
    }
    return t;
  }

  /** Oldest first; file order breaks ties. */
  private compare(a: number, b: number): number {
    return this.timeAt(a) - this.timeAt(b) || a - b;
  }

  /** Insert keeping (time, position) order; new entries usually go last. */
  private insertSorted(list: number[], i: number): void {
    let at = list.length;
    while (at > 0 && this.compare(list[at - 1], i) > 0) at--;
    list.splice(at, 0, i);
  }

  /** Children lists, built on first use (open() needs only parent positions). */
  private builtKids(): (number[] | undefined)[] {
    if (this.kids) return this.kids;
    const kids: (number[] | undefined)[] = new Array<number[] | undefined>(this.cols.length);
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
