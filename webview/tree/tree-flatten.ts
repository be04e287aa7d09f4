/**
 * Turn visible nodes into display rows: hidden nodes are skipped and their visible descendants attach
 * to the nearest visible ancestor; a chain of single children stays at one level, only branch points
 * indent (pi's layout). Output is typed arrays so only on-screen rows ever become DOM.
 */
import { HIDDEN } from "./tree-filter.js";
import type { TreeIndex } from "./tree-index.js";

/** One step of the connector gutter: does the branch at this level continue below? Shared by rows. */
export interface GuideCell {
  readonly cont: boolean;
  readonly up: GuideCell | null;
}

/** Row flag bits. */
export const FIRST_IN_BRANCH = 1;
export const FOLDABLE = 2;
export const EXPANDED = 4;

/** Display rows in order. Arrays are `count` long except `rowOf`, which is indexed by node. */
export interface FlatRows {
  count: number;
  node: Int32Array;
  level: Int32Array;
  flags: Uint8Array;
  setSize: Int32Array;
  posInSet: Int32Array;
  guide: (GuideCell | null)[];
  /** Display parent of each row's node (node index, -1 for display roots). */
  displayParent: Int32Array;
  /** Row of a node, or -1 when not displayed. */
  rowOf: Int32Array;
}

/**
 * Flatten. `folded` holds node indices whose descendants are not shown; `ignoreFolds` opens every
 * fold for display (search results) without forgetting them.
 */
export function flatten(
  index: TreeIndex,
  vis: Uint8Array,
  folded: ReadonlySet<number>,
  ignoreFolds: boolean,
): FlatRows {
  const n = index.size;
  const firstChild = index.firstChild;
  const nextSibling = index.nextSibling;

  // Pass 1: display parent of each visible node, in depth-first (display) order.
  const dpar = new Int32Array(n).fill(-2);
  const order = new Int32Array(n);
  let orderLen = 0;
  const stackNode: number[] = [];
  const stackVa: number[] = [];
  for (let r = index.roots.length - 1; r >= 0; r--) {
    stackNode.push(index.roots[r]);
    stackVa.push(-1);
  }
  while (stackNode.length > 0) {
    const i = stackNode.pop() as number;
    const va = stackVa.pop() as number;
    let childVa = va;
    if (vis[i] !== HIDDEN) {
      dpar[i] = va;
      order[orderLen++] = i;
      childVa = i;
    }
    // Children are pushed oldest first, then that run is reversed so the oldest is popped first.
    const from = stackNode.length;
    for (let c = firstChild[i]; c >= 0; c = nextSibling[c]) {
      stackNode.push(c);
      stackVa.push(childVa);
    }
    for (let a = from, b = stackNode.length - 1; a < b; a++, b--) {
      const t = stackNode[a];
      stackNode[a] = stackNode[b];
      stackNode[b] = t;
    }
  }

  // Display children as CSR arrays; slot n stands for the virtual root above all display roots.
  const dcount = new Int32Array(n + 1);
  for (let k = 0; k < orderLen; k++) {
    const p = dpar[order[k]];
    dcount[p < 0 ? n : p]++;
  }
  const dstart = new Int32Array(n + 2);
  for (let i = 0; i <= n; i++) dstart[i + 1] = dstart[i] + dcount[i];
  const fill = dstart.slice(0, n + 1);
  const dkids = new Int32Array(orderLen);
  for (let k = 0; k < orderLen; k++) {
    const i = order[k];
    const p = dpar[i];
    dkids[fill[p < 0 ? n : p]++] = i;
  }

  // Pass 2: rows, depth first over the display tree.
  const node = new Int32Array(orderLen);
  const level = new Int32Array(orderLen);
  const flags = new Uint8Array(orderLen);
  const setSize = new Int32Array(orderLen);
  const posInSet = new Int32Array(orderLen);
  const displayParent = new Int32Array(orderLen);
  const guide: (GuideCell | null)[] = new Array<GuideCell | null>(orderLen);
  const rowOf = new Int32Array(n).fill(-1);
  let count = 0;

  const sNode: number[] = [];
  const sLevel: number[] = [];
  const sGuide: (GuideCell | null)[] = [];
  const sFirst: boolean[] = [];
  const rootCount = dcount[n];
  const multiRoot = rootCount > 1;
  for (let k = dstart[n + 1] - 1; k >= dstart[n]; k--) {
    sNode.push(dkids[k]);
    sLevel.push(multiRoot ? 1 : 0);
    sGuide.push(multiRoot ? { cont: k < dstart[n + 1] - 1, up: null } : null);
    sFirst.push(multiRoot);
  }
  let segStart = 0;
  while (sNode.length > 0) {
    const i = sNode.pop() as number;
    const lv = sLevel.pop() as number;
    const g = sGuide.pop() as GuideCell | null;
    const first = sFirst.pop() as boolean;
    const row = count++;
    node[row] = i;
    level[row] = lv;
    guide[row] = g;
    displayParent[row] = dpar[i] < 0 ? -1 : dpar[i];
    rowOf[i] = row;
    // A segment (branch start plus its chain) is one ARIA sibling set; rows of a segment are consecutive.
    if (first || row === 0 || level[row - 1] !== lv || dcount[node[row - 1]] !== 1) {
      closeSegment(segStart, row, setSize, posInSet);
      segStart = row;
    }
    const nk = dcount[i];
    const branchPoint = nk > 1;
    let f = first ? FIRST_IN_BRANCH : 0;
    const foldable = nk > 0 && (branchPoint || first);
    const isFolded = foldable && !ignoreFolds && folded.has(i);
    if (foldable) f |= FOLDABLE | (isFolded ? 0 : EXPANDED);
    flags[row] = f;
    if (nk === 0 || isFolded) continue;
    const ks = dstart[i];
    if (nk === 1) {
      sNode.push(dkids[ks]);
      sLevel.push(lv);
      sGuide.push(g);
      sFirst.push(false);
      continue;
    }
    for (let k = ks + nk - 1; k >= ks; k--) {
      sNode.push(dkids[k]);
      sLevel.push(lv + 1);
      sGuide.push({ cont: k < ks + nk - 1, up: g });
      sFirst.push(true);
    }
  }
  closeSegment(segStart, count, setSize, posInSet);
  return { count, node, level, flags, setSize, posInSet, guide, displayParent, rowOf };
}

