/**
 * The BringUi of bring-flow.ts in VS Code: its own questions (the summary choice, the focus prompt, "Also bring its
 * file changes?"); progress, messages and the busy state are the branch switch's (vscode-navigate-ui.ts); the
 * message after the files came along is the checkpoint actions' (it offers Undo File Restore and the conflicts).
 */
import * as vscode from "vscode";
import { inputSummaryFocus, vscodeNavigateUi } from "../tree/vscode-navigate-ui.js";
import { BRING_FILES_TITLE, type BringFilesQuestion, type BroughtConflict } from "./bring-files.js";
import type { BringChoice, BringUi } from "./bring-flow.js";

/** The buttons of "Also bring its file changes?" (the names users see in the docs). */
export const BRING_FILES_CHOICE = "Bring Files";
export const CONVERSATION_ONLY_CHOICE = "Conversation Only";

/**
 * A modal question about files a merge would change, with the list (Bring Conclusions Here, Adopt This Branch):
 * the button picked, or undefined when dismissed (Cancel).
 */
export async function askFilesModal(
  title: string,
  question: BringFilesQuestion,
  ...buttons: string[]
): Promise<string | undefined> {
  const detail = [question.summary, "", ...question.lines].join("\n");
  return vscode.window.showInformationMessage(title, { modal: true, detail }, ...buttons);
}

interface ChoiceItem extends vscode.QuickPickItem {
  choice: BringChoice;
}

const CHOICES: ChoiceItem[] = [
  { label: "Summarize", description: "Summarize that branch and add the summary here", choice: "summarize" },
  { label: "Summarize with focus…", description: "Say what the summary should focus on", choice: "focus" },
];

/**
 * Builds the VS Code UI for one run; `setBusy` and `status` go to the webviews, `filesBrought` shows the message
 * after a merge.
 */
export function vscodeBringUi(
  setBusy: (busy: boolean, message?: string) => void,
  status: (text: string, kind: "info" | "error") => void,
  filesBrought: (message: string, conflicts: readonly BroughtConflict[]) => void,
): BringUi {
  const { withProgress, showError, showInfo } = vscodeNavigateUi(setBusy, status);
  return {
    async pickChoice() {
      const item = await vscode.window.showQuickPick(CHOICES, {
        title: "Bring Conclusions Here",
        placeHolder: "Summarize the other branch (up to the selected node) and add it to this one",
      });
      return item?.choice;
    },
    inputFocus: () =>
      inputSummaryFocus("Bring Conclusions Here: Summarize with focus", "e.g. what worked, and the decisions to keep"),
    async askFiles(q) {
      const pick = await askFilesModal(BRING_FILES_TITLE, q, BRING_FILES_CHOICE, CONVERSATION_ONLY_CHOICE);
      return pick === BRING_FILES_CHOICE ? "files" : pick === CONVERSATION_ONLY_CHOICE ? "conversation" : undefined;
    },
    filesBrought,
    withProgress,
    showError,
    showInfo,
    setBusy,
  };
}
