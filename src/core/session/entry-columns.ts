/**
 * What the loader gathers about each line, kept as columns: one string per id (the map needs it), shared
 * strings for parents and types, numbers in typed arrays. A line read from its head only costs no object of
 * its own; its EntryRecord is made when something first asks for it (EntryIndex.recordAt).
 *
 * Why: a session of 30,000 large lines used to build 60,000 objects at open, and copying them through the
 * young generation was a fifth of open(). The columns leave the garbage collector almost nothing to move.
 */
import { NO_META, type EntryRecord } from "./entry-record.js";
import type { EntryEnvelope } from "./types.js";

/** Growable columns of a session's lines, in file order. */
export class EntryColumns {
  /** Number of entries. */
  length = 0;
  readonly ids: string[] = [];
  readonly parentIds: (string | null)[] = [];
  readonly types: string[] = [];
  /** `message` entries: the role; else undefined. */
  readonly roles: (string | undefined)[] = [];
  readonly timestamps: string[] = [];
  /** Byte offset of each line (-1: in memory only). */
  offsets: Float64Array;
  /** Byte length of each line, without its newline. */
  sizes: Float64Array;
  /** 1-based line number (0: in memory only). */
  lines: Int32Array;
  /** The record of an entry parsed whole (with body, raw text or meta); undefined for head-only lines. */
  readonly full: (EntryRecord | undefined)[] = [];

  /** `capacity`: expected number of entries (the typed columns grow beyond it as needed). */
  constructor(capacity = 1024) {
    const n = Math.max(16, Math.min(Math.ceil(capacity), 1 << 22));
    this.offsets = new Float64Array(n);
    this.sizes = new Float64Array(n);
    this.lines = new Int32Array(n);
  }

  /** A line known from its head only (a `message` line in pi's layout). */
  pushHead(
    id: string,
    parentId: string | null,
    timestamp: string,
    role: string,
    offset: number,
    size: number,
    line: number,
  ): void {
    const i = this.slot();
    this.ids.push(id);
    this.parentIds.push(parentId);
    this.types.push("message");
    this.roles.push(role);
    this.timestamps.push(timestamp);
    this.offsets[i] = offset;
    this.sizes[i] = size;
    this.lines[i] = line;
    this.full.push(undefined);
  }

  /** An entry with a record of its own. */
  pushRecord(rec: EntryRecord): void {
    const i = this.slot();
    const { env } = rec;
    this.ids.push(env.id);
    this.parentIds.push(env.parentId);
    this.types.push(env.type);
    this.roles.push(env.role);
    this.timestamps.push(env.timestamp);
    this.offsets[i] = rec.offset;
    this.sizes[i] = rec.length;
    this.lines[i] = rec.line;
    this.full.push(rec);
  }

  /**
   * The record of entry `i`: its own when it has one, else a new pending one (envelope without preview; see
   * EntryRecord.pending). Callers that keep records cache them (EntryIndex).
   */
  recordAt(i: number, orphan = false): EntryRecord {
    const own = this.full[i];
    if (own) return own;
    const env: EntryEnvelope = {
      id: this.ids[i],
      parentId: this.parentIds[i],
      type: this.types[i],
      timestamp: this.timestamps[i],
      preview: "",
    };
    const role = this.roles[i];
    if (role !== undefined) env.role = role;
    if (orphan) env.orphan = true;
    return {
      env,
      seq: i,
      offset: this.offsets[i],
      length: this.sizes[i],
      line: this.lines[i],
      entry: undefined,
      raw: undefined,
      meta: NO_META,
      pending: true,
    };
  }

  /** Columns holding the given records (in this order). */
  static of(records: readonly EntryRecord[]): EntryColumns {
    const cols = new EntryColumns();
    for (const rec of records) cols.pushRecord(rec);
    return cols;
  }

  /** Columns without the entries at `drop` (indexes, ascending). */
  without(drop: readonly number[]): EntryColumns {
    const out = new EntryColumns();
    let d = 0;
    for (let i = 0; i < this.length; i++) {
      if (d < drop.length && drop[d] === i) {
        d++;
        continue;
      }
      const rec = this.full[i];
      if (rec) out.pushRecord(rec);
      else {
        const role = this.roles[i] as string;
        out.pushHead(
          this.ids[i],
          this.parentIds[i],
          this.timestamps[i],
          role,
          this.offsets[i],
          this.sizes[i],
          this.lines[i],
        );
      }
    }
    return out;
  }

  /** Index of the next entry, growing the typed columns as needed. */
  private slot(): number {
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
    return i;
  }
}
