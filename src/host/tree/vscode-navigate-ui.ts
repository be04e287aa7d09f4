/** The NavigateUi of navigate-flow.ts in VS Code: quick pick, input box, cancellable progress. */
import * as vscode from "vscode";
import type { NavigateUi, SummaryChoice } from "./navigate-flow.js";

interface ChoiceItem extends vscode.QuickPickItem {
  choice: SummaryChoice;
}

const CHOICES: ChoiceItem[] = [
  { label: "No summary", description: "Switch immediately", choice: "none" },
  { label: "Summarize", description: "Carry a summary of the branch you leave", choice: "summarize" },
  { label: "Summarize with custom prompt…", description: "Say what the summary should focus on", choice: "custom" },
];

/** The input box for a summary's focus, with the title and example of the command that asks. */
export async function inputSummaryFocus(title: string, placeHolder: string): Promise<string | undefined> {
  return vscode.window.showInputBox({
    title,
    prompt: "What should the summary focus on? (appended to the default instructions)",
    placeHolder,
  });
}

/** Builds the VS Code UI for one navigation; `setBusy` and `status` go to the webviews. */
export function vscodeNavigateUi(
  setBusy: (busy: boolean, message?: string) => void,
  status: (text: string, kind: "info" | "error") => void,
): NavigateUi {
  return {
    async pickSummaryChoice() {
      const item = await vscode.window.showQuickPick(CHOICES, {
        title: "Summarize the branch you're leaving?",
        placeHolder: "Summarize the branch you're leaving?",
        ignoreFocusOut: false,
      });
      return item?.choice;
    },
    inputFocus: () => inputSummaryFocus("Summarize with custom prompt", "e.g. the API decisions and open questions"),
    async withProgress<T>(title: string, task: (signal: AbortSignal) => Promise<T>): Promise<T> {
      return vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title, cancellable: true },
        (_progress, token) => {
          const controller = new AbortController();
          const sub = token.onCancellationRequested(() => controller.abort());
          return task(controller.signal).finally(() => sub.dispose());
        },
      );
    },
    showError(message) {
      void vscode.window.showErrorMessage(message);
      status(message, "error");
    },
    showInfo(message) {
      void vscode.window.showInformationMessage(message);
      status(message, "info");
    },
    setBusy,
  };
}
