/**
 * Finding the parallel branch a tree row belongs to and its newest entry (the core's lookups,
 * src/core/parallel/branch-lookup.ts), and the other branches started with it — from the session's envelopes and
 * run lines (docs/parallel.md). Pure: no `vscode` import.
 */
import type { BranchSource } from "../../core/parallel/branch-lookup.js";
import { readBranchRuns, type BranchRunKind, type BranchRunRecord } from "../../core/parallel/branch-run-lines.js";
import type { SessionManager } from "../../core/session/session-manager.js";

export { branchRunOf, newestEntryOf, type BranchSource } from "../../core/parallel/branch-lookup.js";

/** The kinds of branches started as a group (checked, ranked, adopted): Explore in Parallel's and replays. */
export const GROUP_KINDS: ReadonlySet<BranchRunKind> = new Set<BranchRunKind>(["explore", "replay"]);

/** The other branches started together with `run` (same group), by first entry. */
export function otherBranchesOf(sm: BranchSource, run: BranchRunRecord): string[] {
  return [...readBranchRuns(sm as SessionManager).values()]
    .filter((r) => r.groupId === run.groupId && r.branchId !== run.branchId)
    .map((r) => r.branchId);
}
