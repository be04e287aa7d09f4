/**
 * The in-memory tree of a session over its EntryTable: id → position, parent positions, roots (parentId
 * null or orphaned), children per parent (oldest first, file order breaking timestamp ties; built on first
 * use), resolved labels, the archived branches and the session name.
 *
 * A damaged file can hold parentId cycles (A → B → A). Each cycle is broken at its entry that comes first in
 * the file: that entry is treated as a root (flagged `orphan`, like an entry whose parent is missing), the
 * others hang below it, so every entry is in the tree once and no path repeats an entry.
 */
import { NO_META, type EntryMeta } from "./entry-meta.js";
import type { EntryTable } from "./entry-table.js";
import type { EntryEnvelope } from "./types.js";

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

/** Two decimal digits of `s` at `i`, or -1. */
function digits2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Parses a timestamp for ordering; unparsable ones sort first (file order breaks ties). The form every writer
 * uses (toISOString: 2026-01-05T09:00:03.000Z) is read by hand — Date.parse was a tenth of open() — and
 * anything else, or any value near a range edge, goes to Date.parse, so the result is always Date.parse's.
 */
export function timeOf(timestamp: string): number {
  const s = timestamp;
  if (s.length === 24 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45 && s.charCodeAt(10) === 84) {
    const century = digits2(s, 0);
    const year = digits2(s, 2);
    const month = digits2(s, 5);
    const day = digits2(s, 8);
    const hour = digits2(s, 11);
    const minute = digits2(s, 14);
    const second = digits2(s, 17);
    const milli = digits2(s, 20);
    const milliLast = s.charCodeAt(22) - 48;
    if (
      century >= 19 &&
      year >= 0 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 28 &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59 &&
      milli >= 0 &&
      milliLast >= 0 &&
      milliLast <= 9 &&
      s.charCodeAt(13) === 58 &&
      s.charCodeAt(16) === 58 &&
      s.charCodeAt(19) === 46 &&
      s.charCodeAt(23) === 90
    )
      return Date.UTC(century * 100 + year, month - 1, day, hour, minute, second, milli * 10 + milliLast);
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? 0 : t;
}

/** Mutable index of a session's entries. */
export class EntryIndex {
  private byId = new Map<string, number>();
  /** Parent position per entry; -1 for roots and orphans. */
  private readonly parents: number[] = [];
  /** Date.parse of each timestamp, NaN until needed (only sibling order needs it). */
  private readonly times: number[] = [];
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

  private constructor(readonly table: EntryTable) {}

  /**
   * Build from a table in file order. Lines whose id an earlier line already has are dropped (the first one
   * wins, as lookups in pi find the first too) and returned.
   */
  static build(table: EntryTable): { index: EntryIndex; duplicates: DuplicateEntry[]; cycles: ParentCycle[] } {
    let t = table;
    const duplicates: DuplicateEntry[] = [];
    const seen = new Map<string, number>();
    for (let i = 0; i < t.length; i++) {
      const before = seen.size;
      seen.set(t.envs[i].id, i); // one hash operation per entry
      if (seen.size === before) duplicates.push({ id: t.envs[i].id, line: t.lines[i] });
    }
    if (duplicates.length > 0) {
      // A damaged file: keep the first line of each id.
      const first = new Set<string>();
      const drop: number[] = [];
      for (let i = 0; i < t.length; i++) {
        if (first.has(t.envs[i].id)) drop.push(i);
        else first.add(t.envs[i].id);
      }
      t = t.without(drop);
    }
    const index = new EntryIndex(t);
    const cycles = index.link(duplicates.length > 0 ? undefined : seen);
    return { index, duplicates, cycles };
  }

  /** Ids, parents, metadata and roots of every entry. `ids`: the id map when it is already right. */
  private link(ids: Map<string, number> | undefined): ParentCycle[] {
    const { table, parents, times } = this;
    const { envs, metas } = table;
    const n = table.length;
    if (ids) this.byId = ids;
    else for (let i = 0; i < n; i++) this.byId.set(envs[i].id, i);
    const { byId } = this;
    let later: number[] | undefined;
    // Entries whose parent comes later in the file: rare, and every parentId cycle has one.
    let forward: number[] | undefined;
    for (let i = 0; i < n; i++) {
      times.push(NaN);
      if (metas[i] !== NO_META) this.applyMeta(i);
      const p = envs[i].parentId;
      if (p === null) {
        parents.push(-1);
        this.rootList.push(i);
        continue;
      }
      // Most entries follow their parent, and the scanner shares the parent's id string with them.
      const at = i > 0 && envs[i - 1].id === p ? i - 1 : byId.get(p);
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
      envs[i].orphan = true;
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
        const ids = [...loop.slice(at), ...loop.slice(0, at)].map((k) => this.table.envs[k].id);
        parents[first] = -1;
        this.rootList.push(first);
        this.table.envs[first].orphan = true;
        cycles.push({ ids, line: this.table.lines[first] });
      }
      for (const k of walk) state[k] = 2;
    }
    return cycles;
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
    const i = this.table.push(env, meta, offset, size, line);
    this.byId.set(env.id, i);
    this.times.push(NaN);
    this.applyMeta(i);
    const p = env.parentId === null ? undefined : this.byId.get(env.parentId);
    this.parents.push(p ?? -1);
    if (p === undefined) {
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

  /** Positions of the roots: parentId null, orphans, and entries that break a parentId cycle. Oldest first. */
  rootPositions(): readonly number[] {
    return this.rootList;
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
    if (this.table.envs[i].type === "session_info") this.sessionName = meta.name;
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
