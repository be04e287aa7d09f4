/** Registers the "Agent: …" commands and the tree's context-menu commands (package.json contributes). */
import * as vscode from "vscode";
import type { HostActions } from "./actions.js";
import type { ArchiveActions } from "./archive-actions.js";
import type { ChatInputService } from "./chat-input/chat-input-service.js";
import { COMMAND_IDS, type CommandId } from "./command-ids.js";
import type { CompareActions } from "./compare/compare-actions.js";
import type { CheckpointActions } from "./checkpoint-actions.js";
import type { EditReview } from "./edit-review.js";
import type { ExportActions } from "./export-actions.js";
import type { McpServersUi } from "./mcp-servers-ui.js";
import type { ModelActions } from "./model-actions.js";
import type { ParallelActions } from "./parallel/parallel-actions.js";
import { parseEntryContextArg } from "./protocol-validation.js";
import type { SessionController } from "./session-controller.js";
import type { SessionOpener } from "./session-opener.js";
import type { SessionSearchUi } from "./session-search-ui.js";
import type { SystemPromptDocuments } from "./system-prompt-document.js";
import type { AgentWebviewView } from "./webview-view.js";

/** What the commands call. */
export interface CommandDeps {
  controller: SessionController;
  opener: SessionOpener;
  search: SessionSearchUi;
  actions: HostActions;
  /** Archive Branch, Unarchive Branch, Delete Branch Permanently…. */
  archive: ArchiveActions;
  models: ModelActions;
  /** Add Selection to Chat, Add File to Chat. */
  chatInput: ChatInputService;
  /** Rename Session…: asks for the name. */
  renameSession(): Promise<void>;
  exporter: ExportActions;
  compare: CompareActions;
  /** Restore Files to This Point, Show Changes at This Point, Undo File Restore. */
  files: CheckpointActions;
  /** Opens the workspace's session if none is open yet. */
  ensureSession(): Promise<boolean>;
  /** Agent: Show System Prompt. */
  systemPrompt: SystemPromptDocuments;
  /** The tree and chat views ("Reload Views"). */
  views: readonly AgentWebviewView[];
  /** Accept, Reject and Accept All in This Run of an edit shown as a diff. */
  review: EditReview;
  /** Agent: Show MCP Servers. */
  mcpServers: McpServersUi;
  /** Explore in Parallel, Stop Branch, Stop All Branches, Adopt This Branch, Archive Other Branches, Ask Aside. */
  parallel: ParallelActions;
}

