/**
 * The extension's operations, declared once each (see operations.ts): what every palette command, row menu item,
 * tree click and key, button and slash command that acts on the session does, on which entry, and what it needs
 * first. A new operation is one line here plus its command id (command-ids.ts) and package.json entry. Pure: the
 * actions come in as interfaces (type imports only), so a test can run the table with recording fakes.
 */
import type { HostActions } from "../tree/actions.js";
import type { ArchiveActions } from "../archive/archive-actions.js";
import type { CheckpointActions } from "../checkpoints/checkpoint-actions.js";
import type { CompareActions } from "../compare/compare-actions.js";
import type { ExportActions } from "../export/export-actions.js";
import type { BranchChecks } from "../parallel/branch-checks.js";
import type { BranchWatch } from "../parallel/branch-watch.js";
import type { ParallelActions } from "../parallel/parallel-actions.js";
import type { SystemPromptDocuments } from "../prompt/system-prompt-document.js";
import type { OperationNeed } from "./operation-guards.js";
import type { OperationSpec } from "./operations.js";

/** The actions the operations run. */
export interface OperationActions {
  actions: Pick<
    HostActions,
    "pickNode" | "labelEntry" | "removeLabel" | "navigate" | "forkAt" | "copyText" | "compact" | "abort"
  >;
  archive: Pick<ArchiveActions, "archive" | "unarchive" | "deletePermanently" | "pickArchived">;
  compare: Pick<CompareActions, "compareWithCurrent" | "compareBranches" | "bringConclusions" | "goToSource">;
  files: Pick<CheckpointActions, "restoreFilesHere" | "showChangesHere" | "undoFileRestore">;
  exporter: Pick<ExportActions, "exportHtml">;
  systemPrompt: Pick<SystemPromptDocuments, "show">;
  parallel: Pick<
    ParallelActions,
    "explore" | "replay" | "askAside" | "continueAsBranch" | "stopBranch" | "stopAll" | "adopt" | "archiveOthers"
  >;
  /** A check per branch: Run Check Again, Adopt Best Branch. */
  checks: Pick<BranchChecks, "runAgain" | "adoptBest">;
  /** The chat's watch of a running branch (a click on its row, the banner's buttons). */
  watch: Pick<BranchWatch, "watch" | "back" | "leaveForSwitch" | "isRunningRow">;
  /** Rename Session… and `/name`: names the session (an empty name asks for one). */
  renameSession(name?: string): Promise<void>;
}

/** Reads the session only. */
const READ: readonly OperationNeed[] = ["session"];
/** Writes the session at its entry (the leaf when none): it must be writable and nothing at work there. */
const WRITE: readonly OperationNeed[] = ["session", "writable", "idle"];
/** Writes the session without moving anything (a label, a name, a branch started beside the others). */
const LABEL: readonly OperationNeed[] = ["session", "writable"];
/**
 * Moves the leaf (its files may follow) to the entry: the leaf and the entry idle — the leaf's agent may not be
 * working, and a running branch's row is watched, not moved to —, and the workspace's files free.
 */
export const MOVE: readonly OperationNeed[] = ["session", "writable", "leafIdle", "idle", "files"];
/** Changes the workspace's files: the leaf's agent idle (its tools write them too; branches work in copies), files free. */
const FILES: readonly OperationNeed[] = ["session", "leafIdle", "files"];
/** Takes a branch (archive, unarchive): nothing at work at its first entry or below it. */
const BRANCH: readonly OperationNeed[] = ["session", "writable", "branchIdle"];
/** Rewrites the session file without the branch: as BRANCH, and the leaf's agent idle. */
const DELETE: readonly OperationNeed[] = ["session", "writable", "leafIdle", "branchIdle"];

/** What a move holds the leaf as (the wording a second one is refused with). */
const SWITCHING = "a branch switch";

/**
 * The table (see the file comment). `entryId` is the row's, or the picked one. Its ids are literal types
 * (OperationId), so commands.ts is checked at compile time to handle every other id.
 */
