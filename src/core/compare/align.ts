/**
 * Aligns two sequences of keys (turns, or the items of two turns): equal keys are matched in order, and what lies
 * between two matches is paired up in order where the two are of the same class (a user turn with a user turn, a
 * tool call with a tool call; without classes, anything with anything), the rest left to one side. Near-linear on long inputs: common
 * prefixes and suffixes are matched first, small gaps exactly (longest common subsequence), large gaps through
 * keys unique on both sides (patience diff), so two branches of 100k turns align in milliseconds.
 */

/** One aligned position: indexes into both sequences, -1 on the side that has nothing there. */
export interface AlignedPair {
  a: number;
  b: number;
  /** True when the keys are equal (a match, not a positional pairing). */
  matched: boolean;
}

/** Gaps up to this many cells (length × length) are aligned exactly; larger ones by unique keys. */
const EXACT_CELLS = 250_000;

interface Segment {
  aLo: number;
  aHi: number;
  bLo: number;
  bHi: number;
}

/** Key strings as small integers, shared by both sides, so comparisons are cheap. */
function internKeys(a: readonly string[], b: readonly string[]): { x: Int32Array; y: Int32Array } {
  const ids = new Map<string, number>();
  const code = (k: string): number => {
    let id = ids.get(k);
    if (id === undefined) ids.set(k, (id = ids.size));
    return id;
  };
  return { x: Int32Array.from(a, code), y: Int32Array.from(b, code) };
}

/** Pairs a[aLo..aHi) with b[bLo..bHi) by position; what is left over goes to its own side. */
function pairByPosition(s: Segment, out: AlignedPair[]): void {
  const n = Math.min(s.aHi - s.aLo, s.bHi - s.bLo);
  for (let t = 0; t < n; t++) out.push({ a: s.aLo + t, b: s.bLo + t, matched: false });
  for (let i = s.aLo + n; i < s.aHi; i++) out.push({ a: i, b: -1, matched: false });
  for (let j = s.bLo + n; j < s.bHi; j++) out.push({ a: -1, b: j, matched: false });
}

/**
 * Pairs a gap (no equal keys matched in it) in order, same class with same class: exactly (longest common
 * subsequence of the classes) when small, greedily when large. Unpaired entries go to their own side.
 */
function pairGap(s: Segment, out: AlignedPair[], cls: { x: Int32Array; y: Int32Array } | undefined): void {
  const n = s.aHi - s.aLo;
  const m = s.bHi - s.bLo;
  if (cls === undefined || n === 0 || m === 0) return pairByPosition(s, out);
  let pairs: [number, number][] = [];
  if (n * m <= EXACT_CELLS) pairs = lcsMatches(cls.x, cls.y, s);
  else for (let i = s.aLo, j = s.bLo; i < s.aHi && j < s.bHi; i++) if (cls.x[i] === cls.y[j]) pairs.push([i, j++]);
  let aAt = s.aLo;
  let bAt = s.bLo;
  for (const [i, j] of pairs) {
    for (; aAt < i; aAt++) out.push({ a: aAt, b: -1, matched: false });
    for (; bAt < j; bAt++) out.push({ a: -1, b: bAt, matched: false });
    out.push({ a: aAt++, b: bAt++, matched: false });
  }
  for (; aAt < s.aHi; aAt++) out.push({ a: aAt, b: -1, matched: false });
  for (; bAt < s.bHi; bAt++) out.push({ a: -1, b: bAt, matched: false });
}

/** Exact longest common subsequence of a small segment; its matches, in order. */
function lcsMatches(x: Int32Array, y: Int32Array, s: Segment): [number, number][] {
  const n = s.aHi - s.aLo;
  const m = s.bHi - s.bLo;
  // len[i][j]: LCS length of x[aLo+i..aHi) and y[bLo+j..bHi), filled from the end.
  const len = new Int32Array((n + 1) * (m + 1));
  const w = m + 1;
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      len[i * w + j] =
        x[s.aLo + i] === y[s.bLo + j]
          ? len[(i + 1) * w + j + 1] + 1
          : Math.max(len[(i + 1) * w + j], len[i * w + j + 1]);
    }
  }
  const out: [number, number][] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[s.aLo + i] === y[s.bLo + j]) {
      out.push([s.aLo + i, s.bLo + j]);
      i++;
      j++;
    } else if (len[(i + 1) * w + j] >= len[i * w + j + 1]) i++;
    else j++;
  }
  return out;
}

