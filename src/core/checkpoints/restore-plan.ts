/**
 * Works out a restore without touching anything: from the checkpoint of the files as they are now (`current`) to
 * the `target` checkpoint, which paths are written, deleted, or left alone and why. The rule that keeps every
 * restore undoable: a path is only overwritten or deleted when its present content is in `current` (so the
 * pre-restore checkpoint holds it); a file that no checkpoint holds (ignored, too large) is never replaced.
 */
import type { Stats } from "node:fs";
import fs from "node:fs/promises";
import { absoluteIn, ancestorsOf, isSafeRelative } from "./folder-paths.js";
import type { RawChange } from "./tree-diff.js";
import type { RestoreChange, RestoreSkip } from "./types.js";

/** A path the restore writes from the target checkpoint. */
export interface PlannedWrite {
  path: string;
  action: "create" | "modify";
  /** A folder stands there now whose files are all being deleted; it is removed first. */
  replacesDir: boolean;
  /** The target's git mode (100644, 100755, 120000) and blob id. */
  mode: string;
  blob: string;
}

/** The full plan (the public RestorePlan is derived from it). */
export interface DetailedPlan {
  writes: PlannedWrite[];
  deletes: string[];
  emptyDirs: { create: string[]; remove: string[] };
  skipped: RestoreSkip[];
}

/** The public list of changes of a plan, sorted by path. */
export function planChanges(plan: DetailedPlan): RestoreChange[] {
  const changes: RestoreChange[] = [
    ...plan.writes.map((w) => ({ path: w.path, action: w.action })),
    ...plan.deletes.map((p) => ({ path: p, action: "delete" as const })),
  ];
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Files inside a folder on disk, relative to the workspace folder; undefined when over `budget` entries. */
async function filesUnder(folder: string, rel: string, budget: { left: number }): Promise<string[] | undefined> {
  const out: string[] = [];
  const entries = await fs.readdir(absoluteIn(folder, rel), { withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (--budget.left < 0) return undefined;
    const child = `${rel}/${e.name}`;
    if (e.isDirectory()) {
      const inner = await filesUnder(folder, child, budget);
      if (!inner) return undefined;
      out.push(...inner);
    } else out.push(child);
  }
  return out;
}

/**
 * Builds the plan. `changes`: raw differences current → target (nested repositories already left out);
 * `currentEmptyDirs` / `targetEmptyDirs`: the empty folders each checkpoint recorded.
 */
export async function planRestoreOps(
  folder: string,
  changes: readonly RawChange[],
  currentEmptyDirs: readonly string[],
  targetEmptyDirs: readonly string[],
): Promise<DetailedPlan> {
  const lstatCache = new Map<string, Stats | undefined>();
  const lstat = async (rel: string): Promise<Stats | undefined> => {
    if (!lstatCache.has(rel)) lstatCache.set(rel, await fs.lstat(absoluteIn(folder, rel)).catch(() => undefined));
    return lstatCache.get(rel);
  };
  const plan: DetailedPlan = { writes: [], deletes: [], emptyDirs: { create: [], remove: [] }, skipped: [] };
  const deleting = new Set(changes.filter((c) => c.status === "D").map((c) => c.path));

  /** Whether the way down to `rel` is made of real folders (or of paths this restore deletes first). */
  const reachable = async (rel: string): Promise<RestoreSkip["reason"] | undefined> => {
    for (const a of ancestorsOf(rel)) {
      const st = await lstat(a);
      if (!st) return undefined; // missing from here down: the restore creates the folders
      if (st.isDirectory()) continue;
      if (deleting.has(a)) return undefined; // a recorded file or link the restore removes first
      return st.isSymbolicLink() ? "through-symlink" : "blocked";
    }
    return undefined;
  };

  for (const c of changes) {
    if (!isSafeRelative(c.path)) {
      plan.skipped.push({ path: c.path, reason: "through-symlink" });
      continue;
    }
    const blocked = await reachable(c.path);
    if (blocked) {
      plan.skipped.push({ path: c.path, reason: blocked });
      if (c.status === "D") deleting.delete(c.path);
      continue;
    }
    if (c.status === "D") {
      plan.deletes.push(c.path);
      continue;
    }
    if (c.status !== "A") {
      plan.writes.push({ path: c.path, action: "modify", replacesDir: false, mode: c.newMode, blob: c.newId });
      continue;
    }
    const st = await lstat(c.path);
    if (!st) {
      plan.writes.push({ path: c.path, action: "create", replacesDir: false, mode: c.newMode, blob: c.newId });
    } else if (st.isDirectory()) {
      // A folder where the target has a file: fine when every file in it is recorded and being deleted.
      const inside = await filesUnder(folder, c.path, { left: 10_000 });
      const allDeleted = inside !== undefined && inside.every((p) => deleting.has(p));
      if (allDeleted)
        plan.writes.push({ path: c.path, action: "create", replacesDir: true, mode: c.newMode, blob: c.newId });
      else plan.skipped.push({ path: c.path, reason: "blocked" });
    } else {
      plan.skipped.push({ path: c.path, reason: "not-recorded" });
    }
  }

  const targetDirs = new Set(targetEmptyDirs);
  const currentDirs = new Set(currentEmptyDirs);
  for (const d of targetEmptyDirs) {
    if (currentDirs.has(d) || !isSafeRelative(d)) continue;
    const st = await lstat(d);
    if (st?.isDirectory()) continue;
    const blocked = (await reachable(d)) ?? (st && !deleting.has(d) ? "blocked" : undefined);
    if (blocked) plan.skipped.push({ path: d, reason: blocked });
    else plan.emptyDirs.create.push(d);
  }
  const written = new Set(plan.writes.map((w) => w.path));
  for (const d of currentEmptyDirs) {
    if (targetDirs.has(d) || !isSafeRelative(d) || written.has(d)) continue;
    // A target file inside it keeps it (the write fills it).
    if (plan.writes.some((w) => w.path.startsWith(d + "/"))) continue;
    if ((await reachable(d)) === undefined) plan.emptyDirs.remove.push(d);
  }
  return plan;
}
