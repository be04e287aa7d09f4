/**
 * The window's MCP servers: one pool for the workspace, its configuration read from pi's user file, the
 * project's files (trusted workspaces only) and `agentTree.mcp.servers`, re-read when any of them changes. A failed
 * server or a bad entry is said once (a warning, and the full text in the log); Enable/Disable choices are kept
 * for the workspace. A project's server starts only once the user allowed its entry in a modal dialog, as VS Code
 * asks for a workspace's servers; the answers are kept in workspaceState and every step is logged. The servers stop
 * when the window closes (`dispose`).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { agreementRecords, type McpAgreement } from "../../core/mcp/mcp-agreement.js";
import { readMcpConfig } from "../../core/mcp/mcp-config-files.js";
import { McpPool, type McpReport } from "../../core/mcp/mcp-pool.js";
import { getAgentDir } from "../../core/session/paths.js";
import { affects } from "../common/settings.js";

const OVERRIDES_KEY = "agentTree.mcp.enabled";
/** The user's answers about project servers (server name → hash of the entry and the answer). */
const AGREEMENTS_KEY = "agentTree.mcp.agreements";
const ALLOW = "Allow";
const REFUSE = "Don't Allow";

/** What the service needs from the extension. */
export interface McpServiceDeps {
  context: vscode.ExtensionContext;
  cwd: string;
  log: vscode.LogOutputChannel;
  /** The environment stdio servers inherit (the host's without model keys). */
  baseEnv: () => NodeJS.ProcessEnv;
  /** Names of the variables that hold model keys (`keyEnvNames` over the model registry). */
  keyEnvNames: () => readonly string[];
}

function mcpSetting(key: "timeout"): unknown {
  return vscode.workspace.getConfiguration("agentTree.mcp").get<unknown>(key);
}

/**
 * `agentTree.mcp.servers` by scope: the user's own value, and the workspace's (workspace, then folder). The
 * workspace's comes with the project, so its entries are project entries (readMcpConfig).
 */
function serversSetting(): { setting: unknown; workspaceSettings: unknown[] } {
  const i = vscode.workspace.getConfiguration("agentTree.mcp").inspect<unknown>("servers");
  return { setting: i?.globalValue, workspaceSettings: [i?.workspaceValue, i?.workspaceFolderValue] };
}

/** The modal question about a project server: Allow, Don't Allow, or dismissed (undefined). */
async function askUser(question: { title: string; detail: string }): Promise<"allowed" | "refused" | undefined> {
  const choice = await vscode.window.showWarningMessage(
    question.title,
    { modal: true, detail: question.detail },
    ALLOW,
    REFUSE,
  );
  return choice === ALLOW ? "allowed" : choice === REFUSE ? "refused" : undefined;
}

/** `agentTree.mcp.timeout` in ms (default 60 s). */
function callTimeoutMs(): number {
  const v = mcpSetting("timeout");
  return typeof v === "number" && Number.isFinite(v) && v > 0 ? Math.round(v * 1000) : 60_000;
}

/** See the file comment. */
export class McpService implements vscode.Disposable {
  readonly pool: McpPool;
  private readonly disposables: vscode.Disposable[] = [];

  constructor(private readonly deps: McpServiceDeps) {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const projectDir = folder?.scheme === "file" ? folder.fsPath : undefined;
    const agreement: McpAgreement = {
      ...agreementRecords(deps.context.workspaceState, AGREEMENTS_KEY),
      ask: (_server, question) => askUser(question),
    };
    this.pool = new McpPool({
      cwd: deps.cwd,
      loadConfig: () =>
        readMcpConfig({
          ...(projectDir ? { projectDir } : {}),
          trusted: vscode.workspace.isTrusted,
          ...serversSetting(),
        }),
      baseEnv: deps.baseEnv,
      keyEnvNames: deps.keyEnvNames,
      agreement,
      log: (line) => deps.log.info(line),
      callTimeoutMs,
      onReport: (r) => this.report(r),
      enabledOverrides: deps.context.workspaceState.get<Record<string, boolean>>(OVERRIDES_KEY) ?? {},
    });
    const reload = (why: string): void => {
      deps.log.info(`MCP configuration changed (${why}): servers restart with the next prompt`);
      void this.pool.reload();
    };
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affects(e, "mcp.servers")) reload("agentTree.mcp.servers");
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => reload("workspace trusted")),
    );
    const watch = (base: vscode.Uri | string, pattern: string, what: string): void => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, pattern));
      const on = (): void => reload(what);
      this.disposables.push(w, w.onDidChange(on), w.onDidCreate(on), w.onDidDelete(on));
    };
    if (folder) watch(folder, "{.pi/mcp.json,.mcp.json,.vscode/mcp.json}", "project mcp.json");
    watch(vscode.Uri.file(getAgentDir()), "mcp.json", `${path.join(getAgentDir(), "mcp.json")}`);
  }

  private report(r: McpReport): void {
    this.deps.log.warn(r.message);
    const first = r.message.split("\n")[0];
    void vscode.window.showWarningMessage(first, "Show MCP Servers").then((choice) => {
      if (choice) void vscode.commands.executeCommand("agentTree.showMcpServers");
    });
  }

  /** Asks the user to allow a project server and starts it when allowed (Agent: Show MCP Servers → Allow). */
  async allow(name: string): Promise<void> {
    await this.pool.allow(name);
  }

  /** Enable or disable a server for this workspace (kept across reloads of the window). */
  async setEnabled(name: string, enabled: boolean): Promise<void> {
    await this.pool.setEnabled(name, enabled);
    await this.deps.context.workspaceState.update(OVERRIDES_KEY, this.pool.enabledOverrides());
  }

  /** Stops the servers; resolves when their processes are gone. */
  async stop(): Promise<void> {
    await this.pool.dispose();
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    void this.stop();
  }
}
