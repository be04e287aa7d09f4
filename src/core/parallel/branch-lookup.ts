/**
 * Finding the branch run a tree row belongs to and a branch's newest entry, from the session's envelopes and run
 * lines (docs/parallel.md). An aside continued as a branch (continue-aside.ts) is an ordinary path: its run is
 * passed over.
 */
import { readBranchRuns, type BranchRunRecord } from "./branch-run-lines.js";
import type { SessionManager } from "../session/session-manager.js";

/** What the lookups read from a session. */
export type BranchSource = Pick<SessionManager, "getEnvelopes" | "getEntry" | "getPathEnvelopes" | "getEnvelope">;

/**
 * The run (explore, replay or aside) whose branch holds `entryId`: the nearest ancestor-or-self with a run line, passing
 * over asides continued as branches (their rows are the path of whatever holds them) unless `continued` asks for
 * them too.
 */
export function branchRunOf(
  sm: BranchSource,
  entryId: string,
  live: ReadonlySet<string> = new Set(),
  include: { continued?: boolean } = {},
): BranchRunRecord | undefined {
  const runs = readBranchRuns(sm as SessionManager, live);
  if (runs.size === 0) return undefined;
  const path = sm.getPathEnvelopes(entryId);
  for (let i = path.length - 1; i >= 0; i--) {
    const run = runs.get(path[i].id);
    if (run && (run.continued !== true || include.continued === true)) return run;
  }
  return undefined;
}

/**
 * The newest message entry of the branch starting at `branchId` (in file order, any depth below it): where Adopt
 * This Branch moves the leaf, and an aside's answer.
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
