/**
 * The tree's shape, decided once for every view of a session: the order of siblings (pi's: by parsed timestamp,
 * file order for ties), where a parentId cycle is broken (at its entry that comes first in the file), and which
 * entries a subtree holds. The store's index, the tree snapshot's columns (and through them the tree view and the
 * exported page), the pickers, compare and archive all use these functions and compute none of it themselves.
 * Positions are file order throughout: an entry's position is its place in the file.
 */

/**
 * Parses a timestamp for ordering; unparsable ones sort first (file order breaks ties). Date.parse itself: the
 * hand-written reader of toISOString's form this replaced was slower in a fresh process, where the tree is built
 * before that code is optimised (2,000 timestamps: 1.3–7 ms against Date.parse's 0.4–0.7 ms; 20,000: 6.5–15 ms
 * against 3.8–9.3 ms; Node 20 and 22, load 2–4), and a thousand siblings' order cost 10 ms of the 1k-branches
 * session's getTree().
 */
export function timeOf(timestamp: string): number {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? 0 : t;
}

/** Sibling order: negative when the entry at position `a` (time `ta`) comes before the one at `b`. */
export function compareSiblings(ta: number, a: number, tb: number, b: number): number {
  return ta - tb || a - b;
}

/**
 * Where a new entry goes among siblings already in order: the index in `siblings` to insert it at. New
 * entries nearly always go last, so the search starts at the end.
 */
export function siblingInsertAt(
  siblings: readonly number[],
  time: (position: number) => number,
  position: number,
): number {
  const t = time(position);
  let at = siblings.length;
  while (at > 0 && compareSiblings(time(siblings[at - 1]), siblings[at - 1], t, position) > 0) at--;
  return at;
}

/**
 * The positions `0 … count-1` in sibling order — linking children in this order gives every parent (and the
 * roots) its children in pi's order — or undefined when file order already is that order, which it nearly
 * always is. `parents`: parent position per entry, -1 for a root.
 */
export function siblingOrder(
  parents: ArrayLike<number>,
  timestamp: (position: number) => string,
): number[] | undefined {
  const n = parents.length;
  // Times are parsed only for entries that have a sibling before them (and that sibling): a chain parses none.
  const times = new Float64Array(n).fill(Number.NaN);
  const time = (i: number): number => {
    let t = times[i];
    if (Number.isNaN(t)) times[i] = t = timeOf(timestamp(i));
    return t;
  };
  // The last child seen per parent (slot n: the roots).
  const last = new Int32Array(n + 1).fill(-1);
  let sorted = true;
  for (let i = 0; i < n && sorted; i++) {
    const slot = parents[i] < 0 ? n : parents[i];
    const prev = last[slot];
    if (prev >= 0 && compareSiblings(time(prev), prev, time(i), i) > 0) sorted = false;
    last[slot] = i;
  }
  if (sorted) return undefined;
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = 0; i < n; i++) time(i);
  // One global sort puts every parent's children in order relative to each other.
  order.sort((a, b) => compareSiblings(times[a], a, times[b], b));
  return order;
}

/** A parentId cycle broken by `breakCycles`. */
export interface BrokenCycle {
  /** Positions around the cycle, starting with the entry made a root, each followed by its parent. */
  positions: number[];
}

/**
 * Finds the parentId cycles and breaks each at its entry that comes first in the file: that entry's parent
 * becomes -1 (`parents` is changed in place). Every cycle holds an entry whose parent comes later in the file,
 * so only walks from such entries are needed; each entry is walked once. `starts`: those entries, when the
 * caller knows them already (undefined: found here).
 */
export function breakCycles(parents: number[] | Int32Array, starts?: readonly number[]): BrokenCycle[] {
  const n = parents.length;
  let from = starts;
  if (from === undefined) {
    const found: number[] = [];
    for (let i = 0; i < n; i++) if (parents[i] > i) found.push(i);
    from = found;
  }
  if (from.length === 0) return [];
  // 0: not seen; 1: on the walk in progress; 2: done.
  const state = new Uint8Array(n);
  const cycles: BrokenCycle[] = [];
  for (const start of from) {
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
      parents[first] = -1;
      cycles.push({ positions: [...loop.slice(at), ...loop.slice(0, at)] });
    }
    for (const k of walk) state[k] = 2;
  }
  return cycles;
}

/**
 * Marks every entry in the subtrees below `roots` (themselves included) with 1 in a new array of `count`.
 * `eachChild` calls back with the children of a position. Each entry is visited once.
 */
export function subtreeMask(
  count: number,
  roots: Iterable<number>,
  eachChild: (position: number, visit: (child: number) => void) => void,
): Uint8Array {
  const mask = new Uint8Array(count);
  const stack: number[] = [];
  const push = (i: number): void => void stack.push(i);
  for (const r of roots) if (r >= 0 && r < count) stack.push(r);
  while (stack.length > 0) {
    const i = stack.pop() as number;
    if (mask[i] === 1) continue;
    mask[i] = 1;
    eachChild(i, push);
  }
  return mask;
}

/** A tree over items in file order: parents and child lists in sibling order, cycles broken. */
export interface ShapedTree {
  /** Parent position per item, -1 for a root. */
  parents: Int32Array;
  /** Root positions in sibling order. */
  roots: number[];
  /** Child positions per item in sibling order (undefined: none). */
  children: (number[] | undefined)[];
}

/** The fields of an item that decide its place in the tree. */
export interface ShapeFields {
  id: string;
  parentId: string | null;
  timestamp: string;
  /** Set by the store on an orphan or on the entry where it broke a cycle: a root whatever its parentId says. */
  orphan?: boolean;
}

/**
 * The tree of items in file order (rows, envelopes), as the store shapes it: a later duplicate of an id is
 * left out (it gets parent -1 and no place in any list), an item whose parent is missing or that the store
 * flagged `orphan` is a root, cycles are broken, and children come in sibling order.
 */
export function shapeTree(items: readonly ShapeFields[]): ShapedTree {
  const n = items.length;
  const byId = new Map<string, number>();
  const dropped = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (byId.has(items[i].id)) dropped[i] = 1;
    else byId.set(items[i].id, i);
  }
  const parents = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const it = items[i];
    if (dropped[i] === 1 || it.parentId === null || it.orphan === true) continue;
    const p = byId.get(it.parentId);
    if (p !== undefined && p !== i) parents[i] = p;
  }
  breakCycles(parents);
  const order = siblingOrder(parents, (i) => items[i].timestamp);
  const roots: number[] = [];
  const children = new Array<number[] | undefined>(n);
  for (let k = 0; k < n; k++) {
    const i = order === undefined ? k : order[k];
    if (dropped[i] === 1) continue;
    const p = parents[i];
    if (p < 0) roots.push(i);
    else (children[p] ??= []).push(i);
  }
  return { parents, roots, children };
}
