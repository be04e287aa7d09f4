/** File tracking of a branch summary (the entries come from SessionManager.collectEntriesToSummarize). */
import type { SessionEntry } from "../session/types.js";
import type { FileOperationDetails } from "../hooks/hook-events.js";
import { entriesToMessages } from "../compaction/entry-messages.js";
import { collectFileOps, fileOpsToDetails, mergeFileOpsDetails } from "./file-ops.js";

/** File lists of a branch, including those carried by nested summaries inside it. */
export function branchFileOps(entries: readonly SessionEntry[]): FileOperationDetails {
  const ops = collectFileOps(entriesToMessages(entries));
  for (const e of entries) if (e.type === "branch_summary") mergeFileOpsDetails(ops, e.details);
  return fileOpsToDetails(ops);
}
