/**
 * The BringUi of bring-flow.ts in VS Code: its own question and focus prompt; progress, messages and the busy
 * state are the branch switch's (vscode-navigate-ui.ts).
 */
import * as vscode from "vscode";
import { vscodeNavigateUi } from "../vscode-navigate-ui.js";
import type { BringChoice, BringUi } from "./bring-flow.js";

interface ChoiceItem extends vscode.QuickPickItem {
  choice: BringChoice;
}

const CHOICES: ChoiceItem[] = [
  { label: "Summarize", description: "Summarize that branch and add the summary here", choice: "summarize" },
  { label: "Summarize with focus…", description: "Say what the summary should focus on", choice: "focus" },
];

/** Builds the VS Code UI for one run; `setBusy` and `status` go to the webviews. */
export function vscodeBringUi(
  setBusy: (busy: boolean, message?: string) => void,
  status: (text: string, kind: "info" | "error") => void,
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
    async inputFocus() {
      return vscode.window.showInputBox({
        title: "Bring Conclusions Here: Summarize with focus",
        prompt: "What should the summary focus on? (appended to the default instructions)",
        placeHolder: "e.g. what worked, and the decisions to keep",
      });
    },
    withProgress,
    showError,
    showInfo,
    setBusy,
  };
}
