/**
 * The one way the extension tells the user how an operation went: a status line in both views (and the status
 * bar and the log), and notifications for what must not be missed. Made before everything that reports, so no
 * action needs another action to speak. Shared by every feature (the operations table's guards say their refusals
 * through it too).
 */
import * as vscode from "vscode";
import { errorText } from "../../core/error-text.js";
import type { HostToWebview } from "../../shared/protocol.js";

/** How the extension reports (the Notifier below, or a recording fake in tests). */
export interface Notify {
  /** A status line in the views, the status bar and the log. */
  status(text: string, kind?: "info" | "error"): void;
  /** A failure: "what: why". */
  error(what: string, e: unknown): void;
  info(text: string): void;
  warn(text: string): void;
}

/** Where status lines go besides the status bar: the tree and chat views. */
export interface StatusTarget {
  post(msg: HostToWebview): void;
}

/** See the file comment. */
export class Notifier implements Notify {
  constructor(
    private readonly views: readonly StatusTarget[],
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** A status line in both views, the status bar, and the log. */
  status(text: string, kind: "info" | "error" = "info"): void {
    for (const view of this.views) view.post({ type: "status", text, kind });
    vscode.window.setStatusBarMessage(`$(git-branch) ${text}`, 5000);
    if (kind === "error") this.log.error(text);
    else this.log.info(text);
  }

  /** A failure, as "what: why", in a notification and the status line. */
  error(what: string, e: unknown): void {
    const text = `${what}: ${errorText(e)}`;
    void vscode.window.showErrorMessage(text);
    this.status(text, "error");
  }

  /** A notification that tells (nothing went wrong). */
  info(text: string): void {
    void vscode.window.showInformationMessage(text);
  }

  /** A notification that warns (an operation was refused). */
  warn(text: string): void {
    void vscode.window.showWarningMessage(text);
  }
}