/** Register every command; the returned disposables go into the extension context. */
export function registerCommands(d: CommandDeps): vscode.Disposable[] {
  const { actions, models, exporter, opener, controller, compare, files } = d;
  // Context-menu commands get the element's data-vscode-context object: untrusted, checked here.
  const withEntry =
    (run: (entryId: string) => unknown) =>
    async (arg: unknown): Promise<void> => {
      const parsed = parseEntryContextArg(arg, { hasEntry: (id) => controller.hasEntry(id) });
      if (parsed) await run(parsed.entryId);
    };
  const ensured = (run: () => unknown) => async (): Promise<void> => {
    await d.ensureSession();
    await run();
  };
  // From a row's context menu: that row; from the palette: a picker.
  const entryOrPick = (run: (entryId?: string) => unknown) => async (arg?: unknown) => {
    await d.ensureSession();
    const parsed = parseEntryContextArg(arg, { hasEntry: (id) => controller.hasEntry(id) });
    await run(parsed?.entryId);
  };
  const handlers: Record<CommandId, (arg?: unknown, more?: unknown) => unknown> = {
    "agentTree.summarizeAndSwitchBranch": ensured(() => actions.pickAndNavigate("choose")),
    "agentTree.switchBranch": ensured(() => actions.pickAndNavigate("none")),
    "agentTree.labelEntry": entryOrPick((id) => actions.labelEntry(id)),
    "agentTree.removeLabel": withEntry((id) => actions.removeLabel(id)),
    "agentTree.switchHere": withEntry((id) => actions.navigate(id, "none")),
    "agentTree.summarizeAndSwitchHere": withEntry((id) => actions.navigate(id, "summarize")),
    "agentTree.forkHere": withEntry((id) => actions.forkAt(id)),
    "agentTree.copyText": withEntry((id) => actions.copyText(id)),
    "agentTree.forkSession": ensured(() => actions.forkAt()),
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
    "agentTree.compact": ensured(() => actions.compact()),
    "agentTree.selectModel": ensured(() => models.selectModel()),
    "agentTree.selectThinkingLevel": ensured(() => models.selectThinkingLevel()),
    // From the diff editor's title bar (its document) or the palette (the active or newest review).
    "agentTree.acceptEdit": (arg?: unknown) => d.review.decide(arg, true),
    "agentTree.rejectEdit": (arg?: unknown) => d.review.decide(arg, false),
    "agentTree.acceptAllEditsInRun": (arg?: unknown) => d.review.decide(arg, true, true),
    "agentTree.setApiKey": () => models.setApiKey(),
    "agentTree.abort": () => actions.abort(),
    "agentTree.exportHtml": ensured(() => exporter.exportHtml(false)),
    "agentTree.exportBranchHtml": ensured(() => exporter.exportHtml(true)),
    // Bound to Ctrl+O / Ctrl+U while the tree has focus: the view toggles its filter itself, and this
    // binding keeps the workbench (Open File…) from acting on the same key press.
    "agentTree.treeKeyHandled": () => undefined,
    // From the palette: both views, one after the other; from a view's "Reload View" link: that view ("tree"/"chat").
    "agentTree.reloadViews": async (arg?: unknown) => {
      for (const view of d.views) if (arg === undefined || arg === view.kind) await view.reload();
    },
    "agentTree.compareWithCurrent": withEntry((id) => compare.compareWithCurrent(id)),
    "agentTree.compareBranches": ensured(() => compare.compareBranches()),
    "agentTree.bringConclusionsHere": withEntry((id) => compare.bringConclusions(id)),
    "agentTree.goToSource": withEntry((id) => compare.goToSource(id)),
    "agentTree.restoreFilesHere": withEntry((id) => files.restoreFilesHere(id)),
    "agentTree.showChangesHere": withEntry((id) => files.showChangesHere(id)),
    "agentTree.undoFileRestore": ensured(() => files.undoFileRestore()),
    "agentTree.archiveBranch": entryOrPick((id) => d.archive.archive(id)),
    "agentTree.unarchiveBranch": entryOrPick((id) => d.archive.unarchive(id)),
    "agentTree.deleteBranch": entryOrPick((id) => d.archive.deletePermanently(id)),
    // From a row's context menu: the prompt in force there; from the palette: at the leaf.
    "agentTree.showSystemPrompt": entryOrPick((id) => d.systemPrompt.show(id)),
    // The tree's toolbar toggle, from the palette or a keybinding: the view keeps the choice (webview state).
    "agentTree.toggleArchivedBranches": async () => {
      const tree = d.views.find((view) => view.kind === "tree");
      if (!tree) return;
      await tree.reveal();
      tree.post({ type: "tree/toggleArchived" });
    },
    "agentTree.addSelectionToChat": ensured(() => d.chatInput.addSelection()),
    // The Explorer passes the clicked item and every selected one.
    "agentTree.addFileToChat": async (arg?: unknown, all?: unknown) => {
      await d.ensureSession();
      await d.chatInput.addFiles(arg, all);
    },
    "agentTree.renameSession": ensured(() => d.renameSession()),
    "agentTree.showMcpServers": () => d.mcpServers.show(),
    "agentTree.exploreInParallel": entryOrPick((id) => d.parallel.explore(id)),
    "agentTree.stopBranch": withEntry((id) => d.parallel.stopBranch(id)),
    "agentTree.stopAllBranches": () => d.parallel.stopAll(),
    "agentTree.adoptBranch": withEntry((id) => d.parallel.adopt(id)),
    "agentTree.archiveOtherBranches": withEntry((id) => d.parallel.archiveOthers(id)),
    "agentTree.askAside": ensured(() => d.parallel.askAside()),
  };
  return COMMAND_IDS.map((id) => vscode.commands.registerCommand(id, handlers[id]));
}
