/**
 * The extension's commands, listed once: package.json contributes and binds exactly these (a unit test compares), the
 * host registers a handler for each (an entry of the operations table, src/host/operations/host-operations.ts, or
 * a handler in src/host/commands.ts; activation fails loudly when one has neither), and a webview button names
 * one through WEBVIEW_COMMAND_IDS. Pure: no `vscode` import.
 */
import type { WebviewCommand } from "../../shared/protocol.js";

/** The commands package.json contributes (`contributes.commands`, in the palette; test/host/manifest.test.ts). */
export const CONTRIBUTED_COMMAND_IDS = [
  "agentTree.summarizeAndSwitchBranch",
  "agentTree.switchBranch",
  "agentTree.labelEntry",
  "agentTree.removeLabel",
  "agentTree.switchHere",
  "agentTree.summarizeAndSwitchHere",
  "agentTree.forkHere",
  "agentTree.copyText",
  "agentTree.forkSession",
  "agentTree.newSession",
  "agentTree.addSelectionToChat",
  "agentTree.addFileToChat",
  "agentTree.renameSession",
  "agentTree.openSession",
  "agentTree.searchSessions",
  "agentTree.continueInNewSession",
  "agentTree.compact",
  "agentTree.selectModel",
  "agentTree.setApiKey",
  "agentTree.logIn",
  "agentTree.logOut",
  "agentTree.nextModel",
  "agentTree.abort",
  "agentTree.exportHtml",
  "agentTree.exportBranchHtml",
  "agentTree.reloadViews",
  "agentTree.compareWithCurrent",
  "agentTree.compareBranches",
  "agentTree.bringConclusionsHere",
  "agentTree.goToSource",
  "agentTree.restoreFilesHere",
  "agentTree.showChangesHere",
  "agentTree.undoFileRestore",
  "agentTree.archiveBranch",
  "agentTree.unarchiveBranch",
  "agentTree.deleteBranch",
  "agentTree.toggleArchivedBranches",
  "agentTree.selectThinkingLevel",
  "agentTree.acceptEdit",
  "agentTree.rejectEdit",
  "agentTree.acceptAllEditsInRun",
  "agentTree.showMcpServers",
  "agentTree.showToolRules",
  "agentTree.exploreInParallel",
  "agentTree.replayWithModel",
  "agentTree.stopBranch",
  "agentTree.stopAllBranches",
  "agentTree.adoptBranch",
  "agentTree.archiveOtherBranches",
  "agentTree.adoptBestBranch",
  "agentTree.runCheckAgain",
  "agentTree.askAside",
  "agentTree.continueAsBranch",
  "agentTree.showSystemPrompt",
  "agentTree.watchBranch",
  "agentTree.goToEntry",
  "agentTree.backToMyBranch",
  "agentTree.switchToWatchedBranch",
  "agentTree.togglePlanMode",
  "agentTree.approvePlan",
] as const;

/**
 * Commands only keybindings name (not in the palette): ctrl+o and ctrl+u in the tree view are the tree's own keys,
 * and binding them to a command that does nothing keeps VS Code from opening a file or a terminal meanwhile.
 */
export const KEYBINDING_COMMAND_IDS = ["agentTree.treeKeyHandled"] as const;

/** Every command the host registers. */
export const COMMAND_IDS = [...CONTRIBUTED_COMMAND_IDS, ...KEYBINDING_COMMAND_IDS] as const;

/** A command id of this extension. */
export type CommandId = (typeof COMMAND_IDS)[number];

/** The command each webview toolbar button stands for. */
export const WEBVIEW_COMMAND_IDS: Readonly<Record<WebviewCommand, CommandId>> = {
  newSession: "agentTree.newSession",
  openSession: "agentTree.openSession",
  compact: "agentTree.compact",
  setApiKey: "agentTree.setApiKey",
  logIn: "agentTree.logIn",
  selectModel: "agentTree.selectModel",
  exportHtml: "agentTree.exportHtml",
  togglePlanMode: "agentTree.togglePlanMode",
  approvePlan: "agentTree.approvePlan",
};
