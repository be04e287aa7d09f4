/**
 * AgentSession.navigateTree (docs/tree-navigation.md, docs/branch-summaries.md): move the leaf within the same
 * file, optionally leaving a summary of the abandoned branch. Nothing is written unless the move succeeds.
 */
import { contentText, repairMessage } from "../messages.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import type { ModelInfo } from "../providers/types.js";
import type { SessionManager } from "../session/session-manager.js";
import type { BranchSummaryEntry, SessionEntry } from "../session/types.js";
import type { AgentEvent } from "./events.js";
import type { TreePreparation } from "../hooks/hook-events.js";
import type { NavigateTreeOptions, TreeMoveResult } from "./navigate-types.js";
import { prepareSummary } from "./summary-step.js";
import type { SummarySource } from "./summary-source.js";

/** What navigateTree needs from the session. */
export interface NavigateEnv {
  sessionManager: SessionManager;
  hooks: HookRunner;
  model?: ModelInfo;
  summarySource: (forceExtractive: boolean) => Promise<SummarySource>;
  reserveTokens: number;
  emit: (event: AgentEvent) => void;
}

/**
 * Selecting a user message (or a custom message) means "edit and resend it": the leaf goes to its
 * parent and its text comes back for the editor. Anything else becomes the leaf itself.
 */
export function selectionTarget(entry: SessionEntry): { newLeafId: string | null; editorText?: string } {
  if (entry.type === "message") {
    const m = repairMessage(entry.message);
    if (m.role === "user" || m.role === "custom")
      return { newLeafId: entry.parentId, editorText: contentText(m.content) };
  }
  if (entry.type === "custom_message") return { newLeafId: entry.parentId, editorText: contentText(entry.content) };
  return { newLeafId: entry.id };
}

/** Implementation of AgentSession.navigateTree (the session checks it is idle first). */
export async function navigateTree(
  env: NavigateEnv,
  targetId: string,
  options: NavigateTreeOptions = {},
): Promise<TreeMoveResult> {
  const sm = env.sessionManager;
  const target = sm.getEntry(targetId);
  if (!target) throw new Error(`Cannot navigate: no entry with id "${targetId}" in this session`);
  const oldLeafId = sm.getLeafId();
  if (targetId === oldLeafId) return { kind: "noop" };

  const { newLeafId, editorText } = selectionTarget(target);
  const signal = options.signal ?? new AbortController().signal;
  const userWantsSummary = options.summarize === true;
  // The branch being left ends at the common ancestor of the old leaf and the *selected* entry (not the leaf it
  // gives): selecting a user message on the current path summarizes what came after it, not the message itself,
  // whose text goes back to the editor. Record-level walks: only the abandoned branch's bodies are loaded.
  const commonAncestorId = oldLeafId ? sm.findCommonAncestor(oldLeafId, targetId) : null;
  const entriesToSummarize = userWantsSummary ? sm.collectEntriesToSummarize(oldLeafId, targetId) : [];

  const preparation: TreePreparation = {
    targetId,
    oldLeafId,
    commonAncestorId,
    entriesToSummarize,
    userWantsSummary,
    customInstructions: options.customInstructions,
    replaceInstructions: options.replaceInstructions,
    label: options.label,
  };
  const step = await prepareSummary(env, preparation, signal, options.extractive === true);
  if (step.kind !== "ready") return step;
  const { summary, label } = step;

  let summaryEntry: BranchSummaryEntry | undefined;
  if (summary) {
    const id = sm.branchWithSummary(
      newLeafId,
      summary.summary,
      summary.details,
      summary.fromHook || undefined,
      summary.usage,
    );
    summaryEntry = sm.getEntry(id) as BranchSummaryEntry | undefined;
    if (label) sm.appendLabelChange(id, label);
  } else {
    if (newLeafId === null) sm.resetLeaf();
    else sm.branch(newLeafId);
    if (label) sm.appendLabelChange(targetId, label);
  }

  await env.hooks.emit("session_tree", {
    type: "session_tree",
    newLeafId: sm.getLeafId(),
    oldLeafId,
    summaryEntry,
    fromHook: summary ? summary.fromHook : undefined,
  });

  const out: TreeMoveResult = { kind: "moved" };
  if (editorText !== undefined) out.editorText = editorText;
  if (summaryEntry) out.summaryEntry = summaryEntry;
  return out;
}