function closeSegment(start: number, end: number, setSize: Int32Array, posInSet: Int32Array): void {
  const size = end - start;
  for (let r = start; r < end; r++) {
    setSize[r] = size;
    posInSet[r] = r - start + 1;
  }
}

/**
 * Deepest indentation drawn; deeper rows draw their innermost MAX_INDENT levels and a depth number. The view
 * narrows the gutter further to a share of the row (media/webview.css), so this only bounds the DOM text.
 */
export const MAX_INDENT = 8;

/** A row's connector gutter. */
export interface GuideText {
  /** Levels left out of `text` (the row is deeper than MAX_INDENT). */
  deep: boolean;
  /** Levels drawn: `text` is three characters per level. */
  levels: number;
  /** The connectors, outermost first ("│  ├─ "). */
  text: string;
}

/** The connector gutter of a row as text ("│  ├─ "), capped at MAX_INDENT levels. */
export function guideText(rows: FlatRows, row: number): GuideText {
  const lv = rows.level[row];
  if (lv === 0) return { deep: false, levels: 0, text: "" };
  const first = (rows.flags[row] & FIRST_IN_BRANCH) !== 0;
  const parts: string[] = [];
  let g = rows.guide[row];
  let depth = lv;
  // Innermost level: a connector for a branch start, a continuation line otherwise.
  if (g !== null) {
    parts.push(first ? (g.cont ? "├─ " : "└─ ") : g.cont ? "│  " : "   ");
    g = g.up;
    depth--;
  }
  while (g !== null && parts.length < MAX_INDENT) {
    parts.push(g.cont ? "│  " : "   ");
    g = g.up;
    depth--;
  }
  parts.reverse();
  return { deep: depth > 0, levels: parts.length, text: parts.join("") };
}
