/** The VS Code side of pi's slash commands (pi-commands.ts): the questions, the `/session` document, the clipboard. */
import * as vscode from "vscode";
import { pickValue } from "../common/pick-value.js";
import type { PiCommandDeps } from "./pi-commands.js";

/** The read-only documents `/session` opens. */
export const SESSION_INFO_SCHEME = "agent-tree-session-info";

/** The VS Code side of the actions' questions and documents (the rest of PiCommandDeps comes from the features). */
export function vscodePiCommandUi(): Pick<
  PiCommandDeps,
  "confirmOverwrite" | "showDocument" | "pickUserMessage" | "clipboard" | "executeCommand"
> & { register(): vscode.Disposable } {
  const texts = new Map<string, string>();
  let seq = 0;
  return {
    register: () =>
      vscode.Disposable.from(
        vscode.workspace.registerTextDocumentContentProvider(SESSION_INFO_SCHEME, {
          provideTextDocumentContent: (uri) => texts.get(uri.toString()) ?? "",
        }),
        vscode.workspace.onDidCloseTextDocument((doc) => {
          if (doc.uri.scheme === SESSION_INFO_SCHEME) texts.delete(doc.uri.toString());
        }),
      ),
    confirmOverwrite: async (file) =>
      (await vscode.window.showWarningMessage(`${file} exists. Replace it?`, { modal: true }, "Replace")) === "Replace",
    // A read-only document beside the chat, the focus left where it was: pi prints this into its log, which the
    // user reads without leaving the input; a notification would cut its dozen lines to one.
    showDocument: async (title, text) => {
      const uri = vscode.Uri.from({ scheme: SESSION_INFO_SCHEME, path: `/${title}.txt`, query: String(++seq) });
      texts.set(uri.toString(), text);
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc, {
        preview: true,
        preserveFocus: true,
        viewColumn: vscode.ViewColumn.Beside,
      });
    },
    pickUserMessage: (items) =>
      pickValue(
        items.map((m) => ({ label: m.text, description: m.onPath ? "this branch" : "another branch", value: m.id })),
        {
          title: "Fork from a user message",
          placeholder: "A new session with the path before it; its text goes into the input",
        },
      ),
    clipboard: vscode.env.clipboard,
    executeCommand: (id, ...args) => Promise.resolve(vscode.commands.executeCommand(id, ...args)),
  };
}
