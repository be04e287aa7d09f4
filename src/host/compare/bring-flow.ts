/**
 * "Bring Conclusions Here" from a row of another branch: "Summarize" or "Summarize with focus…", the focus
 * prompt, then — when that branch changed files — "Also bring its file changes?" (bring-files.ts), the cancellable
 * progress while the other branch is summarized, the merge of its files, and the messages afterwards. Pure logic
 * over small interfaces, so it runs under plain Node with a scripted UI, a real AgentSession and real checkpoints.
 *
 * The conversation goes first and the files second, and every question comes before either: a summary that fails
 * or is cancelled changes no file. A merge that fails or is cancelled puts every file back (the engine's journal)
 * and the summary stays — it holds what the branch concluded, which is true whether or not its files came along;
 * the message says the files did not change, and Bring Conclusions Here can be run again for them.
 */
import type { BringConclusionsOptions, BringConclusionsResult } from "../../core/agent/navigate-types.js";
import type { MergeResult } from "../../core/checkpoints/types.js";
import { failedMessage, withFilesLock, type RestoreRun } from "../checkpoints/file-restore.js";
import {
  bringFilesQuestion,
  broughtFilesMessage,
  conflictsOf,
  dirtyOfMerge,
  planBringFiles,
  runBringFiles,
  type BringFilesDeps,
  type BringFilesQuestion,
  type BroughtConflict,
  type PlannedBring,
} from "./bring-files.js";
import { errorText } from "../../core/error-text.js";
import { askFocus, NO_FOCUS } from "../tree/navigate-flow.js";

/** The answer to the first question. */
export type BringChoice = "summarize" | "focus";

/** The answer to "Also bring its file changes?" (Bring Files / Conversation Only); undefined cancels everything. */
export type BringFilesAnswer = "files" | "conversation";

/** The editor UI the flow needs. */
export interface BringUi {
  /** Quick pick: Summarize / Summarize with focus…; undefined when dismissed. */
  pickChoice(): Promise<BringChoice | undefined>;
  /** Input box for the summary's focus; undefined when dismissed. */
  inputFocus(): Promise<string | undefined>;
  /** "Also bring its file changes?" (BRING_FILES_TITLE) with the files; undefined when dismissed (cancel). */
  askFiles(question: BringFilesQuestion): Promise<BringFilesAnswer | undefined>;
  /** The files came along: the message, with "Undo File Restore" and, when there are some, the conflicts to open. */
  filesBrought(message: string, conflicts: readonly BroughtConflict[]): void;
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
  /** The deepest entry on both the path to the leaf and the path to `entryId`. */
  commonAncestor(entryId: string): string | null;
  bringConclusions(entryId: string, options?: BringConclusionsOptions): Promise<BringConclusionsResult>;
}

/** What happened to the other branch's files when the summary was brought. */
export type BroughtFiles =
  /** Nothing to bring (no checkpoints, no change), or the user chose "Conversation Only". */
  | "none"
  | "brought"
  /** The merge was cancelled or failed: every file is as it was. */
  | "cancelled"
  | "failed";

/**
 * How the flow ended: the core's result (a `moved` one says what became of the files too), `onPath` when the node
 * is on the current branch (nothing to bring), or `dismissed` when the user closed a question. Only `moved` changed
 * anything.
 */
export type BringOutcome =
  | Exclude<BringConclusionsResult, { kind: "moved" }>
  | (Extract<BringConclusionsResult, { kind: "moved" }> & { files: BroughtFiles })
  | { kind: "onPath" }
  | { kind: "dismissed" };

/** Shown when the node is on the current branch. */
export const ALREADY_ON_BRANCH = "That node is on the current branch: its conclusions are already here.";
/** Shown after a summary was brought. */
export const BROUGHT_MESSAGE = "Brought the other branch's conclusions here: its summary is now the leaf.";

/**
 * Runs the flow for `entryId` (see the file comment); `files` when the workspace records checkpoints. Never throws:
 * failures become messages.
 */
