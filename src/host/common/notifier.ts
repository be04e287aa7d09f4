/**
 * The one way the extension tells the user how an operation went, each message in one place: a transient status
 * line in one view (status-place.ts: the chat, else the tree) mirrored in the status bar and the log; a
 * notification for what must not be missed (a failure, a refusal, a result with buttons), which then is not also a
 * status line. Made before everything that reports, so no action needs another action to speak. Shared by every
 * feature (the operations table's guards say their refusals through it too).
 */
import * as vscode from "vscode";
import { errorText } from "../../core/error-text.js";
import { showStatus, type StatusView } from "../views/status-place.js";

/** How the extension reports (the Notifier below, or a recording fake in tests). */
export interface Notify {
  /** A transient status line: in one view (the chat, else the tree), the status bar and the log. */
  status(text: string, kind?: "info" | "error"): void;
  /** A failure: "what: why", in a notification (not also a status line). */
  error(what: string, e: unknown): void;
  info(text: string): void;
  warn(text: string): void;
  /** A result with buttons, in a notification (not also a status line); resolves to the button picked. */
  offer<A extends string>(text: string, ...actions: A[]): PromiseLike<A | undefined>;
}

/** See the file comment. */
export class Notifier implements Notify {
  /**
   * @param views Where a status line may show, in order of preference (the chat, then the tree): one shows it.
   */
  constructor(
    private readonly views: readonly StatusView[],
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** A status line in one view, the status bar, and the log. */
  status(text: string, kind: "info" | "error" = "info"): void {
    showStatus(this.views, text, kind);
    vscode.window.setStatusBarMessage(`$(git-branch) ${text}`, 5000);
    if (kind === "error") this.log.error(text);
    else this.log.info(text);
  }

  /** A failure, as "what: why", in a notification (and the log); not also a status line. */
  error(what: string, e: unknown): void {
    const text = `${what}: ${errorText(e)}`;
    this.log.error(text);
    void vscode.window.showErrorMessage(text);
  }

  /** A notification that tells (nothing went wrong). */
  info(text: string): void {
    void vscode.window.showInformationMessage(text);
  }

  /** A notification that warns (an operation was refused). */
  warn(text: string): void {
    void vscode.window.showWarningMessage(text);
  }

  /** A result with buttons, in a notification (and the log); the button picked, if any. */
  offer<A extends string>(text: string, ...actions: A[]): PromiseLike<A | undefined> {
    this.log.info(text);
    return vscode.window.showInformationMessage(text, ...actions);
  }
}
