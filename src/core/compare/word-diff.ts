/**
 * Word-level differences between two texts, for the compare view's highlighting. Words, runs of whitespace and
 * single punctuation marks are the tokens; the common start and end are cut off first (most edits are local),
 * and the middle goes through Myers' O(ND) algorithm with a bound on D: past it (two unrelated texts) the middle
 * is simply marked changed as a whole, which is what a reader sees anyway, at a bounded cost.
 */
import type { DiffSpan } from "./compare-types.js";

/** Tokens a text is split into. */
const TOKEN = /\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu;
/** More differing tokens than this: the middle counts as changed as a whole. */
export const MAX_EDITS = 600;
/** More middle tokens than this on either side: likewise (keeps the work bounded on huge texts). */
export const MAX_TOKENS = 20_000;

/** Both sides of a text comparison as runs; the changed runs are what the other side lacks. */
export interface WordDiff {
  left: DiffSpan[];
  right: DiffSpan[];
}

function tokenize(text: string): string[] {
  return text.match(TOKEN) ?? [];
}

/**
 * Indexes (i, j) of the tokens kept on both sides, increasing, or undefined when more than `maxEdits` edits would
 * be needed. Myers' greedy forward search, keeping each round's frontier to walk the path back.
 */
function myersKept(a: readonly number[], b: readonly number[], maxEdits: number): [number, number][] | undefined {
  const n = a.length;
  const m = b.length;
  const limit = Math.min(maxEdits, n + m);
  const offset = limit + 1;
  const v = new Int32Array(2 * limit + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= limit; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return backtrack(trace, offset, n, m);
    }
  }
  return undefined;
}

function backtrack(trace: readonly Int32Array[], offset: number, n: number, m: number): [number, number][] {
  const kept: [number, number][] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK];
    const prevY = d === 0 ? 0 : prevX - prevK;
    while (x > prevX && y > prevY) kept.push([--x, --y]);
    x = prevX;
    y = prevY;
  }
  return kept.reverse();
}

/** Appends a token to runs, merging it into the last run when the flag is the same. */
function push(runs: DiffSpan[], text: string, changed: boolean): void {
  if (text === "") return;
  const last = runs[runs.length - 1];
  if (last !== undefined && (last.changed === true) === changed) last.text += text;
  else runs.push(changed ? { text, changed: true } : { text });
}

/** The word-level differences of `left` and `right` (see the file comment). Equal texts give one unchanged run each. */
export function wordDiff(left: string, right: string): WordDiff {
  const out: WordDiff = { left: [], right: [] };
  if (left === right) {
    push(out.left, left, false);
    push(out.right, right, false);
    return out;
  }
  const ta = tokenize(left);
  const tb = tokenize(right);
  let start = 0;
  while (start < ta.length && start < tb.length && ta[start] === tb[start]) start++;
  let endA = ta.length;
  let endB = tb.length;
  while (endA > start && endB > start && ta[endA - 1] === tb[endB - 1]) {
    endA--;
    endB--;
  }
  const head = ta.slice(0, start).join("");
  push(out.left, head, false);
  push(out.right, head, false);
  const midA = ta.slice(start, endA);
  const midB = tb.slice(start, endB);
  let kept: [number, number][] | undefined;
  if (midA.length <= MAX_TOKENS && midB.length <= MAX_TOKENS) {
    const ids = new Map<string, number>();
    const code = (t: string): number => {
      let id = ids.get(t);
      if (id === undefined) ids.set(t, (id = ids.size));
      return id;
    };
    kept = myersKept(midA.map(code), midB.map(code), MAX_EDITS);
  }
  if (kept === undefined) {
    push(out.left, midA.join(""), true);
    push(out.right, midB.join(""), true);
  } else {
    let i = 0;
    let j = 0;
    for (const [ki, kj] of kept) {
      while (i < ki) push(out.left, midA[i++], true);
      while (j < kj) push(out.right, midB[j++], true);
      push(out.left, midA[i++], false);
      push(out.right, midB[j++], false);
    }
    while (i < midA.length) push(out.left, midA[i++], true);
    while (j < midB.length) push(out.right, midB[j++], true);
  }
  const tail = ta.slice(endA).join("");
  push(out.left, tail, false);
  push(out.right, tail, false);
  return out;
}
