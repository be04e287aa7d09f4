/**
 * Which nodes a filter and a search query show. Pure functions over TreeIndex arrays.
 */
import type { TreeFilter } from "../../src/shared/protocol.js";
import { ENTRY_KINDS, isConversationKind } from "../../src/core/session/entry-kinds.js";
import { FLAG_HIDDEN, FLAG_TOOL_CALLS_ONLY, kindCode } from "../../src/core/rows/row-columns.js";
import type { TreeIndex } from "./tree-index.js";

export { queryTokens } from "../../src/core/search/search-query.js";

/** Visibility codes: hidden, shown as a search hit (or no search), shown only as a hit's ancestor. */
export const HIDDEN = 0;
export const SHOWN = 1;
export const CONTEXT = 2;

/** Kinds only the "all" filter shows (pi 1.5's usage records: cost, not conversation). */
const USAGE = kindCode("usage");

/** Per filter, which kind codes pass (before the hidden / tool-calls-only rules). */
const KIND_PASSES: Readonly<Record<Exclude<TreeFilter, "all" | "labeled-only">, Uint8Array>> = {
  default: Uint8Array.from(ENTRY_KINDS, (k) => (isConversationKind(k) ? 1 : 0)),
  "no-tools": Uint8Array.from(ENTRY_KINDS, (k) => (isConversationKind(k) && k !== "toolResult" ? 1 : 0)),
  "user-only": Uint8Array.from(ENTRY_KINDS, (k) => (k === "user" ? 1 : 0)),
};
const ASSISTANT = kindCode("assistant");

/**
 * Whether node `i` passes the filter alone (pi's rules), read from the index's arrays (no row object is decoded):
 * "all" shows everything; the others hide display:false hook messages and tool-call-only assistant turns (the
 * leaf always shows) and pass kinds as KIND_PASSES says; "labeled-only" shows labelled rows but usage records.
 */
export function passesFilterAt(index: TreeIndex, i: number, filter: TreeFilter, isLeaf: boolean): boolean {
  if (filter === "all") return true;
  const f = index.flags[i];
  if (!isLeaf && ((f & FLAG_HIDDEN) !== 0 || ((f & FLAG_TOOL_CALLS_ONLY) !== 0 && index.kinds[i] === ASSISTANT)))
    return false;
  if (filter === "labeled-only") return index.hasLabel(i) && index.kinds[i] !== USAGE;
  return KIND_PASSES[filter][index.kinds[i]] === 1;
}

/** Per node, 1 when it is one of `roots` (the first entries of archived branches) or below one. */
export function archivedNodes(index: TreeIndex, roots: readonly string[]): Uint8Array {
  const out = new Uint8Array(index.size);
  const stack: number[] = [];
  for (const id of roots) {
    const i = index.idToIdx.get(id);
    if (i !== undefined) stack.push(i);
  }
  while (stack.length > 0) {
    const i = stack.pop() as number;
    if (out[i] === 1) continue;
    out[i] = 1;
    for (let c = index.firstChild[i]; c >= 0; c = index.nextSibling[c]) stack.push(c);
  }
  return out;
}

/**
 * Visibility of every node. With a query, nodes matching all tokens are SHOWN and their ancestors
 * that pass the filter become CONTEXT, so every hit keeps its path. `excluded` nodes (hidden archived
 * branches) are never shown, whatever the filter.
 */
export function computeVisibility(
  index: TreeIndex,
  filter: TreeFilter,
  tokens: readonly string[],
  excluded?: Uint8Array,
): Uint8Array {
  const n = index.size;
  const vis = new Uint8Array(n);
  const leaf = index.leaf;
  const passes = (i: number): boolean =>
    (excluded === undefined || excluded[i] === 0) && passesFilterAt(index, i, filter, i === leaf);
  if (tokens.length === 0) {
    for (let i = 0; i < n; i++) if (passes(i)) vis[i] = SHOWN;
    return vis;
  }
  const parent = index.parent;
  const hits = index.matchAll(tokens);
  for (let i = 0; i < n; i++) {
    if (vis[i] === SHOWN || hits[i] === 0) continue;
    if (!passes(i)) continue;
    vis[i] = SHOWN;
    // Walk up until an already-marked ancestor: every node is marked at most once, so O(n) in total.
    for (let a = parent[i]; a >= 0 && vis[a] === HIDDEN; a = parent[a]) {
      if (!passes(a)) {
        vis[a] = HIDDEN_PASSED;
        continue;
      }
      vis[a] = CONTEXT;
    }
  }
  // HIDDEN_PASSED only stopped repeated walks; such ancestors stay hidden.
  for (let i = 0; i < n; i++) if (vis[i] === HIDDEN_PASSED) vis[i] = HIDDEN;
  return vis;
}

/** Temporary mark for filtered-out ancestors already walked through. */
const HIDDEN_PASSED = 3;
