/**
 * The rows of the chat input's completion list. `@`: the workspace's files and folders from one cached
 * FileIndex (src/core/mentions/file-index.ts), kept current by a FileSystemWatcher (deletions at once, new
 * files by a fresh walk on the next query), recently opened files first. `/`: the built-in commands
 * (slash-commands.ts), then pi's prompt templates, loaded once and again when a prompts folder changes (the
 * workspace's `.pi/prompts` only in a trusted workspace), then the skills as `/skill:name` (pi's commands; the
 * instructions' loader lists them, so a trusted workspace's too). A template that is skipped (a link leading out of the
 * workspace, a FIFO, too large, bad frontmatter) is named in the chat once and in the output channel.
 */
import path from "node:path";
import * as vscode from "vscode";
import { FileIndex } from "../../core/mentions/file-index.js";
import { loadPromptTemplates, type PromptTemplate } from "../../core/prompt/prompt-templates.js";
import type { SkillInfo } from "../../core/prompt/prompt-options.js";
import { SKILL_COMMAND_PREFIX } from "../../core/prompt/skill-command.js";
import { getAgentDir } from "../../core/session/paths.js";
import type { CompletionItemDto } from "../../shared/protocol.js";
import { SkippedFilesNotice } from "../prompt/skipped-files-notice.js";
import { MAX_COMPLETIONS } from "./completion-limits.js";
import { shownCommands, SLASH_COMMANDS, type SlashCommand } from "./slash-commands.js";

/** Recently opened files remembered for ranking. */
const MAX_RECENT = 50;

/** See the file comment. */
export class ChatCompletions implements vscode.Disposable {
  private readonly index: FileIndex;
  private readonly recent: string[] = [];
  private templates: Promise<PromptTemplate[]> | undefined;
  private readonly disposables: vscode.Disposable[] = [];
  private readonly notice: SkippedFilesNotice;

  /** `chat`: posts a status line to the chat view (where skipped templates are named). */
  constructor(
    log: vscode.LogOutputChannel,
    chat: (text: string, kind: "info" | "error") => void = () => undefined,
    private readonly commands: readonly SlashCommand[] = SLASH_COMMANDS,
    private readonly skills: () => Promise<readonly SkillInfo[]> = async () => [],
  ) {
    this.notice = new SkippedFilesNotice({
      chat,
      log: (text, kind) => (kind === "warning" ? log.warn(text) : log.info(text)),
    });
    this.index = new FileIndex(folders());
    const files = vscode.workspace.createFileSystemWatcher("**/*");
    const prompts = vscode.workspace.createFileSystemWatcher(
      new vscode.RelativePattern(vscode.Uri.file(path.join(getAgentDir(), "prompts")), "*.md"),
    );
    const templatesChanged = (uri: vscode.Uri): void => {
      if (uri.fsPath.endsWith(".md") && path.basename(path.dirname(uri.fsPath)) === "prompts")
        this.templates = undefined;
    };
    for (const w of [files, prompts]) {
      w.onDidCreate(templatesChanged);
      w.onDidChange(templatesChanged);
      w.onDidDelete(templatesChanged);
    }
    this.disposables.push(
      files,
      prompts,
      files.onDidCreate(() => this.index.invalidate()),
      files.onDidDelete((uri) => this.index.remove(uri.fsPath)),
      files.onDidChange((uri) => {
        if (path.basename(uri.fsPath) === ".gitignore") this.index.invalidate();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.index.setRoots(folders())),
      vscode.workspace.onDidGrantWorkspaceTrust(() => (this.templates = undefined)),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e?.document.uri.scheme === "file") this.opened(e.document.uri.fsPath);
      }),
    );
    for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
      if (tab.input instanceof vscode.TabInputText && tab.input.uri.scheme === "file")
        this.opened(tab.input.uri.fsPath);
    }
    const active = vscode.window.activeTextEditor?.document.uri;
    if (active?.scheme === "file") this.opened(active.fsPath);
  }

  /** Rows for `query` after `trigger`. */
  async complete(trigger: "@" | "/", query: string): Promise<CompletionItemDto[]> {
    if (trigger === "/") return this.commandItems(query);
    const multiRoot = (vscode.workspace.workspaceFolders?.length ?? 0) > 1;
    const found = await this.index.search(query, MAX_COMPLETIONS, this.recent);
    return found.map((s) => ({
      kind: s.isDir ? "folder" : "file",
      value: s.path,
      root: s.root,
      ...(multiRoot ? { detail: path.basename(s.root) } : {}),
      ...(s.recent ? { recent: true } : {}),
    }));
  }

  /** `/reload`: the prompt templates read again now. */
  async reloadTemplates(): Promise<PromptTemplate[]> {
    this.templates = undefined;
    return this.promptTemplates();
  }

  /** The prompt templates in force (loaded once, again after a prompts folder changed). */
  async promptTemplates(): Promise<PromptTemplate[]> {
    this.templates ??= loadPromptTemplates({
      projectDirs: vscode.workspace.isTrusted ? folders() : [],
    }).then(({ templates, diagnostics }) => {
      this.notice.say(diagnostics.map((d) => `Skipped prompt template ${d.path}: ${d.message}`));
      return templates;
    });
    return this.templates;
  }

  private async commandItems(query: string): Promise<CompletionItemDto[]> {
    const q = query.toLowerCase();
    const templatesNow = await this.promptTemplates();
    const commands = shownCommands(this.commands, new Set(templatesNow.map((t) => t.name)));
    const item = (c: SlashCommand): CompletionItemDto => ({
      kind: "command",
      value: c.name,
      detail: c.description,
      ...(c.argumentHint ? { hint: c.argumentHint } : {}),
    });
    const matching = commands.filter((c) => c.name.startsWith(q));
    const builtins = matching.filter((c) => !c.absent).map(item);
    // pi's commands Agent Tree lacks come last, so they never push the user's templates and skills off the list.
    const absent = matching.filter((c) => c.absent).map(item);
    const taken = new Set(commands.map((c) => c.name));
    const templates: CompletionItemDto[] = [];
    for (const t of templatesNow) {
      if (taken.has(t.name) || !t.name.toLowerCase().startsWith(q)) continue;
      taken.add(t.name);
      templates.push({
        kind: "template",
        value: t.name,
        detail: t.description,
        ...(t.argumentHint ? { hint: t.argumentHint } : {}),
      });
    }
    // `/pdf` finds `/skill:pdf-tools` too: a skill is matched by its command and by its name.
    const skills: CompletionItemDto[] = (await this.skills())
      .filter((s) => `${SKILL_COMMAND_PREFIX}${s.name}`.startsWith(q) || s.name.toLowerCase().startsWith(q))
      .map((s) => ({
        kind: "skill",
        value: `${SKILL_COMMAND_PREFIX}${s.name}`,
        detail: s.description,
        hint: "[request]",
      }));
    return [...builtins, ...templates, ...skills, ...absent].slice(0, MAX_COMPLETIONS);
  }

  private opened(file: string): void {
    const at = this.recent.indexOf(file);
    if (at >= 0) this.recent.splice(at, 1);
    this.recent.unshift(file);
    if (this.recent.length > MAX_RECENT) this.recent.pop();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

function folders(): string[] {
  return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath);
}
