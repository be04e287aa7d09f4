/**
 * Restoring the workspace's files to a point of the session, as the user sees it: the question with the list of
 * files that would change, the unsaved-editor check (save and include / discard / cancel), the cancellable
 * progress, and the message with "Undo File Restore" afterwards. Used by the branch switch (restore-on-switch.ts),
 * the row's "Restore Files to This Point" and "Undo File Restore". Pure: the editor comes in as a RestoreUi.
 */
import path from "node:path";
import {
  CheckpointAbortedError,
  DirtyFilesError,
  NothingToUndoError,
  RestoreFailedError,
} from "../../core/checkpoints/errors.js";
import { restoreTargetsFor, type CheckpointSessionView } from "../../core/checkpoints/session-link.js";
import type { RestoreChange, RestoreOptions, RestorePlan, RestoreResult } from "../../core/checkpoints/types.js";
import type { FolderTarget, WorkspaceCheckpoints } from "../../core/checkpoints/workspace-checkpoints.js";
import { filesBusyText, type FilesLock } from "../common/files-lock.js";
import { errorText } from "../../core/error-text.js";

/** Title of the question before a restore (and its button). */
export const RESTORE_TITLE = "Restore files to this point?";

/** The question before a restore (titled RESTORE_TITLE). */
export interface RestoreQuestion {
  /** "N files would change" and, when some are open with unsaved changes, how many. */
  summary: string;
  /** One line per file, at most MAX_LISTED_LINES, then "… and N more". */
  lines: string[];
  /** Offer "Keep current files" (a branch switch goes on without restoring). */
  offerKeep: boolean;
}

/** The answer to a RestoreQuestion; undefined means cancel everything. */
export type RestoreAnswer = "restore" | "keep";

/** The answer about unsaved files a restore would overwrite; undefined means cancel. */
export type DirtyAnswer = "save" | "discard";

