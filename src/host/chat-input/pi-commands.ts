/**
 * pi's slash commands that no command id runs (slash-commands.ts's PiCommandActions): `/copy`, `/session`, `/clone`,
 * `/fork`, `/export <path>`, `/import <path>`, `/reload`, `/thinking <level>`, `/login <provider>`, `/settings`,
 * `/hotkeys`. Each reuses the owner of its concept: the fork through the tree's Fork operations, the HTML export
 * through its flow, the thinking level through the chat picker's path, the session opened through the opener. No
 * `vscode` import (pi-commands-ui.ts is the VS Code side), so tests run it against the real core.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { serializeBranchJsonl } from "../../core/export/jsonl-export.js";
import { errorText } from "../../core/error-text.js";
import type { InstructionLoader } from "../../core/prompt/instruction-loader.js";
import { THINKING_LEVELS } from "../../core/providers/index.js";
import { isThinkingLevel } from "../../core/providers/thinking-levels.js";
import { listSessions } from "../../core/session/session-list.js";
import { scanSessionFile } from "../../core/session/session-scan.js";
import { formatSessionInfo, lastAssistantText, sessionStats } from "../../core/session/session-stats.js";
import type { EntryEnvelope } from "../../core/session/types.js";
import type { CommandId } from "../common/command-ids.js";
import type { Notify } from "../common/notifier.js";
import type { CredentialActions } from "../models/credential-actions.js";
import type { ModelActions } from "../models/model-actions.js";
import type { SessionController } from "../session/session-controller.js";
import type { SessionOpener } from "../session/session-opener.js";
import type { PiCommandActions } from "./slash-commands.js";

/** What the actions use. */
export interface PiCommandDeps {
  controller: Pick<SessionController, "sessionManager" | "requireSession">;
  opener: Pick<SessionOpener, "openPath" | "sessionDir"> & Partial<Pick<SessionOpener, "infoReader">>;
  notify: Pick<Notify, "status" | "error" | "info">;
  /** An operation of the table, on an entry (Fork to New Session From Here) or none (Export to HTML), with input. */
  runOperation(id: CommandId, entryId: string | undefined, input?: string): Promise<void>;
  credentials: Pick<CredentialActions, "logInNamed">;
  models: Pick<ModelActions, "setThinkingLevel">;
  instructions: Pick<InstructionLoader, "invalidate" | "load">;
  reloadTemplates(): Promise<readonly unknown[]>;
  /** The first workspace folder on disk (relative paths resolve against it). */
  folder(): string | undefined;
  /** The extension's id (`publisher.name`), for the settings and shortcuts filters. */
  extensionId: string;
  /** Asks before an existing file is replaced; true to go on. */
  confirmOverwrite(file: string): Promise<boolean>;
  /** Shows `text` (titled) where the user reads it without losing their place. */
  showDocument(title: string, text: string): Promise<void>;
  /** The session's user messages, newest first; the picked entry's id. */
  pickUserMessage(items: readonly ForkCandidate[]): Promise<string | undefined>;
  clipboard: { writeText(text: string): PromiseLike<void> };
  executeCommand(id: string, ...args: unknown[]): Promise<unknown>;
}

/** A user message `/fork` offers: its entry, its preview, and whether it is on the current path. */
export interface ForkCandidate {
  id: string;
  text: string;
  onPath: boolean;
}

/**
 * The user messages (with text) of the whole session, newest first: what `/fork` offers. pi lists every user message
 * of the file, on any branch; they come from the index (envelopes and their previews), so a big session's bodies
 * are not read. `pathIds` marks the ones on the current path.
 */
export function userMessagesOf(envelopes: readonly EntryEnvelope[], pathIds: ReadonlySet<string>): ForkCandidate[] {
  const out: ForkCandidate[] = [];
  for (let i = envelopes.length - 1; i >= 0; i--) {
    const e = envelopes[i];
    if (!e || e.type !== "message" || e.role !== "user" || !e.preview.trim()) continue;
    out.push({ id: e.id, text: e.preview, onPath: pathIds.has(e.id) });
  }
  return out;
}

/** See the file comment. */
export class PiCommands implements PiCommandActions {
  constructor(private readonly d: PiCommandDeps) {}

