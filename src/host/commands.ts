/** Registers the "Agent: …" commands and the tree's context-menu commands (package.json contributes). */
import * as vscode from "vscode";
import type { ChatInputService } from "./chat-input/chat-input-service.js";
import { COMMAND_IDS, type CommandId } from "./common/command-ids.js";
import type { HostServices } from "./common/services.js";
import type { EditReview } from "./review/edit-review.js";
import type { McpServersUi } from "./mcp/mcp-servers-ui.js";
import type { ModelActions } from "./models/model-actions.js";
import type { ToolRulesUi } from "./tools/tool-rules-ui.js";
import type { OperationId } from "./operations/host-operations.js";
import type { PlanModeActions } from "./chat/plan-mode-actions.js";
import type { SessionOpener } from "./session/session-opener.js";
import type { SessionSearchUi } from "./search/session-search-ui.js";

/** What the commands call besides the services (the operations table, the views, the archived branches' choice). */
export interface CommandDeps {
  opener: SessionOpener;
  search: SessionSearchUi;
  models: ModelActions;
  /** Add Selection to Chat, Add File to Chat. */
  chatInput: ChatInputService;
  /** Opens the workspace's session if none is open yet. */
  ensureSession(): Promise<boolean>;
  /** Accept, Reject and Accept All in This Run of an edit shown as a diff. */
  review: EditReview;
  /** Agent: Show MCP Servers. */
  mcpServers: McpServersUi;
  /** Agent: Show Tool Rules. */
  toolRules: Pick<ToolRulesUi, "show">;
  /** Toggle Plan Mode (a string argument: a task to plan), Approve Plan. */
  planMode: Pick<PlanModeActions, "toggle" | "approve">;
}

/** A command handler: the palette passes nothing, a menu its context, the Explorer its item and selection. */
type Handler = (arg?: unknown, more?: unknown) => unknown;

/**
 * Register every command (disposed with the extension). A command of the operations table runs through it (its
 * guards, its entry); the others — opening sessions, models, views — are here.
 */
export function registerCommands(s: HostServices, d: CommandDeps): void {
  const { models, opener } = d;
  const operations = s.operations.get();
  const views = [s.views.tree, s.views.chat];
  const ensured = (run: () => unknown) => async (): Promise<void> => {
    await d.ensureSession();
    await run();
  };
  // Every command id that is not an operation has a handler here, and none that is: checked by the compiler.
  const others: Record<Exclude<CommandId, OperationId>, Handler> = {
    "agentTree.newSession": () => opener.newSession(),
    // With a file (Explorer context menu, other extensions, tests) it opens that file directly; a Claude
    // Code transcript is recognised by its content and opens read-only.
    "agentTree.openSession": async (arg?: unknown) => {
      const file =
        arg instanceof vscode.Uri ? arg.fsPath : typeof arg === "string" && arg.endsWith(".jsonl") ? arg : undefined;
      if (file) await opener.openPath(file);
      else await opener.pick();
    },
    "agentTree.searchSessions": () => d.search.show(),
    "agentTree.continueInNewSession": () => opener.continueInNewSession(),
    "agentTree.selectModel": ensured(() => models.selectModel()),
    "agentTree.selectThinkingLevel": ensured(() => models.selectThinkingLevel()),
    // From the diff editor's title bar (its document) or the palette (the active or newest review).
    "agentTree.acceptEdit": (arg?: unknown) => d.review.decide(arg, true),
    "agentTree.rejectEdit": (arg?: unknown) => d.review.decide(arg, false),
    "agentTree.acceptAllEditsInRun": (arg?: unknown) => d.review.decide(arg, true, true),
    "agentTree.setApiKey": () => models.setApiKey(),
    "agentTree.logIn": () => models.credentials.logIn(),
    "agentTree.logOut": () => models.credentials.logOut(),
    "agentTree.nextModel": ensured(() => models.nextModel()),
    // Bound to Ctrl+O / Ctrl+U while the tree has focus: the view toggles its filter itself, and this
    // binding keeps the workbench (Open File…) from acting on the same key press.
    "agentTree.treeKeyHandled": () => undefined,
    // From the palette: both views, one after the other; from a view's "Reload View" link: that view ("tree"/"chat").
    "agentTree.reloadViews": async (arg?: unknown) => {
      for (const view of views) if (arg === undefined || arg === view.kind) await view.reload();
    },
    // The tree's toolbar toggle, from the palette or a keybinding: the host keeps the choice, the tree shows it
    // (its snapshot on `ready` carries it when the view is still loading).
    "agentTree.toggleArchivedBranches": async () => {
      s.views.archived.toggle();
      await views.find((view) => view.kind === "tree")?.reveal();
    },
    "agentTree.addSelectionToChat": ensured(() => d.chatInput.addSelection()),
    // The Explorer passes the clicked item and every selected one.
    "agentTree.addFileToChat": async (arg?: unknown, all?: unknown) => {
      await d.ensureSession();
      await d.chatInput.addFiles(arg, all);
    },
    "agentTree.showMcpServers": () => d.mcpServers.show(),
    "agentTree.showToolRules": () => d.toolRules.show(),
    "agentTree.togglePlanMode": async (arg?: unknown) => {
      await d.ensureSession();
      await d.planMode.toggle(arg);
    },
    "agentTree.approvePlan": ensured(() => d.planMode.approve()),
  };
  const rest: Partial<Record<CommandId, Handler>> = others;
  s.subscribe(
    ...COMMAND_IDS.map((id) => {
      const handler = operations.spec(id) ? operations.handler(id) : rest[id];
      if (!handler) throw new Error(`no handler for command ${id}`);
      return vscode.commands.registerCommand(id, handler);
    }),
  );
}