export function hostOperations(a: OperationActions) {
  const { actions, archive, compare, files, exporter, systemPrompt, parallel, watch, checks } = a;
  const id = (entryId: string | undefined): string => entryId as string;
  const pick = (title: string) => () => actions.pickNode(title);
  return [
    // A click or Enter on a row: a move that asks about the summary — or, on a running branch's row, a watch.
    {
      id: "agentTree.goToEntry",
      target: "entry",
      needs: MOVE,
      holds: SWITCHING,
      instead: (e) => (watch.isRunningRow(e) ? "agentTree.watchBranch" : undefined),
      run: (e) => actions.navigate(id(e), "ask"),
    },
    {
      id: "agentTree.summarizeAndSwitchBranch",
      target: "pick",
      pick: pick("Summarize and Switch Branch"),
      needs: MOVE,
      holds: SWITCHING,
      run: (e) => actions.navigate(id(e), "choose"),
    },
    {
      id: "agentTree.switchBranch",
      target: "pick",
      pick: pick("Switch Branch"),
      needs: MOVE,
      holds: SWITCHING,
      run: (e) => actions.navigate(id(e), "none"),
    },
    {
      id: "agentTree.switchHere",
      target: "entry",
      needs: MOVE,
      holds: SWITCHING,
      run: (e) => actions.navigate(id(e), "none"),
    },
    {
      id: "agentTree.summarizeAndSwitchHere",
      target: "entry",
      needs: MOVE,
      holds: SWITCHING,
      run: (e) => actions.navigate(id(e), "summarize"),
    },
    {
      id: "agentTree.labelEntry",
      target: "entryOrPick",
      pick: pick("Label Entry"),
      needs: LABEL,
      run: (e) => actions.labelEntry(id(e)),
    },
    { id: "agentTree.removeLabel", target: "entry", needs: LABEL, run: (e) => actions.removeLabel(id(e)) },
    // `/clone` forks at the leaf with the input "at" (its user message kept); a row's menu and `/fork`, before it.
    {
      id: "agentTree.forkHere",
      target: "entry",
      needs: ["session", "idle"],
      run: (e, at) => (at === "at" ? actions.forkAt(id(e), "at") : actions.forkAt(id(e))),
    },
    {
      id: "agentTree.forkSession",
      target: "pick",
      pick: pick("Fork Session"),
      needs: ["session", "idle"],
      run: (e) => actions.forkAt(id(e)),
    },
    { id: "agentTree.copyText", target: "entry", needs: READ, run: (e) => actions.copyText(id(e)) },
    // `/compact [focus]`: the focus comes with the slash command.
    { id: "agentTree.compact", target: "none", needs: WRITE, run: (_e, focus) => actions.compact(focus || undefined) },
    // Stops the leaf's reply and the command the user typed: needs nothing (nothing runs without a session).
    { id: "agentTree.abort", target: "none", needs: [], run: () => actions.abort() },
    { id: "agentTree.renameSession", target: "none", needs: LABEL, run: (_e, name) => a.renameSession(name) },
    // `/export <path>` brings the page's path (no save dialog).
    {
      id: "agentTree.exportHtml",
      target: "none",
      needs: READ,
      run: (_e, file) => (file ? exporter.exportHtml(false, file) : exporter.exportHtml(false)),
    },
    { id: "agentTree.exportBranchHtml", target: "none", needs: READ, run: () => exporter.exportHtml(true) },
    { id: "agentTree.compareWithCurrent", target: "entry", needs: READ, run: (e) => compare.compareWithCurrent(id(e)) },
    { id: "agentTree.compareBranches", target: "none", needs: READ, run: () => compare.compareBranches() },
    {
      id: "agentTree.bringConclusionsHere",
      target: "entry",
      needs: MOVE,
      holds: "bringing conclusions",
      run: (e) => compare.bringConclusions(id(e)),
    },
    { id: "agentTree.goToSource", target: "entry", needs: READ, run: (e) => compare.goToSource(id(e)) },
    { id: "agentTree.restoreFilesHere", target: "entry", needs: FILES, run: (e) => files.restoreFilesHere(id(e)) },
    { id: "agentTree.showChangesHere", target: "entry", needs: READ, run: (e) => files.showChangesHere(id(e)) },
    { id: "agentTree.undoFileRestore", target: "none", needs: FILES, run: () => files.undoFileRestore() },
    {
      id: "agentTree.archiveBranch",
      target: "entryOrPick",
      pick: pick("Archive Branch: pick the first entry of the branch"),
      needs: BRANCH,
      run: (e) => archive.archive(id(e)),
    },
    {
      id: "agentTree.unarchiveBranch",
      target: "entryOrPick",
      pick: () => archive.pickArchived(),
      needs: BRANCH,
      run: (e) => archive.unarchive(id(e)),
    },
    {
      id: "agentTree.deleteBranch",
      target: "entryOrPick",
      pick: pick("Delete Branch Permanently: pick the first entry"),
      needs: DELETE,
      run: (e) => archive.deletePermanently(id(e)),
    },
    // A row's menu: the prompt in force there; the palette: at the leaf.
    { id: "agentTree.showSystemPrompt", target: "entryOrPick", needs: READ, run: (e) => systemPrompt.show(e) },
    // Branches work in copies of the workspace: the user's files are not touched, and the main agent may run. A row's
    // menu explores from there; the palette and `/explore [prompt]` from the leaf.
    {
      id: "agentTree.exploreInParallel",
      target: "entryOrPick",
      needs: LABEL,
      run: (e, prompt) => parallel.explore(e, prompt || undefined),
    },
    // As Explore in Parallel: the branches work in copies, the main agent may run. A row's menu and key replay from
    // that row's turn to the leaf; the palette asks for the row.
    {
      id: "agentTree.replayWithModel",
      target: "entryOrPick",
      pick: pick("Replay with Model: from which row's turn to the current leaf?"),
      needs: LABEL,
      run: (e) => parallel.replay(id(e)),
    },
    // From the leaf as it is, beside whatever runs there; `/aside <question>` brings its question.
    {
      id: "agentTree.askAside",
      target: "none",
      needs: LABEL,
      run: (_e, question) => parallel.askAside(question || undefined),
    },
    // An aside's answer becomes the leaf, as a click on it would (the summary question, the files): a move, refused
    // while the aside still runs there or the main agent works.
    {
      id: "agentTree.continueAsBranch",
      target: "entry",
      needs: MOVE,
      holds: SWITCHING,
      run: (e) => parallel.continueAsBranch(id(e)),
    },
    { id: "agentTree.stopBranch", target: "entry", needs: READ, run: (e) => parallel.stopBranch(id(e)) },
    { id: "agentTree.stopAllBranches", target: "none", needs: READ, run: () => parallel.stopAll() },
    // The branch's files come into the workspace (a three-way merge) and the leaf moves onto it.
    {
      id: "agentTree.adoptBranch",
      target: "entry",
      needs: MOVE,
      holds: "adopting a branch",
      run: (e) => parallel.adopt(id(e)),
    },
    { id: "agentTree.archiveOtherBranches", target: "entry", needs: LABEL, run: (e) => parallel.archiveOthers(id(e)) },
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
      holds: SWITCHING,
      run: () => {
        const tip = watch.leaveForSwitch();
        return tip === undefined ? undefined : actions.navigate(tip, "ask");
      },
    },
  ] as const satisfies readonly OperationSpec[];
}

/** The command ids of the table. */
export type OperationId = ReturnType<typeof hostOperations>[number]["id"];
