/**
 * Opening sessions with the editor's dialogs: the workspace's most recent one, a picked one, a new
 * one; a locked file offers a read-only view (and a takeover when its holder stopped refreshing its lock,
 * or the lock is damaged), skipped lines produce a warning with line numbers.
 */
import { open as openFile, stat } from "node:fs/promises";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  claudeTranscriptPathOf,
  convertClaudePathToSession,
  openClaudeTranscript,
} from "../../core/import/claude-session.js";
import { listAllSessions, listPiSessionFolders, type AnySessionInfo } from "../../core/import/session-sources.js";
import { SessionLockedError } from "../../core/session/errors.js";
import { defaultSessionDir } from "../../core/session/paths.js";
import { SessionInfoReader } from "../../core/session/session-info-reader.js";
import { SessionManager } from "../../core/session/session-manager.js";
import type { SkippedSessionFile } from "../../core/session/types.js";
import { loadIssuesMessage } from "./load-issues.js";
import { lockedDialog } from "./lock-choice.js";
import { hostLockOptions } from "./lock-options.js";
import { looksLikeClaudeTranscript, planContinue } from "./continue-plan.js";
import { anySessionRows, piFolderRows, skippedFilesRow, type PickRow } from "../common/pick-items.js";
import { pickValue, type LoadedItems } from "../common/pick-value.js";
import type { SessionController } from "./session-controller.js";
import { sessionDirectorySetting } from "../common/settings.js";
import { errorText } from "../../core/error-text.js";

/** How many times a takeover is offered again when the lock changed in between. */
const TAKEOVER_ROUNDS = 3;

/** See the file comment. */
export class SessionOpener {
  constructor(
    private readonly controller: SessionController,
    private readonly cwd: string,
    private readonly log: vscode.LogOutputChannel,
    /** Reads the session files of a listing (worker threads: the extension host only waits). */
    readonly infoReader: SessionInfoReader = new SessionInfoReader(),
  ) {}

  /** The sessions folder: the setting, else pi's folder for the workspace (shared with the pi CLI). */
  sessionDir(): string {
    const configured = sessionDirectorySetting();
    if (!configured) return defaultSessionDir(this.cwd);
    return path.isAbsolute(configured) ? configured : path.resolve(this.cwd, configured);
  }

  /** Resume the session of the workspace written last (as pi's `-c`), else start a new one. */
  async openRecentOrNew(): Promise<void> {
    let latest: string | undefined;
    try {
      latest = await SessionManager.findMostRecent(this.cwd, this.sessionDir());
    } catch (e) {
      this.log.warn(`Listing sessions failed: ${errorText(e)}`);
    }
    if (latest && (await this.openPath(latest))) return;
    await this.newSession();
  }

  /** Start a new session (its file appears on the first message). */
  async newSession(): Promise<void> {
    try {
      await this.controller.attach(
        await SessionManager.create(this.cwd, this.sessionDir(), { lock: hostLockOptions() }),
      );
      this.log.info(`New session in ${this.sessionDir()}`);
    } catch (e) {
      this.fail("Cannot create a session", e);
    }
  }

