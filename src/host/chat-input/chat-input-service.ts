/**
 * What the chat input asks of the host beyond plain text: completion rows, mentions added from the editor
 * and the Explorer (Add Selection to Chat, Add File to Chat, files dropped onto the input), its settings, and
 * sending — `!command` runs in the workspace (`!!command`: kept out of the model's context), a built-in `/`
 * command runs, `/skill:name` and a prompt template expand (the user message holds the expansion, as in pi), and
 * the mentions still in the text are attached (src/core/mentions). What cannot be sent (a mention that cannot be
 * attached, an unknown skill, a command that cannot run) stops with the reason and gives the text back, so nothing
 * typed is lost.
 */
import path from "node:path";
import * as vscode from "vscode";
import { AttachmentError, buildAttachment } from "../../core/mentions/file-attachment.js";
import { mentionInText } from "../../core/mentions/mention-label.js";
import { composeUserContent } from "../../core/mentions/user-content.js";
import { expandPromptTemplate } from "../../core/prompt/prompt-templates.js";
import { acceptsImages, imageBlock, textOnlyModelMessage } from "../../core/mentions/image-attachment.js";
import type { QueuedKind } from "../../core/agent/prompt-queue.js";
import { parseUserCommand, type UserCommand } from "../../core/agent/user-command.js";
import { parseSkillCommand } from "../../core/prompt/skill-command.js";
import type { ModelInfo } from "../../core/providers/types.js";
import type { HostToWebview, ImageDto, MentionDto } from "../../shared/protocol.js";
import type { ChatCompletions } from "./chat-completions.js";
import type { ChatInputHandoff } from "./chat-input-handoff.js";
import { matchSlashCommand, SLASH_COMMANDS, type SlashCommand, type SlashCommandContext } from "./slash-commands.js";

/** What the service needs from the extension. */
export interface ChatInputDeps {
  completions: ChatCompletions;
  /** Posts completion rows and the input's settings to the chat view. */
  postChat(msg: Extract<HostToWebview, { type: "chat/completions" | "chat/settings" }>): void;
  /** The setting `agentTree.chat.enterWhileRunning`: what Enter queues while the agent works. */
  enterWhileRunning(): QueuedKind;
  /**
   * Runs a command the user typed (`!command`) and records it; settles when it ended. Rejects with the reason when
   * it cannot run.
   */
  runCommand(command: UserCommand): Promise<void>;
  /** `/skill:name …` with the skill's instructions in it (src/core/prompt/skill-command.ts); rejects with the reason. */
  expandSkill(text: string): Promise<string>;
  /** What goes into the chat input: text given back, mentions added (held for a view that is not ready). */
  input: Pick<ChatInputHandoff, "setText" | "addMention" | "viewReady">;
  /** Shows and focuses the chat view. */
  revealChat(): Promise<void>;
  /** Sends the user message: `text` as typed (or expanded), `content` with the attachments when there are any. */
  send(text: string, content: ReturnType<typeof composeUserContent>): Promise<void>;
  /**
   * While the agent works: queues the message (Enter: a follow-up, Alt+Enter: steering) with its attachments;
   * sends it when the run ended meanwhile. Returns an error message, or undefined.
   */
  queue(kind: QueuedKind, text: string, content: ReturnType<typeof composeUserContent>): string | undefined;
  /** Reports a failure in the views and a notification. */
  error(what: string, e: unknown): void;
  /** The model the next message goes to. */
  currentModel(): ModelInfo | undefined;
  /** The workspace folders (absolute): a mention's root must be one of them. */
  workspaceRoots(): readonly string[];
  slash: SlashCommandContext;
  commands?: readonly SlashCommand[];
}

/** See the file comment. */
export class ChatInputService {
  constructor(private readonly d: ChatInputDeps) {}

  /** The chat view said `ready`: its settings, and the text and mentions it has not received yet, go to it now. */
  viewReady(): void {
    this.settingsChanged();
    this.d.input.viewReady();
  }

  /** The input's settings changed (or the view is new): the chat gets them. */
  settingsChanged(): void {
    this.d.postChat({ type: "chat/settings", enterWhileRunning: this.d.enterWhileRunning() });
  }

  /** Answer a completion request. */
  async complete(requestId: number, trigger: "@" | "/", query: string): Promise<void> {
    const items = await this.d.completions.complete(trigger, query);
    this.d.postChat({ type: "chat/completions", requestId, items });
  }

