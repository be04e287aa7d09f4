/**
 * Quick-pick rows for "Agent: Compare Branches…": the tips of the branches first (the current leaf, then the
 * others newest first), each with its label, its text and the request it answers, then every node as the
 * Switch Branch picker lists them. Pure: plain objects the VS Code side turns into QuickPickItems.
 */
import { singleLine, type TreeRow } from "../../core/rows/tree-row.js";
import { timeOf } from "../../core/session/tree-shape.js";
import { isBookkeepingChild, nodeRows, pickerText, type PickRow } from "../common/pick-items.js";

/** A row of the branch picker, or a separator line above a group. */
export type BranchPickRow = PickRow<string> | { separator: string };

/** How far up a tip's path the picker looks for the request it answers (bounded: paths can be long). */
const REQUEST_LOOKUP_STEPS = 200;

/**
 * Rows for picking one end of a comparison (see the file comment). `exclude` leaves out the end picked already.
 */
export function branchPickRows(rows: readonly TreeRow[], leafId: string | null, exclude?: string): BranchPickRow[] {
  const byId = new Map<string, TreeRow>();
  const hasContentChild = new Set<string>();
  for (const e of rows) byId.set(e.id, e);
  for (const e of rows) if (e.parentId !== null && !isBookkeepingChild(e)) hasContentChild.add(e.parentId);
  const tips = rows.filter((e) => !isBookkeepingChild(e) && !hasContentChild.has(e.id) && e.id !== exclude);
  // The current leaf first (it may be an inner node after a move), then the other tips, newest first.
  const leaf = leafId !== null && leafId !== exclude ? byId.get(leafId) : undefined;
  // Newest first by parsed time (a string comparison misorders stamps with other UTC offsets).
  const others = tips.filter((e) => e.id !== leafId).sort((a, b) => timeOf(b.timestamp) - timeOf(a.timestamp));
  const ordered = leaf ? [leaf, ...others] : others;

  const out: BranchPickRow[] = [];
  if (ordered.length > 0) out.push({ separator: "Branch tips" });
  for (const e of ordered) {
    const request = requestOf(e, byId);
    // The detail line is always shown (a group's separator label can cover the description).
    const detail = [
      e.id === leafId ? "← active" : "",
      request && request !== e ? `answers: ${singleLine(request.preview, 120)}` : "",
    ].filter(Boolean);
    out.push({
      label: `$(git-branch) ${pickerText(e)}`,
      description: e.label ? `[${e.label}]` : undefined,
      detail: detail.join(" · ") || undefined,
      value: e.id,
    });
  }
  const all = nodeRows(rows, leafId).filter((r) => r.value !== exclude);
  if (all.length > 0) out.push({ separator: "All nodes" }, ...all);
  return out;
}

/** The nearest user message at or above `e`, within a bounded walk. */
function requestOf(e: TreeRow, byId: ReadonlyMap<string, TreeRow>): TreeRow | undefined {
  let at: TreeRow | undefined = e;
  for (let step = 0; at && step < REQUEST_LOOKUP_STEPS; step++) {
    if (at.kind === "user") return at;
    at = at.parentId === null ? undefined : byId.get(at.parentId);
  }
  return undefined;
}
