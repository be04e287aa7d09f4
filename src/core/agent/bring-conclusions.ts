/**
 * AgentSession.bringConclusions: summarize another branch — from its common ancestor with the current leaf to a
 * selected node — and append the summary at the current leaf as a `branch_summary` whose `fromId` is that node.
 * The user stays on their branch (the summary becomes its leaf), the model sees the summary in its next context,
 * and pi reads it as an ordinary branch summary. Nothing is written unless the summary succeeds.
 *
 * The range is SessionManager.collectEntriesToSummarize(selected, leaf): the same stretch a navigation from the
 * selected node to the leaf would summarize, so it also stops at a compaction on that stretch. What lies before
 * such a compaction was condensed into it at the time, and the summary describes what the branch did after it.
 */
import type { BranchSummaryEntry } from "../session/types.js";
import type { NavigateEnv } from "./navigate-tree.js";
import type { TreePreparation } from "../hooks/hook-events.js";
import type { BringConclusionsOptions, BringConclusionsResult } from "./navigate-types.js";
import { prepareSummary } from "./summary-step.js";

/** Implementation of AgentSession.bringConclusions (the session checks it is idle and writable first). */
export async function bringConclusions(
  env: NavigateEnv,
  sourceId: string,
  options: BringConclusionsOptions = {},
): Promise<BringConclusionsResult> {
  const sm = env.sessionManager;
  if (!sm.hasEntry(sourceId))
    throw new Error(`Cannot bring conclusions: no entry with id "${sourceId}" in this session`);
  const leafId = sm.getLeafId();
  if (leafId === null)
    return { kind: "failed", error: "The conversation is empty here: send a message first, then bring conclusions." };
  const commonAncestorId = sm.findCommonAncestor(leafId, sourceId);
  if (commonAncestorId === sourceId)
    return { kind: "failed", error: "That node is on the current branch: its conclusions are already here." };
  const entriesToSummarize = sm.collectEntriesToSummarize(sourceId, leafId);
  const preparation: TreePreparation = {
    targetId: leafId,
    oldLeafId: leafId,
    commonAncestorId,
    entriesToSummarize,
    userWantsSummary: true,
    customInstructions: options.customInstructions,
    replaceInstructions: options.replaceInstructions,
    label: options.label,
    bringFrom: sourceId,
  };
  const signal = options.signal ?? new AbortController().signal;
  const step = await prepareSummary(env, preparation, signal, options.extractive === true);
  if (step.kind !== "ready") return step;
  if (!step.summary)
    return {
      kind: "failed",
      error: "That branch has no messages to summarize after its common ancestor with the current branch.",
    };

  const { summary, details, fromHook, usage } = step.summary;
  const id = sm.appendBranchSummary(sourceId, summary, details, fromHook || undefined, usage);
  if (step.label) sm.appendLabelChange(id, step.label);
  const summaryEntry = sm.getEntry(id) as BranchSummaryEntry;
  await env.hooks.emit("session_tree", {
    type: "session_tree",
    newLeafId: sm.getLeafId(),
    oldLeafId: leafId,
    summaryEntry,
    fromHook,
  });
  return { kind: "moved", summaryEntry };
}
