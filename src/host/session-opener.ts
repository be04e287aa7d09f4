/**
 * Opening sessions with the editor's dialogs: the workspace's most recent one, a picked one, a new
 * one; a locked file offers a read-only view, skipped lines produce a warning with line numbers.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { SessionLockedError } from "../core/session/errors.js";
import { defaultSessionDir } from "../core/session/paths.js";
import { SessionManager } from "../core/session/session-manager.js";
import { loadIssuesMessage } from "./load-issues.js";
import { sessionRows } from "./pick-items.js";
import type { SessionController } from "./session-controller.js";
import { sessionDirectorySetting } from "./settings.js";

/** See the file comment. */
export class SessionOpener {
  constructor(
    private readonly controller: SessionController,
    private readonly cwd: string,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  /** The sessions folder: the setting, else pi's folder for the workspace (shared with the pi CLI). */
  sessionDir(): string {
    const configured = sessionDirectorySetting();
    if (!configured) return defaultSessionDir(this.cwd);
    return path.isAbsolute(configured) ? configured : path.resolve(this.cwd, configured);
  }

  /** Resume the most recent session of the workspace, else start a new one. */
  async openRecentOrNew(): Promise<void> {
    let latest: string | undefined;
    try {
      [latest] = (await SessionManager.list(this.cwd, this.sessionDir())).map((s) => s.path);
    } catch (e) {
      this.log.warn(`Listing sessions failed: ${errorText(e)}`);
    }
    if (latest && (await this.openPath(latest))) return;
    await this.newSession();
  }

  /** Start a new session (its file appears on the first message). */
  async newSession(): Promise<void> {
    try {
      await this.controller.attach(await SessionManager.create(this.cwd, this.sessionDir()));
      this.log.info(`New session in ${this.sessionDir()}`);
    } catch (e) {
      this.fail("Cannot create a session", e);
    }
  }

  /**
   * Open a session file. A lock held by another writer offers a read-only view. Returns false when
   * nothing was opened.
   */
  async openPath(file: string): Promise<boolean> {
    const sessionDir = this.sessionDir();
    let sm: SessionManager;
    try {
      sm = await SessionManager.open(file, { sessionDir });
    } catch (e) {
      if (!(e instanceof SessionLockedError)) {
        this.fail(`Cannot open session ${path.basename(file)}`, e);
        return false;
      }
      this.log.warn(e.message);
      const choice = await vscode.window.showWarningMessage(
        `Session ${path.basename(file)} is being written by another process (pi or another window). ` +
          "Open a read-only view of it?",
        "Open Read-Only",
        "New Session",
      );
      if (choice === "New Session") {
        await this.newSession();
        return true;
      }
      if (choice !== "Open Read-Only") return false;
      try {
        sm = await SessionManager.open(file, { sessionDir, readOnly: true });
      } catch (e2) {
        this.fail(`Cannot open session ${path.basename(file)}`, e2);
        return false;
      }
    }
    this.reportIssues(sm, file);
    try {
      await this.controller.attach(sm);
    } catch (e) {
      await sm.close().catch(() => undefined);
      this.fail(`Cannot open session ${path.basename(file)}`, e);
      return false;
    }
    this.log.info(`Opened ${file}${sm.isReadOnly() ? " (read-only)" : ""}`);
    return true;
  }

  /** Quick pick of the sessions folder. */
  async pick(): Promise<void> {
    let sessions;
    try {
      sessions = await SessionManager.list(this.cwd, this.sessionDir());
    } catch (e) {
      this.fail("Cannot list sessions", e);
      return;
    }
    if (sessions.length === 0) {
      void vscode.window.showInformationMessage(`No sessions in ${this.sessionDir()} yet.`);
      return;
    }
    const rows = sessionRows(sessions, this.controller.sessionManager?.getSessionFile());
    const picked = await vscode.window.showQuickPick(rows, {
      title: "Open Session",
      placeHolder: `Sessions in ${this.sessionDir()}`,
      matchOnDescription: true,
      matchOnDetail: true,
    });
    if (picked && picked.value.path !== this.controller.sessionManager?.getSessionFile()) {
      await this.openPath(picked.value.path);
    }
  }

  private reportIssues(sm: SessionManager, file: string): void {
    const issues = sm.getLoadIssues();
    for (const i of issues) this.log.warn(`${file}:${i.line}: ${i.reason}`);
    const message = loadIssuesMessage(path.basename(file), issues);
    if (message) void vscode.window.showWarningMessage(message);
  }

  private fail(what: string, e: unknown): void {
    const text = `${what}: ${errorText(e)}`;
    this.log.error(text);
    void vscode.window.showErrorMessage(text);
  }
}

/** The message of an error value. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
