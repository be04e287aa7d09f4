/**
 * Finding the parallel branch a tree row belongs to, its newest entry, and the other branches started with it —
 * from the session's envelopes and run lines (docs/parallel.md). Pure: no `vscode` import.
 */
import { readBranchRuns, type BranchRunKind, type BranchRunRecord } from "../../core/parallel/branch-run-lines.js";
import type { SessionManager } from "../../core/session/session-manager.js";

/** The kinds of branches started as a group (checked, ranked, adopted): Explore in Parallel's and replays. */
export const GROUP_KINDS: ReadonlySet<BranchRunKind> = new Set<BranchRunKind>(["explore", "replay"]);

/** What the lookups read from a session. */
export type BranchSource = Pick<SessionManager, "getEnvelopes" | "getEntry" | "getPathEnvelopes" | "getEnvelope">;

/** The run (explore, replay or aside) whose branch holds `entryId`: the nearest ancestor-or-self with a run line. */
export function branchRunOf(
  sm: BranchSource,
  entryId: string,
  live: ReadonlySet<string> = new Set(),
): BranchRunRecord | undefined {
  const runs = readBranchRuns(sm as SessionManager, live);
  if (runs.size === 0) return undefined;
  const path = sm.getPathEnvelopes(entryId);
  for (let i = path.length - 1; i >= 0; i--) {
    const run = runs.get(path[i].id);
    if (run) return run;
  }
  return undefined;
}

/**
 * The newest message entry of the branch starting at `branchId` (in file order, any depth below it): where Adopt
 * This Branch moves the leaf.
 */
export function newestEntryOf(sm: BranchSource, branchId: string): string {
  const below = new Set([branchId]);
  let newest = branchId;
  for (const env of sm.getEnvelopes()) {
    if (env.parentId === null || !below.has(env.parentId)) continue;
    below.add(env.id);
    if (env.type === "message") newest = env.id;
  }
  return newest;
}

/** The other branches started together with `run` (same group), by first entry. */
export function otherBranchesOf(sm: BranchSource, run: BranchRunRecord): string[] {
  return [...readBranchRuns(sm as SessionManager).values()]
    .filter((r) => r.groupId === run.groupId && r.branchId !== run.branchId)
    .map((r) => r.branchId);
}
