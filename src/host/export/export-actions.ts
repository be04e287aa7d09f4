/** Agent: Export to HTML / Export Branch to HTML: a save dialog, then the self-contained page (src/core/export). */
import * as path from "node:path";
import * as vscode from "vscode";
import { writeSessionHtml } from "../../core/export/export-session.js";
import type { HostActions } from "../tree/actions.js";
import type { Notify } from "../common/notifier.js";
import type { SessionController } from "../session/session-controller.js";

/** See the file comment. */
export class ExportActions {
  constructor(
    private readonly controller: SessionController,
    private readonly actions: Pick<HostActions, "pickNode">,
    private readonly notify: Pick<Notify, "error" | "offer">,
    private readonly extensionUri: vscode.Uri,
  ) {}

  /** Export the whole session (branchOnly false) or one branch to a self-contained HTML file. */
  async exportHtml(branchOnly: boolean): Promise<void> {
    const sm = this.controller.sessionManager;
    if (!sm) return;
    let leafId: string | undefined;
    if (branchOnly) {
      leafId = await this.actions.pickNode("Export Branch: pick the last entry of the branch");
      if (!leafId) return;
    }
    const base = path.basename(sm.getSessionFile() ?? `session-${sm.getSessionId()}.jsonl`, ".jsonl");
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
      title: branchOnly ? "Export Branch to HTML" : "Export Session to HTML",
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${base}.html`) : undefined,
      filters: { HTML: ["html"] },
    });
    if (!target) return;
    try {
      const assetsDir = vscode.Uri.joinPath(this.extensionUri, "dist").fsPath;
      const bytes = await writeSessionHtml(sm, target.fsPath, { assetsDir, branchOnly, leafId });
      const open = await this.notify.offer(
        `Exported ${Math.round(bytes / 1024)} KB to ${target.fsPath}.`,
        "Open in Browser",
      );
      if (open) await vscode.env.openExternal(target);
    } catch (e) {
      this.notify.error("Export failed", e);
    }
  }
}
