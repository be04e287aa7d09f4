/**
 * The RestoreUi of file-restore.ts in VS Code: modal questions whose detail lists the files, unsaved documents
 * from `workspace.textDocuments`, cancellable progress notifications, and "Undo File Restore" on the message
 * after a restore.
 */
import * as vscode from "vscode";
import { RESTORE_TITLE, type RestoreUi } from "./file-restore.js";

/** The buttons of the restore question (the names users see in the docs). */
export const RESTORE_CHOICE = "Restore files to this point";
export const KEEP_CHOICE = "Keep current files";
/** The buttons of the unsaved-files question. */
export const SAVE_CHOICE = "Save and Include";
export const DISCARD_CHOICE = "Discard Changes";
/** The action on the message after a restore (the command's title). */
export const UNDO_CHOICE = "Undo File Restore";

/** Open documents of `paths` (absolute file paths). */
function documentsOf(paths: readonly string[]): vscode.TextDocument[] {
  const wanted = new Set(paths);
  return vscode.workspace.textDocuments.filter((d) => d.uri.scheme === "file" && wanted.has(d.uri.fsPath));
}

/** Builds the UI; `undoCommand` runs Undo File Restore, `status` mirrors messages into the views. */
export function vscodeRestoreUi(
  undoCommand: string,
  status: (text: string, kind: "info" | "error") => void,
): RestoreUi {
  return {
    dirtyPaths() {
      return vscode.workspace.textDocuments
        .filter((d) => d.isDirty && d.uri.scheme === "file")
        .map((d) => d.uri.fsPath);
    },
    async confirmRestore(q) {
      const choices = q.offerKeep ? [RESTORE_CHOICE, KEEP_CHOICE] : [RESTORE_CHOICE];
      const detail = [q.summary, "", ...q.lines].join("\n");
      const pick = await vscode.window.showInformationMessage(RESTORE_TITLE, { modal: true, detail }, ...choices);
      return pick === RESTORE_CHOICE ? "restore" : pick === KEEP_CHOICE ? "keep" : undefined;
    },
    async askDirty(paths) {
      const names = paths.map((p) => vscode.workspace.asRelativePath(p));
      const pick = await vscode.window.showWarningMessage(
        paths.length === 1
          ? "A file the restore would change has unsaved changes."
          : `${paths.length} files the restore would change have unsaved changes.`,
        {
          modal: true,
          detail:
            `${names.join("\n")}\n\n${SAVE_CHOICE}: save them first, so Undo File Restore brings them back.\n` +
            `${DISCARD_CHOICE}: drop the unsaved changes.`,
        },
        SAVE_CHOICE,
        DISCARD_CHOICE,
      );
      return pick === SAVE_CHOICE ? "save" : pick === DISCARD_CHOICE ? "discard" : undefined;
    },
    async saveDocuments(paths) {
      for (const doc of documentsOf(paths)) if (doc.isDirty && !(await doc.save())) return false;
      return true;
    },
    async revertDocuments(paths) {
      // VS Code reverts the active editor only: show each document, then revert it (it reloads from disk).
      for (const doc of documentsOf(paths)) {
        if (!doc.isDirty) continue;
        await vscode.window.showTextDocument(doc, { preview: false, preserveFocus: true });
        await vscode.commands.executeCommand("workbench.action.files.revert");
      }
    },
    async withProgress<T>(title: string, cancellable: boolean, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
      return vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable },
        (_progress, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          return task(controller.signal).finally(() => sub.dispose());
        },
      );
    },
    restored(message) {
      status(message, "info");
      void vscode.window.showInformationMessage(message, UNDO_CHOICE).then((pick) => {
        if (pick === UNDO_CHOICE) void vscode.commands.executeCommand(undoCommand);
      });
    },
    showInfo(message) {
      status(message, "info");
      void vscode.window.showInformationMessage(message);
    },
    showError(message) {
      status(message, "error");
      void vscode.window.showErrorMessage(message);
    },
  };
}
