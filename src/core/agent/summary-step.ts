/**
 * The step navigateTree and bringConclusions share: ask the `session_before_tree` hooks, then take their summary
 * or write one of the given entries (model or extractive). Nothing is written here; the caller writes the entry
 * where its operation puts it.
 */
import { entriesToMessages } from "../compaction/entry-messages.js";
import { branchFileOps } from "../summary/branch-entries.js";
import { SummaryAbortedError, summarize } from "../summary/summarize.js";
import type { NavigateEnv } from "./navigate-tree.js";
import type { TreePreparation } from "../hooks/hook-events.js";
import type { TreeMoveResult } from "./navigate-types.js";
import { errorText } from "../error-text.js";
import type { Usage } from "../messages.js";

/** A summary ready to be written. */
export interface PreparedSummary {
  summary: string;
  details?: unknown;
  /** True when a hook supplied it. */
  fromHook: boolean;
  /** The summarizer model call's tokens and cost, recorded on the entry (pi's branchWithSummary usage). */
  usage?: Usage;
}

/**
 * How the step ended: `ready` (without a summary when none was asked for or the entries hold no message), or the
 * move's own result when it ends here (a hook cancelled, the signal aborted, the summarizer failed).
 */
export type SummaryStepOutcome =
  | { kind: "ready"; summary?: PreparedSummary; label?: string }
  | Extract<TreeMoveResult, { kind: "cancelled" | "aborted" | "failed" }>;

/**
 * Runs the hooks on `preparation` (they may cancel, replace the instructions or the label, or supply the
 * summary), then summarizes `preparation.entriesToSummarize` when `preparation.userWantsSummary`.
 * A failing summarizer is reported as an `error` event (source `summary`) and returned as `failed`.
 */
export async function prepareSummary(
  env: NavigateEnv,
  preparation: TreePreparation,
  signal: AbortSignal,
  extractive: boolean,
): Promise<SummaryStepOutcome> {
  let { customInstructions, replaceInstructions, label } = preparation;
  let hookSummary: { summary: string; details?: unknown; usage?: Usage } | undefined;
  if (env.hooks.has("session_before_tree")) {
    const result = await env.hooks.emitBefore("session_before_tree", {
      type: "session_before_tree",
      preparation,
      model: env.model,
      signal,
    });
    if (result?.cancel) return { kind: "cancelled" };
    if (result?.customInstructions !== undefined) customInstructions = result.customInstructions;
    if (result?.replaceInstructions !== undefined) replaceInstructions = result.replaceInstructions;
    if (result?.label !== undefined) label = result.label;
    if (result?.summary && typeof result.summary.summary === "string") hookSummary = result.summary;
  }
  if (signal.aborted) return { kind: "aborted" };
  if (!preparation.userWantsSummary) return { kind: "ready", label };
  if (hookSummary) return { kind: "ready", summary: { ...hookSummary, fromHook: true }, label };

  const entries = preparation.entriesToSummarize;
  const messages = entriesToMessages(entries);
  // Only a stretch with something the model could have said is worth a summary entry.
  if (messages.length === 0) return { kind: "ready", label };
  try {
    const source = await env.summarySource(extractive);
    const result = await summarize({
      kind: "branch",
      messages,
      fileOps: branchFileOps(entries),
      customInstructions,
      replaceInstructions,
      reserveTokens: env.reserveTokens,
      signal,
      ...source,
    });
    if (signal.aborted) return { kind: "aborted" };
    const summary = { summary: result.summary, details: result.details, fromHook: false, usage: result.usage };
    return { kind: "ready", summary, label };
  } catch (err) {
    if (err instanceof SummaryAbortedError || signal.aborted) return { kind: "aborted" };
    const error = errorText(err);
    env.emit({ type: "error", error, source: "summary" });
    return { kind: "failed", error };
  }
}
