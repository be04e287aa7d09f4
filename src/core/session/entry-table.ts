/**
 * What the store keeps of every entry, in file order: its envelope and meta (entry-scanner.ts reads them
 * from the line) and where its line is (byte offset and length in the session's bytes, 1-based line number).
 * A body is never kept: it is read from those bytes when asked for (SessionFile.read).
 */
import type { EntryMeta } from "./entry-meta.js";
import type { EntryEnvelope } from "./types.js";

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

  /** `capacity`: expected number of entries (the columns grow beyond it as needed). */
  constructor(capacity = 1024) {
    const n = Math.max(16, Math.min(Math.ceil(capacity), 1 << 22));
    this.offsets = new Float64Array(n);
    this.sizes = new Float64Array(n);
    this.lines = new Int32Array(n);
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
    this.envs.push(env);
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
