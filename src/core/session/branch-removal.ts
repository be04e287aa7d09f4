/**
 * What deleting a branch for good takes out of a session file, and how the rest is mended (docs/archive.md):
 *
 * - the branch: the entry and everything below it;
 * - entries elsewhere that point into what goes: labels and archive lines naming a removed entry, and branch
 *   summaries that summarize up to one (`fromId`) — and, in turn, what points at those;
 * - kept, although they sit in the branch: labels and archive lines that name an entry that stays, and
 *   session names (their effect lies outside the branch; losing them would change what stays);
 * - an entry that stays but whose parent goes is re-attached to its nearest ancestor that stays (a root when
 *   none does), as pi 1.5 re-chains the entries around the labels it leaves out of a branch; a compaction whose
 *   first kept entry goes keeps from the next entry of its path that stays, as pi 1.5 does there too.
 *
 * Pure: works on positions of the session's index.
 */
import { subtreeMask } from "./tree-shape.js";
import type { EntryMeta } from "./entry-meta.js";
import type { EntryEnvelope } from "./types.js";

/** What the plan reads from the session's index. */
export interface RemovalSource {
  readonly count: number;
  env(i: number): EntryEnvelope;
  meta(i: number): EntryMeta;
  positionOf(id: string): number | undefined;
  /** Parent position, -1 for a root (or an orphan). */
  parentAt(i: number): number;
  kidsAt(i: number): readonly number[];
  /** Positions root → `id`. */
  pathTo(id: string): number[];
}

/** The plan of a branch deletion. */
export interface BranchRemoval {
  /** Per position: 1 when the entry is removed. */
  removed: Uint8Array;
  /** How many entries are removed in all. */
  removedCount: number;
  /** How many of them are the branch itself (the rest pointed into it). */
  branchCount: number;
  /** Kept entries whose parent is removed: their new parentId (null: a root). */
  parents: Map<number, string | null>;
  /** Kept compactions whose first kept entry is removed: their new firstKeptEntryId. */
  firstKept: Map<number, string>;
}

/** The target of an entry that acts on another one by id (labels, archive lines), if any. */
function pointsAt(env: EntryEnvelope, meta: EntryMeta): string | undefined {
  return meta.labelTarget ?? meta.archive?.targetId ?? (env.type === "branch_summary" ? env.fromId : undefined);
}

/** Bookkeeping whose effect lies outside the entry's own branch. */
function actsElsewhere(env: EntryEnvelope, meta: EntryMeta): boolean {
  return meta.labelTarget !== undefined || meta.archive !== undefined || env.type === "session_info";
}

/** Plan the deletion of the branch starting at position `root`. */
export function planBranchRemoval(src: RemovalSource, root: number): BranchRemoval {
  const n = src.count;
  const inBranch = subtreeMask(n, [root], (i, visit) => src.kidsAt(i).forEach(visit));
  const removed = new Uint8Array(n);
  let branchCount = 0;
  for (let i = 0; i < n; i++) {
    if (inBranch[i] === 1) {
      branchCount++;
      // Kept for now; dropped below if what it names goes too.
      if (!actsElsewhere(src.env(i), src.meta(i))) removed[i] = 1;
    }
  }
  // What points at a removed entry goes, and then what points at that: until nothing changes.
  for (let changed = true, pass = 0; changed && pass <= n; pass++) {
    changed = false;
    for (let i = 0; i < n; i++) {
      if (removed[i] === 1) continue;
      const env = src.env(i);
      const meta = src.meta(i);
      const target = pointsAt(env, meta);
      if (target === undefined && inBranch[i] === 0) continue;
      const at = target === undefined ? undefined : src.positionOf(target);
      // In the branch, only what names a kept entry stays (a session name always does).
      const dropInBranch = inBranch[i] === 1 && env.type !== "session_info" && (at === undefined || removed[at] === 1);
      if (dropInBranch || (at !== undefined && removed[at] === 1)) {
        removed[i] = 1;
        changed = true;
      }
    }
  }
  let removedCount = 0;
  const parents = new Map<number, string | null>();
  const firstKept = new Map<number, string>();
  for (let i = 0; i < n; i++) {
    if (removed[i] === 1) {
      removedCount++;
      continue;
    }
    let p = src.parentAt(i);
    if (p >= 0 && removed[p] === 1) {
      for (let guard = 0; p >= 0 && removed[p] === 1 && guard <= n; guard++) p = src.parentAt(p);
      parents.set(i, p >= 0 ? src.env(p).id : null);
    }
    const kept = src.meta(i).firstKeptEntryId;
    const keptAt = kept === undefined ? undefined : src.positionOf(kept);
    if (keptAt !== undefined && removed[keptAt] === 1) {
      const path = src.pathTo(src.env(i).id);
      const from = path.indexOf(keptAt);
      let next = src.env(i).id;
      if (from >= 0) {
        for (let k = from + 1; k < path.length; k++) {
          if (removed[path[k]] === 0) {
            next = src.env(path[k]).id;
            break;
          }
        }
      }
      firstKept.set(i, next);
    }
  }
  return { removed, removedCount, branchCount, parents, firstKept };
}