/** The editor UI of restores (src/host/checkpoints/vscode-restore-ui.ts; a fake in tests). */
export interface RestoreUi {
  /** Absolute paths of the files open in an editor with unsaved changes. */
  dirtyPaths(): string[];
  confirmRestore(question: RestoreQuestion): Promise<RestoreAnswer | undefined>;
  /** `paths` (absolute) have unsaved changes the restore would overwrite. */
  askDirty(paths: readonly string[]): Promise<DirtyAnswer | undefined>;
  /** Saves the open documents of `paths`; false when one could not be saved. */
  saveDocuments(paths: readonly string[]): Promise<boolean>;
  /** Drops the unsaved changes of the open documents of `paths`, so they show the files on disk. */
  revertDocuments(paths: readonly string[]): Promise<void>;
  /** Runs `task` under a progress notification; a cancellable one aborts the signal on Cancel. */
  withProgress<T>(title: string, cancellable: boolean, task: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** A restore happened: the message, with an "Undo File Restore" action. */
  restored(message: string): void;
  showInfo(message: string): void;
  showError(message: string): void;
}

/** At most this many files are listed in the question. */
export const MAX_LISTED_LINES = 15;

/** Results of a restore (or a merge: `R` = MergeResult) of several folders. */
export type FolderResults<R extends RestoreResult = RestoreResult> = (R & { folder: string })[];

/** How a restore ended. `discarded`: files whose unsaved editor changes the user let go (to revert). */
export type RestoreRun<R extends RestoreResult = RestoreResult> =
  | { kind: "restored"; results: FolderResults<R>; discarded: string[] }
  | { kind: "cancelled" }
  /** `error`: what was thrown, if anything; `unchanged`: every file is as it was (the engine rolled back). */
  | { kind: "failed"; message: string; error?: unknown; unchanged: boolean };

const ACTION_WORDS: Record<RestoreChange["action"], string> = {
  create: "brought back",
  modify: "changed back",
  delete: "removed",
};

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** The number of files a set of plans or results changes. */
export function changedCount(items: readonly { changes: readonly RestoreChange[] }[]): number {
  return items.reduce((n, p) => n + p.changes.length, 0);
}

/** The question for restoring `plans` (folder names prefix the paths in a multi-root workspace). */
export function restoreQuestion(
  plans: readonly (RestorePlan & { folder: string })[],
  multiRoot: boolean,
  offerKeep: boolean,
): RestoreQuestion {
  const all = plans.flatMap((p) =>
    p.changes.map((c) => `${multiRoot ? `${path.basename(p.folder)}/` : ""}${c.path} (${ACTION_WORDS[c.action]})`),
  );
  const lines = all.slice(0, MAX_LISTED_LINES);
  if (all.length > lines.length) lines.push(`… and ${all.length - lines.length} more`);
  const dirty = plans.reduce((n, p) => n + p.dirty.length, 0);
  const unsaved = dirty > 0 ? ` ${plural(dirty, "of them has", "of them have")} unsaved changes in an editor.` : "";
  return {
    summary: `${plural(all.length, "file")} would change.${unsaved}`,
    lines,
    offerKeep,
  };
}

/** The absolute paths of the unsaved files the plans would change. */
export function dirtyOf(plans: readonly (RestorePlan & { folder: string })[]): string[] {
  return plans.flatMap((p) => p.dirty.map((d) => path.join(p.folder, d)));
}

/**
 * Plans a restore under a cancellable progress (it checkpoints the current files first, which takes a moment
 * the first time). Undefined when cancelled or failed (a failure is shown).
 */
export async function planWithProgress(
  ui: RestoreUi,
  checkpoints: WorkspaceCheckpoints,
  targets: readonly FolderTarget[],
): Promise<(RestorePlan & { folder: string })[] | undefined> {
  try {
    return await ui.withProgress("Comparing the workspace files with this point…", true, (signal) =>
      checkpoints.planRestore(targets, { dirtyPaths: ui.dirtyPaths(), signal }),
    );
  } catch (e) {
    if (!(e instanceof CheckpointAbortedError))
      ui.showError(`Cannot compare the files with this point: ${errorText(e)}`);
    return undefined;
  }
}

/**
 * Runs a restore (`run`; a merge is one too) under a cancellable progress without ever overwriting unsaved editor
 * changes silently: when the restore would change a file with unsaved changes (`knownDirty`, asked before
 * starting, or the engine's DirtyFilesError), the user chooses to save and include them (the pre-restore
 * checkpoint then holds them, so Undo brings them back), to discard them, or to cancel. `discarded`: files whose
 * unsaved changes the user already let go. A cancel or failure leaves every file as it was.
 */
export async function runRestore<R extends RestoreResult = RestoreResult>(
  ui: RestoreUi,
  title: string,
  run: (options: RestoreOptions) => Promise<FolderResults<R>>,
  knownDirty: readonly string[] = [],
  alreadyDiscarded: readonly string[] = [],
): Promise<RestoreRun<R>> {
  let discarded: string[] = [...alreadyDiscarded];
  let discard = discarded.length > 0;
  let pending: readonly string[] = knownDirty;
  // Each round either restores or settles what is unsaved; a user who keeps editing is asked a few times at most.
  for (let round = 0; round < 4; round++) {
    if (pending.length > 0) {
      const answer = await ui.askDirty(pending);
      if (answer === undefined) return { kind: "cancelled" };
      if (answer === "save") {
        if (!(await ui.saveDocuments(pending)))
          return { kind: "failed", message: "a file with unsaved changes could not be saved", unchanged: true };
      } else {
        discarded = [...new Set([...discarded, ...pending])];
        discard = true;
      }
      pending = [];
    }
    try {
      const results = await ui.withProgress(title, true, (signal) =>
        run({ dirtyPaths: ui.dirtyPaths(), discardDirty: discard, signal }),
      );
      return { kind: "restored", results, discarded };
    } catch (e) {
      if (e instanceof DirtyFilesError) pending = e.paths;
      else if (e instanceof CheckpointAbortedError) return { kind: "cancelled" };
      else {
        const unchanged = !(e instanceof RestoreFailedError) || e.rolledBack;
        return { kind: "failed", message: errorText(e), error: e, unchanged };
      }
    }
  }
  return { kind: "failed", message: "files kept getting unsaved changes", unchanged: true };
}

/** What the row and palette actions need (and the files part of Bring Conclusions Here). */
export interface FileRestoreDeps {
  view: CheckpointSessionView;
  checkpoints: WorkspaceCheckpoints;
  ui: RestoreUi;
  /** The window's one lock on the workspace's files: taken for the whole restore. */
  lock: FilesLock;
}

/**
 * Runs a file-changing `task` holding the files lock; when another operation holds it, says so and returns
 * "busy" (nothing ran).
 */
export async function withFilesLock<T>(
  lock: FilesLock,
  ui: Pick<RestoreUi, "showInfo">,
  what: string,
  task: () => Promise<T>,
): Promise<T | "busy"> {
  const r = await lock.run(what, task);
  if (r.ran) return r.value;
  ui.showInfo(filesBusyText(r.heldBy));
  return "busy";
}

/** The message after restoring `n` files. */
export function restoredMessage(n: number, what = "Restored"): string {
  return `${what} ${plural(n, "file")} to this point.`;
}

/**
 * "Restore Files to This Point": the files of entry `entryId`, asked with the list of changes, without moving
 * the conversation. Returns the run's kind ("nothing" when there is nothing to restore).
 */
export function restoreFilesTo(d: FileRestoreDeps, entryId: string): Promise<RestoreRun["kind"] | "nothing" | "busy"> {
  return withFilesLock(d.lock, d.ui, "file restore", () => restoreLocked(d, entryId));
}

async function restoreLocked(d: FileRestoreDeps, entryId: string): Promise<RestoreRun["kind"] | "nothing"> {
  const { ui, checkpoints } = d;
  const targets = restoreTargetsFor(d.view, entryId, checkpoints.folders());
  if (targets.length === 0) {
    ui.showInfo("No files were recorded at this point (files are recorded from the first prompt on).");
    return "nothing";
  }
  const plans = await planWithProgress(ui, checkpoints, targets);
  if (!plans) return "cancelled";
  if (changedCount(plans) === 0) {
    ui.showInfo("The files already match this point.");
    return "nothing";
  }
  const answer = await ui.confirmRestore(restoreQuestion(plans, checkpoints.folders().length > 1, false));
  if (answer !== "restore") return "cancelled";
  const run = await runRestore(ui, "Restoring files…", (o) => checkpoints.restore(targets, o), dirtyOf(plans));
  await finish(ui, run, "Restoring files failed");
  return run.kind;
}

/** "Undo File Restore": puts back the files the last restore replaced (undoing again goes forward again). */
export function undoFileRestore(
  ui: RestoreUi,
  checkpoints: WorkspaceCheckpoints,
  lock: FilesLock,
): Promise<RestoreRun["kind"] | "nothing" | "busy"> {
  return withFilesLock(lock, ui, "file restore", () => undoLocked(ui, checkpoints));
}

async function undoLocked(ui: RestoreUi, checkpoints: WorkspaceCheckpoints): Promise<RestoreRun["kind"] | "nothing"> {
  const run = await runRestore(ui, "Undoing the file restore…", (o) => checkpoints.undoRestore(o));
  if (run.kind === "failed" && run.error instanceof NothingToUndoError) {
    ui.showInfo("There is no file restore to undo.");
    return "nothing";
  }
  await finish(ui, run, "Undoing the file restore failed", "Undid the file restore:");
  return run.kind;
}

/** The error message of a failed restore, saying whether the files are as they were. */
export function failedMessage(failure: string, run: Extract<RestoreRun<RestoreResult>, { kind: "failed" }>): string {
  return `${failure}: ${run.message}${run.unchanged ? ". No file was changed." : ""}`;
}

/** Says how a restore ended and lets discarded editors show the restored files. */
async function finish(ui: RestoreUi, run: RestoreRun, failure: string, done?: string): Promise<void> {
  if (run.kind === "failed") ui.showError(failedMessage(failure, run));
  if (run.kind !== "restored") return;
  await ui.revertDocuments(run.discarded);
  const n = changedCount(run.results);
  ui.restored(done ? `${done} ${plural(n, "file")} put back.` : restoredMessage(n));
}
