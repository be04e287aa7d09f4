/**
 * "Bring Conclusions Here" from a row of another branch: "Summarize" or "Summarize with focus…", the focus
 * prompt, the cancellable progress while the other branch is summarized, and the messages afterwards. Pure logic
 * over two small interfaces, so it runs under plain Node with a scripted UI and a real AgentSession.
 */
import type { BringConclusionsOptions, BringConclusionsResult } from "../../core/agent/navigate-types.js";

/** The answer to the first question. */
export type BringChoice = "summarize" | "focus";

/** The editor UI the flow needs. */
export interface BringUi {
  /** Quick pick: Summarize / Summarize with focus…; undefined when dismissed. */
  pickChoice(): Promise<BringChoice | undefined>;
  /** Input box for the summary's focus; undefined when dismissed. */
  inputFocus(): Promise<string | undefined>;
  /** Run `task` under a cancellable progress notification; cancelling aborts the signal. */
  withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  showError(message: string): void;
  showInfo(message: string): void;
  /** The tree disables clicks while the summary is written. */
  setBusy(busy: boolean, message?: string): void;
}

/** The part of the session the flow uses. */
export interface ConclusionsTarget {
  /** True when the node is on the path to the leaf (its conclusions are already here). */
  isOnCurrentBranch(entryId: string): boolean;
  bringConclusions(entryId: string, options?: BringConclusionsOptions): Promise<BringConclusionsResult>;
}

/**
 * How the flow ended: the core's result, `onPath` when the node is on the current branch (nothing to bring), or
 * `dismissed` when the user closed a question. Only `moved` changed anything.
 */
export type BringOutcome = BringConclusionsResult | { kind: "onPath" } | { kind: "dismissed" };

/** Shown when the node is on the current branch. */
export const ALREADY_ON_BRANCH = "That node is on the current branch: its conclusions are already here.";
/** Shown after a summary was brought. */
export const BROUGHT_MESSAGE = "Brought the other branch's conclusions here: its summary is now the leaf.";

/** Runs the flow for `entryId` (see the file comment). Never throws: failures become messages, nothing written. */
export async function runBringFlow(target: ConclusionsTarget, ui: BringUi, entryId: string): Promise<BringOutcome> {
  if (target.isOnCurrentBranch(entryId)) {
    ui.showInfo(ALREADY_ON_BRANCH);
    return { kind: "onPath" };
  }
  const choice = await ui.pickChoice();
  if (choice === undefined) return { kind: "dismissed" };
  let customInstructions: string | undefined;
  if (choice === "focus") {
    const focus = await ui.inputFocus();
    if (focus === undefined) return { kind: "dismissed" };
    customInstructions = focus.trim() || undefined;
  }
  ui.setBusy(true, "Summarizing the other branch…");
  let result: BringConclusionsResult;
  try {
    result = await ui.withProgress("Bringing the other branch's conclusions here…", (signal) =>
      target.bringConclusions(entryId, { customInstructions, signal }),
    );
  } catch (e) {
    result = { kind: "failed", error: e instanceof Error ? e.message : String(e) };
  } finally {
    ui.setBusy(false);
  }
  // A hook's cancel is silent, as for a branch switch.
  if (result.kind === "failed") ui.showError(`Bringing conclusions failed: ${result.error}`);
  return result;
}
