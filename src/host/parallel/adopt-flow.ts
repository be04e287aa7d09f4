/**
 * The files part of **Adopt This Branch** (docs/parallel.md): the branch's file changes, from the node it started
 * at to its newest entry, planned with the three-way merge of Bring Conclusions Here (bring-files.ts), listed —
 * each file and what would happen to it, as Bring Conclusions Here lists them — and brought in only when the user
 * agrees; then run like that merge (the files lock, unsaved editors, all or nothing, Undo File Restore). Nothing is
 * written before the answer. Pure: the editor comes in as an AdoptUi.
 */
import type { RestoreUi } from "../checkpoints/file-restore.js";
import { failedMessage, withFilesLock } from "../checkpoints/file-restore.js";
import {
  bringFilesQuestion,
  broughtFilesMessage,
  conflictsOf,
  planBringFiles,
  runBringFiles,
  type BringFilesDeps,
  type BringFilesQuestion,
  type BroughtConflict,
} from "../compare/bring-files.js";

/** Title of the question. */
export const ADOPT_FILES_TITLE = "Adopt This Branch: bring its file changes into your workspace?";

/** The editor UI the files part needs. */
export interface AdoptUi extends Pick<RestoreUi, "showInfo"> {
  /** The question (ADOPT_FILES_TITLE) with the files it would change; true: adopt, false: cancel. */
  confirmFiles(question: BringFilesQuestion): Promise<boolean>;
  /** A status line (the outcome, or why nothing changed). */
  status(text: string, kind?: "info" | "error"): void;
}

/**
 * How it ended: `none` (the branch changed no file that is not already here: nothing asked, nothing written),
 * `brought` (with the message and conflicts for the checkpoint actions), or `stopped` (cancelled, busy or failed:
 * said, and no file changed).
 */
export type AdoptFilesOutcome =
  { kind: "none" } | { kind: "brought"; message: string; conflicts: BroughtConflict[] } | { kind: "stopped" };

/** Plans, lists, asks, then brings the branch's files (`nodeId` → `tipId`); see the file comment. */
export async function adoptBranchFiles(
  files: BringFilesDeps,
  nodeId: string,
  tipId: string,
  ui: AdoptUi,
): Promise<AdoptFilesOutcome> {
  const planned = await planBringFiles(files, nodeId, tipId);
  if (planned === "stopped") return { kind: "stopped" };
  if (planned === undefined) return { kind: "none" };
  const multiRoot = files.checkpoints.folders().length > 1;
  if (!(await ui.confirmFiles(bringFilesQuestion(planned, multiRoot)))) {
    ui.status("Adopt cancelled; nothing changed.");
    return { kind: "stopped" };
  }
  // The files lock, as Bring Conclusions Here takes it: no file restore writes the same files meanwhile.
  const merged = await withFilesLock(files.lock, ui, "branch adoption", () => runBringFiles(files, planned, []));
  if (merged === "busy") return { kind: "stopped" };
  if (merged.kind === "cancelled") {
    ui.status("Adopt cancelled; nothing changed.");
    return { kind: "stopped" };
  }
  if (merged.kind === "failed") {
    ui.status(failedMessage("Adopting the branch's files failed", merged), "error");
    return { kind: "stopped" };
  }
  return {
    kind: "brought",
    message: broughtFilesMessage(merged.results),
    conflicts: conflictsOf(merged.results, multiRoot),
  };
}
