/**
 * The ranking of branches explored together (docs/parallel.md, "A check per branch"): branches whose check passed
 * first, then those without a check, then the rest (failed, timed out, stopped, could not run); within each, a
 * branch that ended `done` before one that did not; then fewer changed lines; then lower cost; then branch order.
 * **Adopt Best Branch** adopts the first. Pure.
 */
import type { SessionEntry } from "../session/types.js";
import type { BranchCheckState } from "./branch-check.js";
import type { BranchRunState } from "./branch-run-lines.js";

/** One branch as the ranking sees it. */
export interface RankedBranch {
  /** The branch's first entry. */
  branchId: string;
  /** Its position in the run (1-based), the last tie-break. */
  number: number;
  run: BranchRunState;
  /** Its newest check's state; undefined: no check ran. */
  check?: BranchCheckState;
  /** Lines added plus removed in its copy. */
  changedLines: number;
  /** USD of its model calls. */
  cost: number;
}

/** 0: passed, 1: no check, 2: anything else. */
function checkTier(check: BranchCheckState | undefined): number {
  if (check === "passed") return 0;
  return check === undefined ? 1 : 2;
}

/** `branches` best first (see the file comment); the input is not changed. */
export function rankBranches<T extends RankedBranch>(branches: readonly T[]): T[] {
  return [...branches].sort(
    (a, b) =>
      checkTier(a.check) - checkTier(b.check) ||
      Number(a.run !== "done") - Number(b.run !== "done") ||
      a.changedLines - b.changedLines ||
      a.cost - b.cost ||
      a.number - b.number,
  );
}

/** What branchCost reads of a session. */
export interface CostSource {
  getEnvelopes(): readonly { id: string; parentId: string | null; type: string; role?: string }[];
  getEntry(id: string): SessionEntry | undefined;
}

/** USD of the assistant replies on the branch starting at `branchId` (every entry below it, any depth). */
export function branchCost(sm: CostSource, branchId: string): number {
  const below = new Set([branchId]);
  let cost = 0;
  for (const env of sm.getEnvelopes()) {
    if (env.parentId === null || !below.has(env.parentId)) continue;
    below.add(env.id);
    if (env.type !== "message" || env.role !== "assistant") continue;
    const entry = sm.getEntry(env.id);
    if (entry?.type !== "message" || entry.message.role !== "assistant") continue;
    const total = entry.message.usage?.cost?.total;
    if (typeof total === "number" && Number.isFinite(total)) cost += total;
  }
  return cost;
}
