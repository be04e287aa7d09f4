/**
 * The files part of "Bring Conclusions Here": the other branch's file changes — from the files at the common
 * ancestor to the files at the selected node, in every workspace folder that recorded both — merged three-way into
 * the workspace's files as they are now (see src/core/checkpoints/merge.ts). Here: planning it (what would happen
 * to each file, for the question), the question's text, running the merge like a restore (unsaved editors asked
 * about, cancellable, all or nothing, Undo File Restore reverts it), the message afterwards, and the conflicts to
 * open. Pure: the editor comes in as a RestoreUi.
 */
import path from "node:path";
import { CheckpointAbortedError } from "../../core/checkpoints/errors.js";
import { mergeTargetsFor } from "../../core/checkpoints/session-link.js";
import { CONFLICT_OUTCOMES, type MergedFile, type MergePlan, type MergeResult } from "../../core/checkpoints/types.js";
import type { FolderMergeTarget } from "../../core/checkpoints/workspace-checkpoints.js";
import { MAX_LISTED_LINES, runRestore, type FileRestoreDeps, type RestoreRun } from "../checkpoints/file-restore.js";
import { errorText } from "../../core/error-text.js";

/** What the files part needs: what a file restore needs (the files lock included). */
export type BringFilesDeps = FileRestoreDeps;

/** A planned merge: where from, and what it would do in each folder. */
export interface PlannedBring {
  targets: FolderMergeTarget[];
  plans: (MergePlan & { folder: string })[];
}

/** A file the merge could not bring in cleanly, with the checkpoints that show its three versions. */
export interface BroughtConflict {
  folder: string;
  /** Folder-relative. */
  path: string;
  /** As the message lists it (with the folder's name in a multi-root workspace). */
  shown: string;
  outcome: MergedFile["outcome"];
  baseId: string;
  theirsId: string;
  /** The files before the merge ("current" in the merge editor). */
  beforeId: string;
}

/** The question's text (titled BRING_FILES_TITLE). */
export interface BringFilesQuestion {
  summary: string;
  /** One line per file, at most MAX_LISTED_LINES, then "… and N more". */
  lines: string[];
}

/** Title of the question after the summary choice. */
export const BRING_FILES_TITLE = "Also bring its file changes?";

const CHANGE_WORDS: Record<MergedFile["change"], string> = {
  added: "added",
  modified: "changed",
  deleted: "deleted",
  renamed: "renamed",
  "type-changed": "changed",
};

/** How the question and the message describe what happens to a file. */
function outcomeWords(f: MergedFile): string {
  switch (f.outcome) {
    case "applied":
      return CHANGE_WORDS[f.change];
    case "merged":
      return "merged with your changes";
    case "conflict":
      return "conflict: both changed it";
    case "binary":
      return "conflict: binary, yours kept";
    case "deleted-modified":
      return "conflict: deleted on one side, the changed file kept";
    case "blocked":
      return "skipped: your files are in the way";
  }
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

function prefixOf(folder: string, multiRoot: boolean): string {
  return multiRoot ? `${path.basename(folder)}/` : "";
}

/** True for an outcome that needs the user's attention. */
export function isConflict(f: MergedFile): boolean {
  return CONFLICT_OUTCOMES.includes(f.outcome);
}

/**
 * Plans the merge of the other branch's files (`ancestorId` → `sourceId`) under a cancellable progress.
 * Undefined when there is nothing to bring (no checkpoints at both points, or every change is here already);
 * "stopped" when the user cancelled or it failed (the failure is shown).
 */
export async function planBringFiles(
  d: BringFilesDeps,
  ancestorId: string,
  sourceId: string,
): Promise<PlannedBring | undefined | "stopped"> {
  const targets = mergeTargetsFor(d.view, ancestorId, sourceId, d.checkpoints.folders());
  if (targets.length === 0) return undefined;
  try {
    const plans = await d.ui.withProgress("Comparing the other branch's files with yours…", true, (signal) =>
      d.checkpoints.planMerge(targets, { dirtyPaths: d.ui.dirtyPaths(), signal }),
    );
    return plans.some((p) => p.files.length > 0) ? { targets, plans } : undefined;
  } catch (e) {
    if (!(e instanceof CheckpointAbortedError))
      d.ui.showError(`Cannot compare the other branch's files with yours: ${errorText(e)}`);
    return "stopped";
  }
}

/** The question for a planned merge. */
export function bringFilesQuestion(planned: PlannedBring, multiRoot: boolean): BringFilesQuestion {
  const files = planned.plans.flatMap((p) => p.files.map((f) => ({ f, prefix: prefixOf(p.folder, multiRoot) })));
  const all = files.map(({ f, prefix }) => `${prefix}${f.path} (${outcomeWords(f)})`);
  const lines = all.slice(0, MAX_LISTED_LINES);
  if (all.length > lines.length) lines.push(`… and ${all.length - lines.length} more`);
  const conflicts = files.filter(({ f }) => isConflict(f)).length;
  const dirty = planned.plans.reduce((n, p) => n + p.dirty.length, 0);
  const parts = [`That branch changed ${plural(files.length, "file")} since the common ancestor.`];
  if (conflicts > 0)
    parts.push(
      `${plural(conflicts, "of them conflicts", "of them conflict")} with your files: ` +
        "the other branch's version does not go in cleanly there.",
    );
  if (dirty > 0) parts.push(`${plural(dirty, "of them has", "of them have")} unsaved changes in an editor.`);
  return { summary: parts.join(" "), lines };
}

/** The absolute paths of the unsaved files the planned merge would change. */
export function dirtyOfMerge(planned: PlannedBring): string[] {
  return planned.plans.flatMap((p) => p.dirty.map((d) => path.join(p.folder, d)));
}

/**
 * Merges the planned targets into the files as they are now (planned again at that moment: the files may have
 * changed meanwhile), under a cancellable progress, asking about unsaved files the user has not settled yet.
 */
export function runBringFiles(
  d: BringFilesDeps,
  planned: PlannedBring,
  discarded: readonly string[],
): Promise<RestoreRun<MergeResult>> {
  return runRestore(
    d.ui,
    "Bringing the other branch's file changes…",
    (o) => d.checkpoints.merge(planned.targets, o),
    [],
    discarded,
  );
}

/** The files the merge did not bring in cleanly. */
export function conflictsOf(
  results: readonly (MergeResult & { folder: string })[],
  multiRoot: boolean,
): BroughtConflict[] {
  return results.flatMap((r) =>
    r.files.filter(isConflict).map((f) => ({
      folder: r.folder,
      path: f.path,
      shown: `${prefixOf(r.folder, multiRoot)}${f.path} (${outcomeWords(f)})`,
      outcome: f.outcome,
      baseId: r.baseId,
      theirsId: r.theirsId,
      beforeId: r.beforeId,
    })),
  );
}

/** The message after the merge: how many files it changed and how many need attention. */
export function broughtFilesMessage(results: readonly (MergeResult & { folder: string })[]): string {
  const files = results.flatMap((r) => r.files);
  const written = results.reduce((n, r) => n + r.changes.length, 0);
  const merged = files.filter((f) => f.outcome === "merged").length;
  const conflicts = files.filter(isConflict).length;
  const text = [`Brought the other branch's conclusions and its file changes here: ${plural(written, "file")} changed`];
  if (merged > 0) text.push(`, ${merged} merged with your changes`);
  text.push(".");
  if (conflicts > 0) text.push(` ${plural(conflicts, "file needs", "files need")} your attention (conflicts).`);
  return text.join("");
}
