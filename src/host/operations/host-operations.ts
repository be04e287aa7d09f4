/**
 * The extension's operations, declared once each (see operations.ts): what every palette command, row menu item,
 * tree key and button that acts on the session does, on which entry, and what it needs first. A new operation is
 * one line here plus its command id (command-ids.ts) and package.json entry. Pure: the actions come in as
 * interfaces (type imports only), so a test can run the table with recording fakes.
 */
import type { HostActions } from "../actions.js";
import type { ArchiveActions } from "../archive-actions.js";
import type { CheckpointActions } from "../checkpoint-actions.js";
import type { CompareActions } from "../compare/compare-actions.js";
import type { ExportActions } from "../export-actions.js";
import type { BranchChecks } from "../parallel/branch-checks.js";
import type { BranchWatch } from "../parallel/branch-watch.js";
import type { ParallelActions } from "../parallel/parallel-actions.js";
import type { SystemPromptDocuments } from "../system-prompt-document.js";
import type { OperationNeed } from "./operation-guards.js";
import type { OperationSpec } from "./operations.js";

/** The actions the operations run. */
export interface OperationActions {
  actions: Pick<
    HostActions,
    "pickAndNavigate" | "labelEntry" | "removeLabel" | "navigate" | "forkAt" | "copyText" | "compact"
  >;
  archive: Pick<ArchiveActions, "archive" | "unarchive" | "deletePermanently">;
  compare: Pick<CompareActions, "compareWithCurrent" | "compareBranches" | "bringConclusions" | "goToSource">;
  files: Pick<CheckpointActions, "restoreFilesHere" | "showChangesHere" | "undoFileRestore">;
  exporter: Pick<ExportActions, "exportHtml">;
  systemPrompt: Pick<SystemPromptDocuments, "show">;
  parallel: Pick<ParallelActions, "explore" | "stopBranch" | "adopt" | "archiveOthers">;
  /** A check per branch: Run Check Again, Adopt Best Branch. */
  checks: Pick<BranchChecks, "runAgain" | "adoptBest">;
  /** The chat's watch of a running branch (a click on its row, the banner's buttons). */
  watch: Pick<BranchWatch, "watch" | "back" | "leaveForSwitch">;
}

/** Reads the session only. */
const READ: readonly OperationNeed[] = ["session"];
/** Writes the session: it must be writable and the agent idle on the branch. */
const WRITE: readonly OperationNeed[] = ["session", "writable", "idle"];
/** A label is written while a reply streams too (it moves nothing). */
const LABEL: readonly OperationNeed[] = ["session", "writable"];
/** Moves the leaf (its files may follow): as WRITE, and the workspace's files free. A click on a row needs it too. */
export const MOVE: readonly OperationNeed[] = ["session", "writable", "idle", "files"];
/** Changes the workspace's files: the agent idle (its tools write files too) and the files free. */
const FILES: readonly OperationNeed[] = ["session", "idle", "files"];

/**
 * The table (see the file comment). `entryId` is the row's, or undefined from the palette (then a picker asks).
 * Its ids are literal types (OperationId), so commands.ts is checked at compile time to handle every other id.
 */
