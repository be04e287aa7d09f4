/** Agent: Export to HTML / Export Branch to HTML in VS Code: the export flow with a save dialog and notifications. */
import * as vscode from "vscode";
import type { HostActions } from "../tree/actions.js";
import type { Notify } from "../common/notifier.js";
import type { SessionController } from "../session/session-controller.js";
import { runExportFlow, type ExportUi } from "./export-flow.js";

/** See the file comment. */
export class ExportActions {
  constructor(
    private readonly controller: SessionController,
    private readonly actions: Pick<HostActions, "pickNode">,
    private readonly notify: Pick<Notify, "error" | "offer">,
    private readonly extensionUri: vscode.Uri,
  ) {}

  /**
   * Export the whole session (branchOnly false) or one branch to a self-contained HTML file: `target` (`/export
   * <path>`, its overwrite already asked), else the file a save dialog picks.
   */
  async exportHtml(branchOnly: boolean, target?: string): Promise<void> {
    const sm = this.controller.sessionManager;
    if (!sm) return;
    let leafId: string | undefined;
    if (branchOnly) {
      leafId = await this.actions.pickNode("Export Branch: pick the last entry of the branch");
      if (!leafId) return;
    }
    const assetsDir = vscode.Uri.joinPath(this.extensionUri, "dist").fsPath;
    const ui = this.ui();
    if (target !== undefined) ui.pickTarget = async () => target;
    await runExportFlow(sm, ui, {
      branchOnly,
      leafId,
      assetsDir,
      currentSystemPrompt: async () => this.controller.agent?.previewSystemPrompt(),
    });
  }

  private ui(): ExportUi {
    return {
      pickTarget: async (title, defaultName) => {
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
        const uri = await vscode.window.showSaveDialog({
          title,
          defaultUri: folder ? vscode.Uri.joinPath(folder, defaultName) : undefined,
          filters: { HTML: ["html"] },
        });
        return uri?.fsPath;
      },
      withProgress: async (title, task) =>
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, task),
      offerOpen: async (message) => (await this.notify.offer(message, "Open in Browser")) !== undefined,
      open: async (file) => {
        await vscode.env.openExternal(vscode.Uri.file(file));
      },
      error: (title, err) => this.notify.error(title, err),
    };
  }
}