/** Keys occurring exactly once on each side of the segment, as (a, b) positions kept in increasing order of both. */
function uniqueAnchors(x: Int32Array, y: Int32Array, s: Segment): [number, number][] {
  const inA = new Map<number, number>();
  for (let i = s.aLo; i < s.aHi; i++) inA.set(x[i], inA.has(x[i]) ? -1 : i);
  const inB = new Map<number, number>();
  for (let j = s.bLo; j < s.bHi; j++) if (inA.has(y[j])) inB.set(y[j], inB.has(y[j]) ? -1 : j);
  const pairs: [number, number][] = [];
  for (let i = s.aLo; i < s.aHi; i++) {
    const j = inB.get(x[i]);
    if (inA.get(x[i]) === i && j !== undefined && j >= 0) pairs.push([i, j]);
  }
  return longestIncreasing(pairs);
}

/** The longest run of `pairs` (already increasing in a) that is increasing in b too: O(n log n). */
function longestIncreasing(pairs: [number, number][]): [number, number][] {
  const tails: number[] = [];
  const prev = new Int32Array(pairs.length).fill(-1);
  for (let p = 0; p < pairs.length; p++) {
    const b = pairs[p][1];
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pairs[tails[mid]][1] < b) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[p] = tails[lo - 1];
    tails[lo] = p;
  }
  const out: [number, number][] = [];
  for (let p = tails.length > 0 ? tails[tails.length - 1] : -1; p >= 0; p = prev[p]) out.push(pairs[p]);
  return out.reverse();
}

/**
 * Aligns two key sequences (see the file comment). `classes` gives each position's class (same lengths as `a` and
 * `b`); without it any two positions may be paired. The pairs come in order on both sides.
 */
export function alignKeys(
  a: readonly string[],
  b: readonly string[],
  classes?: { a: readonly string[]; b: readonly string[] },
): AlignedPair[] {
  const { x, y } = internKeys(a, b);
  const cls = classes ? internKeys(classes.a, classes.b) : undefined;
  const out: AlignedPair[] = [];
  // Segments still to align, last first; an explicit stack, since nesting can be as deep as the input is long.
  type Task = { seg: Segment } | { match: [number, number] };
  const tasks: Task[] = [{ seg: { aLo: 0, aHi: x.length, bLo: 0, bHi: y.length } }];
  while (tasks.length > 0) {
    const task = tasks.pop() as Task;
    if ("match" in task) {
      out.push({ a: task.match[0], b: task.match[1], matched: true });
      continue;
    }
    const s = { ...task.seg };
    const suffix: AlignedPair[] = [];
    while (s.aLo < s.aHi && s.bLo < s.bHi && x[s.aLo] === y[s.bLo]) out.push({ a: s.aLo++, b: s.bLo++, matched: true });
    while (s.aLo < s.aHi && s.bLo < s.bHi && x[s.aHi - 1] === y[s.bHi - 1])
      suffix.push({ a: --s.aHi, b: --s.bHi, matched: true });
    const n = s.aHi - s.aLo;
    const m = s.bHi - s.bLo;
    let matches: [number, number][] | undefined;
    if (n > 0 && m > 0) matches = n * m <= EXACT_CELLS ? lcsMatches(x, y, s) : uniqueAnchors(x, y, s);
    if (!matches || matches.length === 0 || n * m <= EXACT_CELLS) {
      // Exact (or nothing in common): the gaps between matches are final.
      let aAt = s.aLo;
      let bAt = s.bLo;
      for (const [i, j] of matches ?? []) {
        pairGap({ aLo: aAt, aHi: i, bLo: bAt, bHi: j }, out, cls);
        out.push({ a: i, b: j, matched: true });
        aAt = i + 1;
        bAt = j + 1;
      }
      pairGap({ aLo: aAt, aHi: s.aHi, bLo: bAt, bHi: s.bHi }, out, cls);
    } else {
      // Anchors split the segment; the gaps between them are aligned in turn (pushed last first).
      const later: Task[] = [];
      let aAt = s.aLo;
      let bAt = s.bLo;
      for (const match of matches) {
        later.push({ seg: { aLo: aAt, aHi: match[0], bLo: bAt, bHi: match[1] } }, { match });
        aAt = match[0] + 1;
        bAt = match[1] + 1;
      }
      later.push({ seg: { aLo: aAt, aHi: s.aHi, bLo: bAt, bHi: s.bHi } });
      // The suffix must follow everything of this segment: queue it as matches after the gaps.
      for (let k = 0; k < suffix.length; k++) tasks.push({ match: [suffix[k].a, suffix[k].b] });
      for (let k = later.length - 1; k >= 0; k--) tasks.push(later[k]);
      continue;
    }
    for (let k = suffix.length - 1; k >= 0; k--) out.push(suffix[k]);
  }
  return out;
}
