/**
 * Works out what a compaction would summarize: the context since the previous compaction's first kept
 * entry, minus roughly `keepRecentTokens` of recent turns that stay verbatim.
 */
import type { CompactionPreparation } from "../hooks/hook-events.js";
import type { AgentMessage } from "../messages.js";
import type { CompactionEntry, SessionEntry } from "../session/types.js";
import { collectFileOps, fileOpsToDetails, mergeFileOpsDetails } from "../summary/file-ops.js";
import { findCutPoint } from "./cut-point.js";
import { entriesToMessages } from "./entry-messages.js";
import { estimateContextTokens } from "./tokens.js";

/** A preparation plus what the hooks do not need to see. */
export interface PreparedCompaction extends CompactionPreparation {
  /** The compaction whose summary this one updates, if any. */
  previousCompaction?: CompactionEntry;
  /** Compactions on the path, newest first. */
  previousCompactions: CompactionEntry[];
}

/** The compaction entries on a root→leaf path, newest first. */
export function compactionsOnPath(path: readonly SessionEntry[]): CompactionEntry[] {
  return path.filter((e): e is CompactionEntry => e.type === "compaction").reverse();
}

/**
 * Prepares a compaction of `path` (root→leaf, as SessionManager.getPath returns it); `contextMessages`
 * is what the model currently sees (for tokensBefore). Returns undefined when there is nothing that
 * can be cut off yet.
 */
export function prepareCompaction(
  path: readonly SessionEntry[],
  contextMessages: readonly AgentMessage[],
  keepRecentTokens: number,
): PreparedCompaction | undefined {
  const previousCompactions = compactionsOnPath(path);
  const previous = previousCompactions[0];
  let start = 0;
  if (previous) {
    const kept = path.findIndex((e) => e.id === previous.firstKeptEntryId);
    start = kept >= 0 ? kept : path.indexOf(previous) + 1;
  }
  const live = path.slice(start).filter((e) => e.type !== "compaction");
  const cut = findCutPoint(live, keepRecentTokens);
  if (cut <= 0) return undefined;

  const summarized = live.slice(0, cut);
  const messagesToSummarize = entriesToMessages(summarized);
  if (messagesToSummarize.length === 0) return undefined;

  const ops = collectFileOps(messagesToSummarize);
  if (previous) mergeFileOpsDetails(ops, previous.details);
  for (const e of summarized) if (e.type === "branch_summary") mergeFileOpsDetails(ops, e.details);

  return {
    firstKeptEntryId: live[cut].id,
    messagesToSummarize,
    tokensBefore: estimateContextTokens(contextMessages),
    previousSummary: previous?.summary,
    fileOps: fileOpsToDetails(ops),
    previousCompaction: previous,
    previousCompactions,
  };
}