  /**
   * Open a session file. A lock held by another writer offers a read-only view, a new session, and, when
   * the lock is no longer refreshed or is damaged, a takeover. Returns false when nothing was opened. A
   * Claude Code transcript (recognised by its content) opens as a read-only view.
   */
  async openPath(file: string): Promise<boolean> {
    if (await isClaudeTranscript(file)) return this.openClaude(file);
    // SessionManager.open() starts a new session at a path where nothing is (as pi's --session does); a file picked
    // from a list that is gone since is an error here, not an empty session.
    if (
      !(await stat(file).then(
        () => true,
        () => false,
      ))
    ) {
      this.fail(`Cannot open session ${path.basename(file)}`, new Error("the file is not there any more"));
      return false;
    }
    const sessionDir = this.sessionDir();
    let sm: SessionManager | undefined;
    let takeOver: string | undefined;
    for (let round = 0; !sm && round < TAKEOVER_ROUNDS; round++) {
      try {
        sm = await SessionManager.open(file, { sessionDir, lock: { ...hostLockOptions(), takeOver } });
        if (takeOver) this.log.info(`Took over the writer lock of ${file}`);
      } catch (e) {
        if (!(e instanceof SessionLockedError)) {
          this.fail(`Cannot open session ${path.basename(file)}`, e);
          return false;
        }
        this.log.warn(e.message);
        const dialog = lockedDialog(path.basename(file), e);
        const choice = await vscode.window.showWarningMessage(dialog.message, ...dialog.choices);
        if (choice === "New Session") {
          await this.newSession();
          return true;
        }
        if (choice === "Take Over") {
          // Opened again with the claim of the lock the user saw: a lock that changed since asks again.
          takeOver = e.claim;
          continue;
        }
        if (choice !== "Open Read-Only") return false;
        try {
          sm = await SessionManager.open(file, { sessionDir, readOnly: true });
        } catch (e2) {
          this.fail(`Cannot open session ${path.basename(file)}`, e2);
          return false;
        }
      }
    }
    if (!sm) return false;
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

  /**
   * A pi session outside the workspace's folder: read-only, so pi's file is never rewritten behind its
   * back; "Continue in a New Session" copies it into the workspace's folder.
   */
  async openPiReadOnly(file: string): Promise<boolean> {
    return this.attachOpened(file, "pi", () =>
      SessionManager.open(file, { sessionDir: this.sessionDir(), readOnly: true }),
    );
  }

  /** A Claude Code transcript as a read-only tree. */
  async openClaude(file: string): Promise<boolean> {
    return this.attachOpened(file, "claude", () => openClaudeTranscript(file));
  }

  private async attachOpened(
    file: string,
    cause: "pi" | "claude",
    open: () => Promise<SessionManager>,
  ): Promise<boolean> {
    let sm: SessionManager;
    try {
      sm = await open();
    } catch (e) {
      this.fail(`Cannot open ${path.basename(file)}`, e);
      return false;
    }
    this.reportIssues(sm, file);
    try {
      await this.controller.attach(sm, cause);
    } catch (e) {
      await sm.close().catch(() => undefined);
      this.fail(`Cannot open ${path.basename(file)}`, e);
      return false;
    }
    this.log.info(`Opened ${file} (read-only, ${cause})`);
    return true;
  }

  /** Open a picked session the way its source needs. */
  async openAny(s: AnySessionInfo): Promise<boolean> {
    if (s.source === "claude") return this.openClaude(s.path);
    if (s.source === "pi") return this.openPiReadOnly(s.path);
    return this.openPath(s.path);
  }

  /**
   * Quick pick of the workspace's sessions, then pi's other folder and Claude Code transcripts. It shows at once,
   * busy while the folders are read (seconds for a gigabyte of sessions the first time, in the reader's worker
   * threads); closing it stops the reading.
   */
  async pick(): Promise<void> {
    const sm = this.controller.sessionManager;
    // A Claude view's file is a temp copy: mark the row by the transcript it shows.
    const current = (sm && claudeTranscriptPathOf(sm)) ?? sm?.getSessionFile();
    type Value = AnySessionInfo | "otherPiFolders" | "skippedFiles";
    const rows = async (signal: AbortSignal): Promise<LoadedItems<Value>> => {
      const skipped: SkippedSessionFile[] = [];
      const sessions = await listAllSessions(this.cwd, {
        sessionDir: this.sessionDir(),
        skipped,
        reader: this.infoReader,
        signal,
      });
      // Said each time the list is shown: the user may have mended or removed a file meanwhile.
      for (const s of skipped) this.log.warn(`Open Session: ${s.path} is not listed: ${s.reason}`);
      const skippedRow = skippedFilesRow(skipped);
      const items: PickRow<Value>[] = [
        ...anySessionRows(sessions, current),
        { label: "$(folder-library) pi sessions of other folders…", description: "read-only", value: "otherPiFolders" },
        ...(skippedRow ? [skippedRow] : []),
      ];
      return {
        items,
        placeholder:
          sessions.length === 0
            ? `No sessions in ${this.sessionDir()} yet`
            : `Sessions in ${this.sessionDir()}, pi's folder and Claude Code`,
      };
    };
    let picked: Value | undefined;
    try {
      picked = await pickValue(rows, {
        title: "Open Session",
        placeholder: `Reading the sessions in ${this.sessionDir()}…`,
        matchOnDetail: true,
      });
    } catch (e) {
      this.fail("Cannot list sessions", e);
      return;
    }
    if (!picked) return;
    if (picked === "skippedFiles") this.log.show(true);
    else if (picked === "otherPiFolders") await this.pickOtherPiFolder();
    // The open session again: only a read-only one (its writer may have gone, or taken this window's lock).
    else if (picked.path !== current || sm?.isReadOnly()) await this.openAny(picked);
  }

  /** A pi session of another workspace's folder, opened read-only. */
  async pickOtherPiFolder(): Promise<void> {
    try {
      const folders = piFolderRows(await listPiSessionFolders(), [this.sessionDir(), defaultSessionDir(this.cwd)]);
      if (folders.length === 0) {
        void vscode.window.showInformationMessage("pi has no session folders of other workspaces.");
        return;
      }
      const folder = await vscode.window.showQuickPick(folders, {
        title: "pi Sessions of Other Folders",
        placeHolder: "The workspace pi was used in (guessed from pi's folder name)",
        matchOnDescription: true,
      });
      if (!folder) return;
      // Every session of that folder: it is another workspace's, so list() (scoped to this cwd) would show none.
      const rows = async (signal: AbortSignal): Promise<LoadedItems<AnySessionInfo>> => {
        const listed = await SessionManager.listAll(folder.value.path, { reader: this.infoReader, signal });
        const sessions = listed.map((s): AnySessionInfo => ({
          ...s,
          source: "pi",
        }));
        return {
          items: anySessionRows(sessions),
          placeholder:
            sessions.length === 0 ? `No sessions in ${folder.value.path}` : `Sessions in ${folder.value.path}`,
        };
      };
      const picked = await pickValue(rows, {
        title: `pi Sessions of ${folder.value.cwdGuess}`,
        placeholder: `Reading the sessions in ${folder.value.path}…`,
        matchOnDetail: true,
      });
      if (picked) await this.openPiReadOnly(picked.path);
    } catch (e) {
      this.fail("Cannot list pi's sessions", e);
    }
  }

  /**
   * "Continue in a New Session": a Claude Code view is converted from `leaf` (default: its current leaf)
   * into a new session of the workspace's folder; any other read-only session is branched there. The
   * new file opens writable. A writable session only gets a message.
   */
  async continueInNewSession(leaf?: string): Promise<boolean> {
    const sm = this.controller.sessionManager;
    if (!sm) {
      void vscode.window.showInformationMessage("No session is open.");
      return false;
    }
    const plan = planContinue(sm);
    if (plan.kind === "none" || plan.kind === "writable") {
      void vscode.window.showInformationMessage(plan.message);
      return false;
    }
    const sessionDir = this.sessionDir();
    let file: string;
    try {
      file = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: "Continuing in a new session…" },
        async () => {
          if (plan.kind === "claude")
            return convertClaudePathToSession(plan.transcriptPath, leaf ?? plan.leaf, this.cwd, sessionDir);
          const branched = await sm.createBranchedSession(leaf ?? plan.leafId);
          // Read-only views are always of files; an in-memory session would have become the branch itself.
          if (branched === undefined) throw new Error("this session is not stored in a file");
          return branched;
        },
      );
    } catch (e) {
      this.fail("Cannot continue in a new session", e);
      return false;
    }
    this.log.info(`Continued ${claudeTranscriptPathOf(sm) ?? sm.getSessionFile() ?? "session"} as ${file}`);
    return this.openPath(file);
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

/** True when the file's first lines read as a Claude Code transcript (unreadable files: false, opening reports). */
async function isClaudeTranscript(file: string): Promise<boolean> {
  let head: string;
  try {
    const fh = await openFile(file, "r");
    try {
      const buf = Buffer.alloc(64 * 1024);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead).toString("utf8");
    } finally {
      await fh.close();
    }
  } catch {
    return false;
  }
  return looksLikeClaudeTranscript(head);
}
