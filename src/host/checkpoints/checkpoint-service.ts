/**
 * The workspace's checkpoints as the host uses them (docs/checkpoints.md): one WorkspaceCheckpoints for the
 * workspace folders, opened on first need and again after the folders or the size cap change; the checkpoint
 * hook every AgentSession gets; the background warm-up when a session opens; and one message per folder and
 * reason when files cannot follow the tree. Pure: no `vscode` import (the editor's parts come in as options).
 */
import type { SessionManager } from "../../core/session/session-manager.js";

import type { CheckpointMoment } from "../../core/checkpoints/session-link.js";
import { TurnCheckpoints, type AgentCheckpointHook } from "../../core/checkpoints/turn-checkpoints.js";
import { WorkspaceCheckpoints } from "../../core/checkpoints/workspace-checkpoints.js";
import { errorText } from "../../core/error-text.js";

/** A workspace folder as the editor names it. */
export interface EditorFolder {
  /** URI scheme: only "file" folders are on this machine's disk. */
  scheme: string;
  /** The folder's path on disk (file scheme), else its URI text. */
  path: string;
}

/** Which folders get checkpoints, and why the others do not (messages for the user). */
export interface CheckpointFolders {
  folders: string[];
  problems: string[];
}

/** Prefix of every message that says why files will not follow the tree (the engine's own messages start so). */
export const CANNOT_FOLLOW = "Files cannot follow the session tree";

/** The folders of a workspace that can have checkpoints: folders on disk; none open, or virtual ones, are said. */
export function checkpointFolders(folders: readonly EditorFolder[]): CheckpointFolders {
  if (folders.length === 0)
    return { folders: [], problems: [`${CANNOT_FOLLOW}: no folder is open in this window (open a folder first).`] };
  const out: CheckpointFolders = { folders: [], problems: [] };
  for (const f of folders) {
    if (f.scheme === "file") out.folders.push(f.path);
    else out.problems.push(`${CANNOT_FOLLOW}: ${f.path} is not a folder on this machine's disk.`);
  }
  return out;
}

/** What the service needs from the host. */
export interface CheckpointServiceOptions {
  /** The workspace folders now (read on every open). */
  folders(): CheckpointFolders;
  /** Where the stores live (`<globalStorageUri>/checkpoints`); undefined: the engine's default. */
  storageDir: string | undefined;
  /** The per-file size cap in bytes (the setting), read on every open. */
  maxFileBytes(): number;
  /** The environment git runs with (tests: one without git). */
  env?: NodeJS.ProcessEnv;
  /** Says once why files will not follow the tree (per folder and reason). */
  onUnavailable(message: string): void;
  log(message: string): void;
}

interface Opened {
  checkpoints: WorkspaceCheckpoints;
  turns: TurnCheckpoints;
}

/** See the file comment. Pass it as AgentSession's `checkpoints`; it serves every session of the window. */
export class CheckpointService implements AgentCheckpointHook {
  private opening: Promise<Opened | undefined> | undefined;
  /** The hook of the stores opened last. */
  private turns: TurnCheckpoints | undefined;
  private readonly said = new Map<string, string>();

  constructor(private readonly options: CheckpointServiceOptions) {}

  /** The workspace's checkpoints, or undefined when no folder can have them. Never throws. */
  async workspace(): Promise<WorkspaceCheckpoints | undefined> {
    return (await this.open())?.checkpoints;
  }

  /** Every reason given so far why files cannot follow the tree (for a command that needs them). */
  problems(): string[] {
    return [...new Set(this.said.values())];
  }

  /** The folders or the size cap changed: the next use opens the stores again with the new ones. */
  reset(): void {
    this.opening = undefined;
  }

  /**
   * Records the files of every folder in the background (a session opened): the first checkpoint of a folder
   * reads every file, so doing it now keeps the first prompt quick. Failures are logged; the status is said.
   */
  warmUp(): void {
    void (async () => {
      const opened = await this.open();
      if (!opened) return;
      const started = Date.now();
      const captures = await opened.checkpoints.capture("warm-up");
      for (const c of captures)
        if ("error" in c) this.options.log(`Checkpoint warm-up of ${c.folder}: ${errorText(c.error)}`);
      this.options.log(`Checkpoint warm-up of ${captures.length} folder(s) took ${Date.now() - started} ms`);
      this.sayStatus(opened.checkpoints);
    })();
  }

  /** AgentCheckpointHook: a checkpoint of every folder, linked to the session when files changed. */
  async record(moment: CheckpointMoment, sessionManager: SessionManager, signal?: AbortSignal): Promise<void> {
    const opened = await this.open();
    if (!opened) return;
    try {
      await opened.turns.record(moment, sessionManager, signal);
    } finally {
      // A folder may have grown past the caps (or shrunk back): say so once.
      this.sayStatus(opened.checkpoints);
    }
  }

  /** AgentCheckpointHook: moves the leaf off a checkpoint entry (an abort can leave it there). */
  settle(sessionManager: SessionManager): void {
    // Only an entry `record` wrote can be the leaf here, so the stores were opened.
    this.turns?.settle(sessionManager);
  }

  private open(): Promise<Opened | undefined> {
    this.opening ??= this.openNow();
    return this.opening;
  }

  private async openNow(): Promise<Opened | undefined> {
    const { folders, problems } = this.options.folders();
    for (const p of problems) this.sayOnce(p, p);
    if (folders.length === 0) return undefined;
    try {
      const checkpoints = await WorkspaceCheckpoints.open({
        folders,
        storageDir: this.options.storageDir,
        limits: { maxFileBytes: this.options.maxFileBytes() },
        ...(this.options.env ? { env: this.options.env } : {}),
      });
      this.sayStatus(checkpoints);
      this.turns = new TurnCheckpoints(checkpoints);
      return { checkpoints, turns: this.turns };
    } catch (e) {
      // open() reports folders through status(); only something unexpected gets here.
      this.sayOnce("open", `${CANNOT_FOLLOW}: ${errorText(e)}`);
      return undefined;
    }
  }

  private sayStatus(checkpoints: WorkspaceCheckpoints): void {
    for (const s of checkpoints.status())
      if (s.state === "unavailable") this.sayOnce(`${s.folder}\0${s.reason}`, s.message);
  }

  private sayOnce(key: string, message: string): void {
    if (this.said.has(key)) return;
    this.said.set(key, message);
    this.options.log(message);
    this.options.onUnavailable(message);
  }
}
