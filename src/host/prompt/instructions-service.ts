/**
 * The workspace's instructions in VS Code (docs/system-prompt.md): one InstructionLoader for the workspace's
 * folders, pi's agent folder and Workspace Trust; file watchers that invalidate its cache, so a changed AGENTS.md,
 * SYSTEM.md or SKILL.md takes effect on the next request; and the messages about skipped files (a link leading
 * out of the workspace, a FIFO, a file over the cap, …) and an untrusted workspace, each said once, in the chat and
 * the output channel (skipped-files-notice.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { InstructionLoader, type LoadedInstructions } from "../../core/prompt/instruction-loader.js";
import { workspacePromptProvider, type SystemPromptProvider } from "../../core/prompt/workspace-prompt.js";
import { getAgentDir } from "../../core/session/paths.js";
import { systemPromptAppendSetting } from "../common/settings.js";
import { SkippedFilesNotice, type NoticeSink } from "./skipped-files-notice.js";

/** Told once when the workspace is not trusted. */
export const UNTRUSTED_NOTICE =
  "This workspace is not trusted: its .pi/ files (SYSTEM.md, APPEND_SYSTEM.md) and skills are not loaded, and " +
  "instruction files reached through a link are left out. AGENTS.md and CLAUDE.md still are loaded. Trust the " +
  "workspace to use them.";

/** File folders of the workspace (the local ones: the tools and the instructions read the disk). */
function workspaceFolders(fallback: string): string[] {
  const folders = (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme === "file")
    .map((f) => f.uri.fsPath);
  return folders.length > 0 ? folders : [fallback];
}

/** See the file comment. */
export class InstructionsService implements vscode.Disposable {
  readonly loader: InstructionLoader;
  /** What AgentSession builds its prompt from (SessionController passes it on). */
  readonly provider: SystemPromptProvider;
  private readonly watchers = new Map<string, vscode.Disposable>();
  private readonly notice: SkippedFilesNotice;
  private lastLoaded: LoadedInstructions | undefined;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(cwd: string, notices: NoticeSink) {
    this.notice = new SkippedFilesNotice(notices);
    this.loader = new InstructionLoader({
      workspaceFolders: workspaceFolders(cwd),
      agentDir: getAgentDir(),
      trusted: vscode.workspace.isTrusted,
    });
    const base = workspacePromptProvider({ loader: this.loader, append: systemPromptAppendSetting });
    this.provider = async (tools) => {
      const options = await base(tools);
      this.afterLoad(await this.loader.load());
      return options;
    };
    this.disposables.push(
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.loader.setSources({ trusted: true })),
      vscode.workspace.onDidChangeWorkspaceFolders(() =>
        this.loader.setSources({ workspaceFolders: workspaceFolders(cwd) }),
      ),
    );
  }

  /** Reports what the load skipped (once each) and watches what it looked at. */
  private afterLoad(loaded: LoadedInstructions): void {
    // The loader's cache hands back the same result until a watched file changes: nothing new to say or watch.
    if (loaded === this.lastLoaded) return;
    this.lastLoaded = loaded;
    this.notice.say(
      loaded.issues.map((i) => i.message),
      loaded.restrictedByTrust ? UNTRUSTED_NOTICE : undefined,
    );
    this.watch(loaded);
  }

  /**
   * One watcher per folder holding watched files (a pattern of their names) and one per existing skills folder
   * (`**∕SKILL.md`); a folder that does not exist yet is watched from its parent when that exists, so creating
   * `.pi/SYSTEM.md` or a first skill is seen too.
   */
  private watch(loaded: LoadedInstructions): void {
    const byFolder = new Map<string, Set<string>>();
    const add = (folder: string, pattern: string): void => {
      const set = byFolder.get(folder) ?? new Set<string>();
      set.add(pattern);
      byFolder.set(folder, set);
    };
    for (const file of loaded.watchFiles) {
      const dir = path.dirname(file);
      if (fs.existsSync(dir)) add(dir, path.basename(file));
      else add(path.dirname(dir), `${path.basename(dir)}/${path.basename(file)}`);
    }
    for (const folder of loaded.skillFolders) {
      if (fs.existsSync(folder)) add(folder, "**/SKILL.md");
      else add(path.dirname(folder), `${path.basename(folder)}/**/SKILL.md`);
    }
    for (const [folder, patterns] of byFolder) {
      if (!fs.existsSync(folder)) continue;
      const glob = patterns.size === 1 ? [...patterns][0] : `{${[...patterns].sort().join(",")}}`;
      const key = `${folder}\0${glob}`;
      if (this.watchers.has(key)) continue;
      const watcher = vscode.workspace.createFileSystemWatcher(
        new vscode.RelativePattern(vscode.Uri.file(folder), glob),
      );
      const invalidate = (): void => this.loader.invalidate();
      watcher.onDidChange(invalidate);
      watcher.onDidCreate(invalidate);
      watcher.onDidDelete(invalidate);
      this.watchers.set(key, watcher);
    }
  }

  /** Stops watching. */
  dispose(): void {
    for (const w of this.watchers.values()) w.dispose();
    this.watchers.clear();
    for (const d of this.disposables) d.dispose();
  }
}
