/**
 * What the store keeps of every entry, in file order: its envelope and meta (entry-scanner.ts reads them
 * from the line) and where its line is (byte offset and length in the session's bytes, 1-based line number).
 * A body is never kept: it is read from those bytes when asked for (SessionFile.read).
 *
 * The id map and the parent links are made as entries are added, while the scan reads them: a second pass over
 * every entry to make them (EntryIndex.build did one) cost 5–11 ms of a 10k-entry open's CPU, mostly in code not
 * yet optimised, against pi's 2.5 ms for its whole index. EntryIndex takes them over and finishes what needs the
 * whole file (parents that come later in it, orphans, cycles, duplicates).
 */
import type { EntryMeta } from "./entry-meta.js";
import { IdMap } from "./id-map.js";
import type { EntryEnvelope } from "./types.js";

/** Expected entries from which the ids go into an IdMap (a session file of ~16 MB, at ~1 KB per entry). */
const ID_MAP_MIN = 16 * 1024;

/** A line whose id an earlier line already has. */
export interface DuplicateEntry {
  id: string;
  line: number;
}

/** Growable columns of a session's entries. */
export class EntryTable {
  /** Number of entries. */
  length = 0;
  readonly envs: EntryEnvelope[] = [];
  readonly metas: EntryMeta[] = [];
  /** Byte offset of each line in the session's bytes. */
  offsets: Float64Array;
  /** Byte length of each line, without its newline. */
  sizes: Float64Array;
  /** 1-based line number (0 for an entry not on disk yet). */
  lines: Int32Array;
  /**
   * Position of the entry with each id. Right only while `duplicates` is empty: a later line with an id takes
   * its place here (EntryIndex.build then makes a table without the later lines).
   */
  readonly byId: Map<string, number> | IdMap;
  /** Lines whose id an earlier line has, in file order. */
  readonly duplicates: DuplicateEntry[] = [];
  /** Parent position of each entry as known when it was added; -1 when its parentId is null or not seen yet. */
  readonly parents: number[] = [];
  /** Positions whose parentId is null, in file order. */
  readonly nullParents: number[] = [];
  /** Positions whose parent was not there when they were added (it comes later, or nowhere): in file order. */
  readonly unlinked: number[] = [];
  /** Positions of the entries that set labels, archive branches or name the session (EntryIndex applies them). */
  readonly settings: number[] = [];

  /** `capacity`: expected number of entries (the columns grow beyond it as needed). */
  constructor(capacity = 1024) {
    const n = Math.max(16, Math.min(Math.ceil(capacity), 1 << 22));
    this.offsets = new Float64Array(n);
    this.sizes = new Float64Array(n);
    this.lines = new Int32Array(n);
    // A big session's ids go into an IdMap (id-map.ts); a small one's into a Map, whose native code needs no
    // warming up (the IdMap's JavaScript runs unoptimised for a 10k-entry session's first thousands of ids).
    this.byId = capacity > ID_MAP_MIN ? new IdMap(this.envs, n) : new Map();
  }

  /** Add an entry; returns its position. */
  push(env: EntryEnvelope, meta: EntryMeta, offset: number, size: number, line: number): number {
    const i = this.length++;
    if (i === this.offsets.length) {
      const grow = <T extends Float64Array | Int32Array>(a: T, make: (n: number) => T): T => {
        const b = make(a.length * 2);
        b.set(a);
        return b;
      };
      this.offsets = grow(this.offsets, (n) => new Float64Array(n));
      this.sizes = grow(this.sizes, (n) => new Float64Array(n));
      this.lines = grow(this.lines, (n) => new Int32Array(n));
    }
    // Most entries follow their parent, and the scanner shares the parent's id string with them. The parent is
    // looked up before the entry's own id goes in, so an entry naming itself is not its own parent.
    const p = env.parentId;
    if (p === null) {
      this.parents.push(-1);
      this.nullParents.push(i);
    } else {
      const at = i > 0 && this.envs[i - 1].id === p ? i - 1 : this.byId.get(p);
      if (at === undefined) {
        this.parents.push(-1);
        this.unlinked.push(i);
      } else this.parents.push(at);
    }
    // The id map reads ids from `envs`: the envelope goes in first.
    this.envs.push(env);
    const before = this.byId.size;
    this.byId.set(env.id, i); // one hash operation per entry
    if (this.byId.size === before) this.duplicates.push({ id: env.id, line });
    // By type first: a meta's fields read on every entry would meet a dozen meta shapes.
    const type = env.type;
    if (type === "label" || type === "session_info" || (type === "custom" && meta.archive !== undefined))
      this.settings.push(i);
    this.metas.push(meta);
    this.offsets[i] = offset;
    this.sizes[i] = size;
    this.lines[i] = line;
    return i;
  }

  /** A table without the entries at `drop` (positions, ascending). */
  without(drop: readonly number[]): EntryTable {
    const out = new EntryTable(this.length);
    let d = 0;
    for (let i = 0; i < this.length; i++) {
      if (d < drop.length && drop[d] === i) {
        d++;
        continue;
      }
      out.push(this.envs[i], this.metas[i], this.offsets[i], this.sizes[i], this.lines[i]);
    }
    return out;
  }
}