export function hostOperations(a: OperationActions) {
  const { actions, archive, compare, files, exporter, systemPrompt, parallel, watch, checks } = a;
  const id = (entryId: string | undefined): string => entryId as string;
  return [
    {
      id: "agentTree.summarizeAndSwitchBranch",
      target: "none",
      needs: MOVE,
      run: () => actions.pickAndNavigate("choose"),
    },
    { id: "agentTree.switchBranch", target: "none", needs: MOVE, run: () => actions.pickAndNavigate("none") },
    { id: "agentTree.switchHere", target: "entry", needs: MOVE, run: (e) => actions.navigate(id(e), "none") },
    {
      id: "agentTree.summarizeAndSwitchHere",
      target: "entry",
      needs: MOVE,
      run: (e) => actions.navigate(id(e), "summarize"),
    },
    { id: "agentTree.labelEntry", target: "entryOrPick", needs: LABEL, run: (e) => actions.labelEntry(e) },
    { id: "agentTree.removeLabel", target: "entry", needs: LABEL, run: (e) => actions.removeLabel(id(e)) },
    { id: "agentTree.forkHere", target: "entry", needs: ["session", "idle"], run: (e) => actions.forkAt(id(e)) },
    { id: "agentTree.forkSession", target: "none", needs: ["session", "idle"], run: () => actions.forkAt() },
    { id: "agentTree.copyText", target: "entry", needs: READ, run: (e) => actions.copyText(id(e)) },
    { id: "agentTree.compact", target: "none", needs: WRITE, run: () => actions.compact() },
    { id: "agentTree.exportHtml", target: "none", needs: READ, run: () => exporter.exportHtml(false) },
    { id: "agentTree.exportBranchHtml", target: "none", needs: READ, run: () => exporter.exportHtml(true) },
    { id: "agentTree.compareWithCurrent", target: "entry", needs: READ, run: (e) => compare.compareWithCurrent(id(e)) },
    { id: "agentTree.compareBranches", target: "none", needs: READ, run: () => compare.compareBranches() },
    { id: "agentTree.bringConclusionsHere", target: "entry", needs: MOVE, run: (e) => compare.bringConclusions(id(e)) },
    { id: "agentTree.goToSource", target: "entry", needs: READ, run: (e) => compare.goToSource(id(e)) },
    { id: "agentTree.restoreFilesHere", target: "entry", needs: FILES, run: (e) => files.restoreFilesHere(id(e)) },
    { id: "agentTree.showChangesHere", target: "entry", needs: READ, run: (e) => files.showChangesHere(id(e)) },
    { id: "agentTree.undoFileRestore", target: "none", needs: FILES, run: () => files.undoFileRestore() },
    { id: "agentTree.archiveBranch", target: "entryOrPick", needs: WRITE, run: (e) => archive.archive(e) },
    { id: "agentTree.unarchiveBranch", target: "entryOrPick", needs: WRITE, run: (e) => archive.unarchive(e) },
    { id: "agentTree.deleteBranch", target: "entryOrPick", needs: WRITE, run: (e) => archive.deletePermanently(e) },
    // A row's menu: the prompt in force there; the palette: at the leaf.
    { id: "agentTree.showSystemPrompt", target: "entryOrPick", needs: READ, run: (e) => systemPrompt.show(e) },
    // Branches work in copies of the workspace: the user's files are not touched, and the main agent may run.
    {
      id: "agentTree.exploreInParallel",
      target: "entryOrPick",
      needs: ["session", "writable"],
      run: (e) => parallel.explore(e),
    },
    { id: "agentTree.stopBranch", target: "entry", needs: READ, run: (e) => parallel.stopBranch(id(e)) },
    // The branch's files come into the workspace (a three-way merge) and the leaf moves onto it.
    { id: "agentTree.adoptBranch", target: "entry", needs: MOVE, run: (e) => parallel.adopt(id(e)) },
    {
      id: "agentTree.archiveOtherBranches",
      target: "entry",
      needs: ["session", "writable"],
      run: (e) => parallel.archiveOthers(id(e)),
    },
    // The check runs in the branch's copy: the workspace's files are not touched, and the main agent may run.
    {
      id: "agentTree.runCheckAgain",
      target: "entry",
      needs: ["session", "writable"],
      run: (e) => checks.runAgain(id(e)),
    },
    // A row's: its exploration; the palette: the newest. Adopting is Adopt This Branch's merge and move.
    { id: "agentTree.adoptBestBranch", target: "entryOrPick", needs: MOVE, run: (e) => checks.adoptBest(e) },
    // Watching moves nothing and writes nothing: the main agent may run meanwhile (a click on a running branch's row).
    { id: "agentTree.watchBranch", target: "entry", needs: READ, run: (e) => watch.watch(id(e)) },
    { id: "agentTree.backToMyBranch", target: "none", needs: READ, run: () => watch.back() },
    // Once the watched branch ended: an ordinary move to its newest entry, with a click's dialogs.
    {
      id: "agentTree.switchToWatchedBranch",
      target: "none",
      needs: MOVE,
      run: () => {
        const tip = watch.leaveForSwitch();
        return tip === undefined ? undefined : actions.navigate(tip, "ask");
      },
    },
  ] as const satisfies readonly OperationSpec[];
}

/** The command ids of the table. */
export type OperationId = ReturnType<typeof hostOperations>[number]["id"];
