/**
 * Agent: Show MCP Servers — a quick pick of every configured server with its state and tools, kept live while
 * open, with a Restart and an Enable/Disable button on each row; a project server not allowed yet (or refused) has
 * an Allow button instead of Start, which asks with the entry in full. Picking a server writes its details (tools
 * with their descriptions, the last error with the server's stderr) to the log and shows it.
 */
import * as vscode from "vscode";
import type { McpServerStatus } from "../../core/mcp/mcp-pool.js";
import { PROJECT_MCP_FILES } from "../../core/mcp/mcp-config-files.js";
import { iconButton, type ValueItem } from "../common/pick-value.js";
import type { McpService } from "./mcp-service.js";
import { errorText } from "../../core/error-text.js";

const STATE_ICON: Record<McpServerStatus["state"], string> = {
  running: "$(pass-filled)",
  starting: "$(loading~spin)",
  stopped: "$(circle-outline)",
  failed: "$(error)",
  disabled: "$(circle-slash)",
  unapproved: "$(shield)",
  refused: "$(workspace-untrusted)",
};

const STATE_TEXT: Record<McpServerStatus["state"], string> = {
  running: "running",
  starting: "starting…",
  stopped: "not started (starts with the next prompt)",
  failed: "failed",
  disabled: "disabled",
  unapproved: "not allowed yet (a project's server: Allow to start it)",
  refused: "not allowed (you refused this entry: Allow to start it)",
};

/** A row: a server's (its status as the value), or a note (none). */
type ServerItem = ValueItem<McpServerStatus>;

const RESTART = iconButton("debug-restart", "Restart");
const START = iconButton("play", "Start");
const DISABLE = iconButton("circle-slash", "Disable");
const ENABLE = iconButton("check", "Enable");
const ALLOW = iconButton("unlock", "Allow…");

/** The row of one server. */
export function serverItem(s: McpServerStatus): ServerItem {
  const tools = s.tools.length === 1 ? "1 tool" : `${s.tools.length} tools`;
  const state = s.state === "running" ? `running · ${tools}` : STATE_TEXT[s.state];
  const detail =
    s.state === "failed" && s.error
      ? s.error.split("\n")[0]
      : s.tools.length > 0
        ? s.tools.map((t) => t.mcpName).join(", ")
        : `${s.transport === "http" ? "" : "$ "}${s.target}`;
  const first =
    s.state === "unapproved" || s.state === "refused"
      ? ALLOW
      : s.state === "stopped" || s.state === "failed"
        ? START
        : RESTART;
  const buttons = s.state === "disabled" ? [ENABLE] : [first, DISABLE];
  return {
    label: `${STATE_ICON[s.state]} ${s.name}`,
    description: `${state} — ${s.source}`,
    detail,
    buttons,
    value: s,
  };
}

/** Everything about one server, for the log. */
export function serverDetails(s: McpServerStatus): string {
  const lines = [
    `MCP server "${s.name}" (${s.transport}: ${s.target}) from ${s.source}: ${STATE_TEXT[s.state]}${s.pid ? `, pid ${s.pid}` : ""}`,
  ];
  if (s.origin === "project")
    lines.push("  A project's entry: it starts only once you allowed it (asked again when the entry changes).");
  for (const t of s.tools)
    lines.push(`  ${t.name}${t.readOnly ? " (read-only)" : ""}: ${t.description.split("\n")[0].slice(0, 200)}`);
  if (s.error) lines.push(s.error);
  return lines.join("\n");
}

/** See the file comment. */
export class McpServersUi {
  constructor(
    private readonly mcp: McpService,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  private items(): ServerItem[] {
    const servers = this.mcp.pool.status();
    const items: ServerItem[] = servers.map(serverItem);
    for (const issue of this.mcp.pool.configIssues())
      items.push({
        label: `$(warning) ${issue.server ?? issue.source}`,
        description: issue.source,
        detail: issue.message,
      });
    if (!vscode.workspace.isTrusted)
      items.push({
        label: "$(shield) Project MCP files are not read",
        detail: `This workspace is not trusted, so ${PROJECT_MCP_FILES.join(", ")} are ignored (they name programs to run).`,
      });
    if (servers.length === 0)
      items.unshift({
        label: "No MCP servers configured",
        detail: `Add servers to ~/.pi/agent/mcp.json, ${PROJECT_MCP_FILES.join(", ")} (trusted workspaces) or the setting agentTree.mcp.servers.`,
      });
    return items;
  }

  /** Shows the list until it is closed. */
  show(): void {
    const qp = vscode.window.createQuickPick<ServerItem>();
    qp.title = "MCP Servers";
    qp.placeholder = "Pick a server for its details; the buttons restart, enable or disable it";
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    const refresh = (): void => {
      const active = qp.activeItems[0]?.value?.name;
      qp.items = this.items();
      const again = qp.items.find((i) => i.value?.name === active);
      if (again) qp.activeItems = [again];
    };
    refresh();
    const unsubscribe = this.mcp.pool.onDidChange(refresh);
    qp.onDidTriggerItemButton(async ({ item, button }) => {
      const s = item.value;
      if (!s) return;
      try {
        if (button === ENABLE || button === DISABLE) await this.mcp.setEnabled(s.name, button === ENABLE);
        else if (button === ALLOW) await this.mcp.allow(s.name);
        else await this.mcp.pool.restart(s.name);
      } catch (e) {
        void vscode.window.showErrorMessage(errorText(e));
      }
      refresh();
    });
    qp.onDidAccept(() => {
      const s = qp.selectedItems[0]?.value;
      if (!s) return;
      this.log.info(serverDetails(s));
      this.log.show(true);
    });
    qp.onDidHide(() => {
      unsubscribe();
      qp.dispose();
    });
    qp.show();
  }
}
