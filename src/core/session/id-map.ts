/**
 * Entry id → position, for a session's EntryTable: an open-addressing hash table of positions in an Int32Array,
 * whose keys are the table's own envelope ids (no copy of them). It replaces a `Map<string, number>`, whose
 * inserts cost the 300 MB session's open 9–25 ms of CPU for 33k ids in a fresh process (its table is rehashed
 * into a new backing store at every doubling, and each entry is three tagged slots the young generation copies);
 * this one keeps each slot's hash beside its position (8 bytes), so a probe compares an id only when their hashes
 * agree, instead of reaching for an envelope and its id string elsewhere in the heap at every occupied slot.
 */
import type { EntryEnvelope } from "./types.js";

/** FNV-1a over the UTF-16 code units of `s` (ids are short: 8 hex digits for pi's, 36 for a UUID). */
function hashOf(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  // As a signed 32-bit integer, as the slots keep it (the empty string's would not be one).
  return h | 0;
}

/** The smallest power of two ≥ n (n ≤ 2^30). */
function powerOfTwo(n: number): number {
  let p = 16;
  while (p < n) p *= 2;
  return p;
}

/** The positions of a table's ids (a Map's get/has/set/size over them). */
export class IdMap {
  /**
   * Two numbers per slot: the id's hash, and the position + 1 of its entry (0: empty). At most half of the slots
   * are used.
   */
  private slots: Int32Array;
  /** Slots - 1. */
  private mask: number;
  /** Number of ids held. */
  size = 0;

  /**
   * `envs`: the table's envelopes, by position (the ids are read from it, so it must hold every position `set`
   * is given). `capacity`: ids expected (it grows beyond).
   */
  constructor(
    private readonly envs: readonly EntryEnvelope[],
    capacity = 16,
  ) {
    const n = powerOfTwo(Math.min(2 * capacity, 1 << 17));
    this.slots = new Int32Array(2 * n);
    this.mask = n - 1;
  }

  /** The index in `slots` of the slot holding `id` (whose hash is `h`), or of the empty slot where it would go. */
  private slotOf(id: string, h: number): number {
    const { slots, mask, envs } = this;
    for (let j = h & mask; ; j = (j + 1) & mask) {
      const k = 2 * j;
      const at = slots[k + 1];
      if (at === 0 || (slots[k] === h && envs[at - 1].id === id)) return k;
    }
  }

  /** The position of `id`, or undefined. */
  get(id: string): number | undefined {
    const at = this.slots[this.slotOf(id, hashOf(id)) + 1];
    return at === 0 ? undefined : at - 1;
  }

  /** True when `id` is held. */
  has(id: string): boolean {
    return this.slots[this.slotOf(id, hashOf(id)) + 1] !== 0;
  }

  /** Map `id` (the id of envs[position]) to `position`, replacing its position if held (as Map#set does). */
  set(id: string, position: number): this {
    const h = hashOf(id);
    const k = this.slotOf(id, h);
    const { slots } = this;
    if (slots[k + 1] === 0) {
      slots[k] = h;
      this.size++;
    }
    slots[k + 1] = position + 1;
    if (4 * this.size > slots.length) this.grow();
    return this;
  }

  /** Twice the slots, every position put again (by the hash kept beside it). */
  private grow(): void {
    const old = this.slots;
    const slots = new Int32Array(old.length * 2);
    const mask = slots.length / 2 - 1;
    for (let k = 0; k < old.length; k += 2) {
      const at = old[k + 1];
      if (at === 0) continue;
      const h = old[k];
      let j = h & mask;
      while (slots[2 * j + 1] !== 0) j = (j + 1) & mask;
      slots[2 * j] = h;
      slots[2 * j + 1] = at;
    }
    this.slots = slots;
    this.mask = mask;
  }
}
