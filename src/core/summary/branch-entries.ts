/** The entries a branch summary covers (tree.md "What Gets Summarized"). */
import type { SessionEntry } from "../session/types.js";
import type { FileOperationDetails } from "../agent/navigate-types.js";
import { entriesToMessages } from "../compaction/entry-messages.js";
import { collectFileOps, fileOpsToDetails, mergeFileOpsDetails } from "./file-ops.js";

/**
 * Entries from the old leaf back to (not including) the common ancestor with the new position,
 * stopping at (not including) a compaction; chronological. `oldPath` and `newPath` are root→leaf paths;
 * an empty `newPath` (new position = before the root) makes the whole old path eligible.
 */
export function collectBranchEntries(
  oldPath: readonly SessionEntry[],
  newPath: readonly SessionEntry[],
): { entries: SessionEntry[]; commonAncestorId: string | null } {
  const onNew = new Set(newPath.map((e) => e.id));
  let commonAncestorId: string | null = null;
  for (const e of oldPath) if (onNew.has(e.id)) commonAncestorId = e.id;
  const entries: SessionEntry[] = [];
  for (let i = oldPath.length - 1; i >= 0; i--) {
    const e = oldPath[i];
    if (e.id === commonAncestorId || e.type === "compaction") break;
    entries.push(e);
  }
  return { entries: entries.reverse(), commonAncestorId };
}

/** File lists of a branch, including those carried by nested summaries inside it. */
export function branchFileOps(entries: readonly SessionEntry[]): FileOperationDetails {
  const ops = collectFileOps(entriesToMessages(entries));
  for (const e of entries) if (e.type === "branch_summary") mergeFileOpsDetails(ops, e.details);
  return fileOpsToDetails(ops);
}
