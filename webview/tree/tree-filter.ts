/**
 * Which nodes a filter and a search query show. Pure functions over TreeIndex arrays.
 */
import type { TreeFilter } from "../../src/shared/protocol.js";
import { passesFilter } from "../../src/core/rows/row-filter.js";
import { subtreeMask } from "../../src/core/session/tree-shape.js";
import type { TreeIndex } from "./tree-index.js";

export { queryTokens } from "../../src/core/search/search-query.js";

/** Visibility codes: hidden, shown as a search hit (or no search), shown only as a hit's ancestor. */
export const HIDDEN = 0;
export const SHOWN = 1;
export const CONTEXT = 2;

/** Whether node `i` passes the filter alone (src/core/rows/row-filter.ts), read from the index's arrays. */
export function passesFilterAt(index: TreeIndex, i: number, filter: TreeFilter, isLeaf: boolean): boolean {
  return passesFilter(filter, index.kinds[i], index.flags[i], index.hasLabel(i), isLeaf);
}

/** Per node, 1 when it is one of `roots` (the first entries of archived branches) or below one. */
export function archivedNodes(index: TreeIndex, roots: readonly string[]): Uint8Array {
  const starts: number[] = [];
  for (const id of roots) {
    const i = index.idToIdx.get(id);
    if (i !== undefined) starts.push(i);
  }
  return subtreeMask(index.size, starts, (i, visit) => {
    for (let c = index.firstChild[i]; c >= 0; c = index.nextSibling[c]) visit(c);
  });
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