export async function runBringFlow(
  target: ConclusionsTarget,
  ui: BringUi,
  entryId: string,
  files?: BringFilesDeps,
): Promise<BringOutcome> {
  if (target.isOnCurrentBranch(entryId)) {
    ui.showInfo(ALREADY_ON_BRANCH);
    return { kind: "onPath" };
  }
  const choice = await ui.pickChoice();
  const focus = choice === "focus" ? await askFocus(ui) : NO_FOCUS;
  if (choice === undefined || focus === undefined) return { kind: "dismissed" };
  const { customInstructions } = focus;
  let bring: { deps: BringFilesDeps; planned: PlannedBring; discarded: string[] } | undefined;
  if (files) {
    const asked = await askAboutFiles(target, ui, files, entryId);
    if (asked === "stopped") return { kind: "dismissed" };
    bring = asked;
  }
  ui.setBusy(true, "Summarizing the other branch…");
  let result: BringConclusionsResult;
  try {
    result = await ui.withProgress("Bringing the other branch's conclusions here…", (signal) =>
      target.bringConclusions(entryId, { customInstructions, signal }),
    );
  } catch (e) {
    result = { kind: "failed", error: errorText(e) };
  } finally {
    ui.setBusy(false);
  }
  // A hook's cancel is silent, as for a branch switch.
  if (result.kind === "failed") ui.showError(`Bringing conclusions failed: ${result.error}`);
  if (result.kind !== "moved") return result;
  if (!bring) return { ...result, files: "none" };
  return { ...result, files: await mergeFiles(ui, bring) };
}

/**
 * The questions about the files, before anything is written: the plan, "Also bring its file changes?", and the
 * unsaved editors among the files it would change. Undefined: no files come along; "stopped": cancel everything.
 */
async function askAboutFiles(
  target: ConclusionsTarget,
  ui: BringUi,
  deps: BringFilesDeps,
  entryId: string,
): Promise<{ deps: BringFilesDeps; planned: PlannedBring; discarded: string[] } | undefined | "stopped"> {
  const ancestor = target.commonAncestor(entryId);
  if (ancestor === null) return undefined;
  const planned = await planBringFiles(deps, ancestor, entryId);
  if (planned === undefined || planned === "stopped") return planned;
  const answer = await ui.askFiles(bringFilesQuestion(planned, deps.checkpoints.folders().length > 1));
  if (answer === undefined) return "stopped";
  if (answer === "conversation") return undefined;
  const dirty = dirtyOfMerge(planned);
  if (dirty.length === 0) return { deps, planned, discarded: [] };
  const settle = await deps.ui.askDirty(dirty);
  if (settle === undefined) return "stopped";
  if (settle === "discard") return { deps, planned, discarded: dirty };
  if (await deps.ui.saveDocuments(dirty)) return { deps, planned, discarded: [] };
  ui.showError("Bringing conclusions stopped: a file with unsaved changes could not be saved. Nothing changed.");
  return "stopped";
}

/** The merge after the summary was written; its outcome for BringOutcome. */
async function mergeFiles(
  ui: BringUi,
  bring: { deps: BringFilesDeps; planned: PlannedBring; discarded: string[] },
): Promise<BroughtFiles> {
  const { deps, planned, discarded } = bring;
  ui.setBusy(true, "Bringing the other branch's file changes…");
  let locked: RestoreRun<MergeResult> | "busy";
  try {
    locked = await withFilesLock(deps.lock, ui, "file restore", () => runBringFiles(deps, planned, discarded));
  } finally {
    ui.setBusy(false);
  }
  const run = locked === "busy" ? ({ kind: "cancelled" } as const) : locked;
  if (run.kind === "cancelled") {
    ui.showInfo("Brought the other branch's conclusions; bringing its file changes was cancelled: no file changed.");
    return "cancelled";
  }
  if (run.kind === "failed") {
    ui.showError(failedMessage("Brought the other branch's conclusions, but bringing its file changes failed", run));
    return "failed";
  }
  await deps.ui.revertDocuments(run.discarded);
  ui.filesBrought(broughtFilesMessage(run.results), conflictsOf(run.results, deps.checkpoints.folders().length > 1));
  return "brought";
}