  async copyLastReply(): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    const text = lastAssistantText(sm.getPath());
    if (!text) return this.d.notify.status("No agent messages to copy yet.");
    await this.d.clipboard.writeText(text);
    this.d.notify.status("Copied last agent message to clipboard.");
  }

  async showSessionInfo(): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    const name = sm.getSessionName();
    const head = { id: sm.getSessionId(), file: sm.getSessionFile(), ...(name ? { name } : {}) };
    await this.d.showDocument(
      `Session ${sm.getSessionId().slice(0, 8)}`,
      formatSessionInfo(head, sessionStats(sm.getEntries())),
    );
  }

  async clone(): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    const leaf = sm.getLeafId();
    if (!leaf) return this.d.notify.status("Nothing to clone yet.");
    await this.d.runOperation("agentTree.forkHere", leaf, "at");
  }

  async forkFromUserMessage(): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    const pathIds = new Set(sm.getPathEnvelopes().map((e) => e.id));
    const messages = userMessagesOf(sm.getEnvelopes(), pathIds);
    if (messages.length === 0) return this.d.notify.status("No messages to fork from.");
    const id = await this.d.pickUserMessage(messages);
    // Forking at a user message copies the path before it and puts its text into the input, as pi's /fork.
    if (id) await this.d.runOperation("agentTree.forkHere", id);
  }

  async exportTo(file: string): Promise<void> {
    const { sm } = this.d.controller.requireSession();
    const target = this.resolve(file);
    if (!target) return;
    if (fs.existsSync(target) && !(await this.d.confirmOverwrite(target))) return;
    if (!target.endsWith(".jsonl")) return this.d.runOperation("agentTree.exportHtml", undefined, target);
    try {
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      await fs.promises.writeFile(target, serializeBranchJsonl(sm));
    } catch (e) {
      return this.d.notify.error("Export failed", e);
    }
    this.d.notify.status(`Session exported to: ${target}`);
  }

  async importSession(file: string): Promise<void> {
    const source = this.resolve(file);
    if (!source) return;
    const id = await sessionIdOf(source).catch((e: unknown) => {
      this.d.notify.error("Cannot import", e);
      return undefined;
    });
    if (!id) return;
    const dir = this.d.opener.sessionDir();
    const listed = listSessions(dir, undefined, { reader: this.d.opener.infoReader });
    const there = (await listed.catch(() => [])).find((s) => s.id === id);
    if (there) {
      // The same session is already here (imported before, or pi's own): open it rather than a second copy.
      this.d.notify.info(`Session ${id} is already in this workspace's sessions: opening it.`);
      await this.d.opener.openPath(there.path);
      return;
    }
    let target = path.join(dir, path.basename(source));
    try {
      await fs.promises.mkdir(dir, { recursive: true });
      const { name, ext } = path.parse(target);
      for (let i = 1; fs.existsSync(target) && i < 1000; i++) target = path.join(dir, `${name}-${i}${ext}`);
      // A copy (the original stays where it was); COPYFILE_EXCL: never over a file that appeared meanwhile.
      await fs.promises.copyFile(source, target, fs.constants.COPYFILE_EXCL);
    } catch (e) {
      return this.d.notify.error("Cannot import", e);
    }
    if (await this.d.opener.openPath(target)) this.d.notify.status(`Session imported from: ${source}`);
  }

  async reload(): Promise<void> {
    this.d.instructions.invalidate();
    const [loaded, templates] = await Promise.all([this.d.instructions.load(), this.d.reloadTemplates()]);
    const n = (k: number, what: string): string => `${k} ${what}${k === 1 ? "" : "s"}`;
    this.d.notify.status(
      `Reloaded: ${n(loaded.contextFiles.length, "context file")}, ${n(loaded.skills.length, "skill")}, ` +
        `${n(templates.length, "prompt template")}.`,
    );
  }

  async setThinkingLevel(level: string): Promise<void> {
    const l = level.trim().toLowerCase();
    if (!isThinkingLevel(l)) {
      return this.d.notify.error(
        "Cannot set the thinking level",
        new Error(`"${level}" is no thinking level. Levels: ${THINKING_LEVELS.join(", ")}.`),
      );
    }
    this.d.models.setThinkingLevel(l);
  }

  async logIn(provider: string): Promise<void> {
    await this.d.credentials.logInNamed(provider);
  }

  async openSettings(): Promise<void> {
    await this.d.executeCommand("workbench.action.openSettings", `@ext:${this.d.extensionId}`);
  }

  async openHotkeys(): Promise<void> {
    await this.d.executeCommand("workbench.action.openGlobalKeybindings", `@ext:${this.d.extensionId}`);
  }

  say(text: string): void {
    this.d.notify.status(text);
  }

  /** `file` made absolute against the workspace folder; undefined (said) when relative without one. */
  private resolve(file: string): string | undefined {
    const expanded = file.startsWith("~/") ? path.join(process.env.HOME ?? "", file.slice(2)) : file;
    if (path.isAbsolute(expanded)) return path.normalize(expanded);
    const folder = this.d.folder();
    if (folder) return path.resolve(folder, expanded);
    this.d.notify.error(
      "No folder",
      new Error(`${file} is relative and no workspace folder is open: give a full path.`),
    );
    return undefined;
  }
}

/** The id in the header of a session file; throws with a clear message when the file is not a pi session. */
async function sessionIdOf(file: string): Promise<string> {
  let head: ReturnType<typeof scanSessionFile>;
  try {
    // The open's own header reader: a FIFO or a device is refused on its handle, never waited on; 64 KB at most.
    head = scanSessionFile(file, { headerOnly: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new Error(code === "ENOENT" ? `${file} does not exist.` : `${file} cannot be read: ${errorText(e)}`);
  }
  if (!head.header || head.header.id === "") {
    throw new Error(`${file} is not a pi session file (its first line is no session header).`);
  }
  return head.header.id;
}