  /**
   * Send what the input holds, or with `queue` (typed while the agent works) queue it: a built-in command runs at
   * once either way (so `/aside` answers during a run); a template expands and mentions attach before queueing.
   */
  async submit(
    text: string,
    mentions: readonly MentionDto[] = [],
    images: readonly ImageDto[] = [],
    queue?: QueuedKind,
  ): Promise<void> {
    // A command runs at once, while the agent works too (pi records it once the run ended).
    const command = parseUserCommand(text);
    if (command) return this.runCommand(text, command);
    const commands = this.d.commands ?? SLASH_COMMANDS;
    let slash = matchSlashCommand(text, commands);
    // A pi command Agent Tree lacks yields to a prompt template of its name (the user's own).
    if (slash?.command.absent) {
      const templates = new Set((await this.d.completions.promptTemplates()).map((t) => t.name));
      slash = matchSlashCommand(text, commands, templates);
    }
    if (slash) {
      try {
        await slash.command.run(slash.args, this.d.slash);
      } catch (e) {
        this.d.input.setText(text);
        this.d.error(`/${slash.command.name} failed`, e);
      }
      return;
    }
    const model = this.d.currentModel();
    if (images.length > 0 && model && !acceptsImages(model)) {
      // The input checks this too; a model switched meanwhile lands here. The text goes back, the reason is said.
      this.d.input.setText(text);
      this.d.error("Cannot send", new Error(textOnlyModelMessage(model, images.length)));
      return;
    }
    let expanded = text;
    if (parseSkillCommand(text)) {
      try {
        expanded = await this.d.expandSkill(text);
      } catch (e) {
        this.d.input.setText(text);
        this.d.error("Cannot load the skill", e);
        return;
      }
    } else if (text.startsWith("/")) expanded = expandPromptTemplate(text, await this.d.completions.promptTemplates());
    const blocks: string[] = [];
    const roots = this.d.workspaceRoots();
    try {
      for (const m of mentions) {
        if (!mentionInText(text, m.label)) continue;
        // The root comes from the webview: only a workspace folder is read.
        if (!roots.includes(m.root)) throw new AttachmentError(`${m.label}: not in a folder of this workspace`);
        const a = await buildAttachment(m.root, {
          path: m.path,
          ...(m.text !== undefined ? { text: m.text, startLine: m.startLine, endLine: m.endLine } : {}),
        });
        if (!blocks.includes(a.block)) blocks.push(a.block);
      }
    } catch (e) {
      this.d.input.setText(text);
      this.d.error(e instanceof AttachmentError ? "Cannot attach" : "Cannot send", e);
      return;
    }
    const content = composeUserContent(expanded, blocks, images.map(imageBlock));
    if (queue === undefined) return this.d.send(expanded, content);
    const error = this.d.queue(queue, expanded, content);
    if (error !== undefined) {
      this.d.input.setText(text);
      this.d.error("Cannot queue the message", new Error(error));
    }
  }

  /** `!command`: runs it; when it cannot run, the text goes back into the input with the reason. */
  private async runCommand(text: string, command: UserCommand): Promise<void> {
    try {
      await this.d.runCommand(command);
    } catch (e) {
      this.d.input.setText(text);
      this.d.error("Cannot run the command", e);
    }
  }

  /** Add Selection to Chat: the active editor's selection (or its line) as a mention with its text. */
  async addSelection(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) return void vscode.window.showInformationMessage("Open a file and select some text first.");
    const doc = editor.document;
    const sel = editor.selection;
    const range = sel.isEmpty ? doc.lineAt(sel.active.line).range : sel;
    // A selection ending at column 0 of a line does not include that line.
    const endLine =
      range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
    const where = this.place(doc.uri);
    if (!where)
      return void vscode.window.showInformationMessage("Only files inside the workspace can be added to the chat.");
    const startLine = range.start.line + 1;
    const lines = startLine === endLine + 1 ? `${startLine}` : `${startLine}-${endLine + 1}`;
    await this.mention({
      label: `@${where.path}#${lines}`,
      ...where,
      text: doc.getText(range),
      startLine,
      endLine: endLine + 1,
    });
  }

  /** Add File to Chat (Explorer context menu; several selected files arrive as the second argument). */
  async addFiles(arg: unknown, all: unknown): Promise<void> {
    const uris = (Array.isArray(all) && all.length > 0 ? all : [arg]).filter(
      (u): u is vscode.Uri => u instanceof vscode.Uri,
    );
    const active = vscode.window.activeTextEditor?.document.uri;
    if (uris.length === 0 && active) uris.push(active);
    await this.addUris(uris);
  }

  /** Files dropped onto the input (URIs as strings from the webview). */
  async dropFiles(uris: readonly string[]): Promise<void> {
    const parsed: vscode.Uri[] = [];
    for (const u of uris) {
      try {
        parsed.push(u.startsWith("/") ? vscode.Uri.file(u) : vscode.Uri.parse(u, true));
      } catch {
        // Not a URI (text dragged from elsewhere): nothing to mention.
      }
    }
    await this.addUris(parsed);
  }

  private async addUris(uris: readonly vscode.Uri[]): Promise<void> {
    let outside = 0;
    for (const uri of uris) {
      const where = this.place(uri);
      if (!where) {
        outside++;
        continue;
      }
      const isDir =
        (await vscode.workspace.fs.stat(uri).then(
          (s) => s.type,
          () => vscode.FileType.Unknown,
        )) & vscode.FileType.Directory;
      const p = isDir && where.path !== "." ? `${where.path}/` : where.path;
      await this.mention({ label: `@${p}`, root: where.root, path: where.path });
    }
    if (outside > 0)
      void vscode.window.showInformationMessage(`${outside} item(s) outside the workspace were not added to the chat.`);
  }

  private async mention(mention: MentionDto): Promise<void> {
    await this.d.revealChat();
    this.d.input.addMention(mention);
  }

  /** The workspace folder holding `uri` and the path below it; undefined outside the workspace. */
  private place(uri: vscode.Uri): { root: string; path: string } | undefined {
    if (uri.scheme !== "file") return undefined;
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (!folder || folder.uri.scheme !== "file") return undefined;
    const rel = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join("/");
    return { root: folder.uri.fsPath, path: rel || "." };
  }
}
