/**
 * The editor side of "files follow the tree": the files step of a branch switch, the row items Restore Files to
 * This Point and Show Changes at This Point, the palette's Undo File Restore, and the read-only checkpoint
 * documents the diff editor shows. Every file operation takes the window's one files lock (common/files-lock.ts),
 * so they run one at a time, a branch switch's file restore included; none runs while the agent is replying (its
 * tools write files too).
 */
import * as path from "node:path";
import * as vscode from "vscode";

import type { CheckpointSessionView } from "../../core/checkpoints/session-link.js";
import type { WorkspaceCheckpoints } from "../../core/checkpoints/workspace-checkpoints.js";
import type { CommandId } from "../common/command-ids.js";
import type { BringFilesDeps, BroughtConflict } from "../compare/bring-files.js";
import { CheckpointCompareFiles } from "../compare/compare-files.js";
import type { CompareFilesHost } from "../compare/compare-feed.js";
import { CANNOT_FOLLOW, type CheckpointService } from "./checkpoint-service.js";
import { restoreFilesTo, undoFileRestore, type RestoreUi } from "./file-restore.js";
import type { FilesFollow } from "../tree/navigate-flow.js";
import { RestoreOnSwitch } from "./restore-on-switch.js";
import type { FilesLock } from "../common/files-lock.js";
import type { Notify } from "../common/notifier.js";
import type { SessionController } from "../session/session-controller.js";
import { restoreOnSwitchSetting } from "../common/settings.js";
import {
  CHECKPOINT_SCHEME,
  checkpointDocumentText,
  checkpointUriParts,
  parseCheckpointUri,
  turnChanges,
  type CheckpointFileRef,
  type TurnFileChange,
} from "./turn-changes.js";
import { UNDO_CHOICE, vscodeRestoreUi } from "./vscode-restore-ui.js";

/** The command id of Undo File Restore (offered on the message after a restore). */
const UNDO_FILE_RESTORE_COMMAND: CommandId = "agentTree.undoFileRestore";

/** The action on the message after another branch's files came along with conflicts. */
export const OPEN_CONFLICTS_CHOICE = "Open Conflicts";

/**
 * VS Code's merge editor on arbitrary documents: an internal command (no public API opens the merge editor outside
 * a git repository), so a failure to run it falls back to a plain editor, where VS Code's conflict CodeLens works.
 */
const MERGE_EDITOR_COMMAND = "_open.mergeEditor";

/** What the actions need. */
export interface CheckpointActionDeps {
  controller: SessionController;
  service: CheckpointService;
  notify: Notify;
  /** The window's one lock on the workspace's files. */
  lock: FilesLock;
}

function uriOf(file: CheckpointFileRef): vscode.Uri {
  return vscode.Uri.from(checkpointUriParts(file));
}

/** One side of a changed file: before the turn (under its old name when renamed), or at the row. */
function ref(c: TurnFileChange, side: "before" | "after"): CheckpointFileRef {
  return side === "before"
    ? { folder: c.folder, checkpointId: c.beforeId, path: c.change.oldPath ?? c.change.path }
    : { folder: c.folder, checkpointId: c.afterId, path: c.change.path };
}

/** See the file comment. */
export class CheckpointActions {
  constructor(private readonly d: CheckpointActionDeps) {}

  /** Serves the read-only checkpoint documents (`agent-tree-checkpoint:` URIs). */
  registerDocuments(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(CHECKPOINT_SCHEME, {
      provideTextDocumentContent: async (uri) => {
        const file = parseCheckpointUri(uri);
        const checkpoints = await this.d.service.workspace();
        if (!file || !checkpoints) return "";
        return checkpointDocumentText(checkpoints, file);
      },
    });
  }

  /** The files section of a compare tab comparing two nodes of `view` (the session it was opened on). */
  compareFiles(view: CheckpointSessionView): CompareFilesHost {
    return new CheckpointCompareFiles({
      view,
      checkpoints: () => this.d.service.workspace(),
      openDiff: async (left, right, title) =>
        void (await vscode.commands.executeCommand("vscode.diff", uriOf(left), uriOf(right), title)),
    });
  }

  /** The files part of Bring Conclusions Here for `view`, or undefined when files cannot follow the tree here. */
  async bringFiles(view: CheckpointSessionView): Promise<BringFilesDeps | undefined> {
    const checkpoints = await this.d.service.workspace();
    if (!checkpoints || checkpoints.folders().length === 0) return undefined;
    return { view, checkpoints, ui: this.ui(), lock: this.d.lock };
  }

  /** The message after another branch's files came along: Undo File Restore, and Open Conflicts when some are. */
  filesBrought(message: string, conflicts: readonly BroughtConflict[]): void {
    const choices = conflicts.length > 0 ? [OPEN_CONFLICTS_CHOICE, UNDO_CHOICE] : [UNDO_CHOICE];
    void this.d.notify.offer(message, ...choices).then((pick) => {
      if (pick === UNDO_CHOICE) void vscode.commands.executeCommand(UNDO_FILE_RESTORE_COMMAND);
      if (pick === OPEN_CONFLICTS_CHOICE) void this.openConflicts(conflicts);
    });
  }

  /** Opens the conflicts of a merge (several: the user picks which, all preselected). */
  async openConflicts(conflicts: readonly BroughtConflict[]): Promise<void> {
    let chosen = conflicts;
    if (conflicts.length > 1) {
      const items = conflicts.map((c) => ({ label: c.shown, picked: true, conflict: c }));
      const picked = await vscode.window.showQuickPick(items, {
        canPickMany: true,
        title: OPEN_CONFLICTS_CHOICE,
        placeHolder: "The files the other branch's changes did not go into cleanly",
      });
      if (!picked) return;
      chosen = picked.map((p) => p.conflict);
    }
    for (const c of chosen) await openConflict(c);
  }

  /** The files step of one branch switch (HostActions.navigate); undefined when files stay as they are. */
  async filesFollow(): Promise<FilesFollow | undefined> {
    const sm = this.d.controller.sessionManager;
    const setting = restoreOnSwitchSetting();
    if (!sm || setting === "never") return undefined;
    const checkpoints = await this.d.service.workspace();
    if (!checkpoints) return undefined;
    return new RestoreOnSwitch({ view: sm, checkpoints, setting, ui: this.ui(), lock: this.d.lock });
  }

  /** Restore Files to This Point: the row's files, without moving the conversation. */
  async restoreFilesHere(entryId: string): Promise<void> {
    await this.exclusive(async (checkpoints) => {
      const sm = this.d.controller.sessionManager;
      if (sm) await restoreFilesTo({ view: sm, checkpoints, ui: this.ui(), lock: this.d.lock }, entryId);
    });
  }

  /** Undo File Restore: the files the last restore replaced come back. */
  async undoFileRestore(): Promise<void> {
    await this.exclusive((checkpoints) => undoFileRestore(this.ui(), checkpoints, this.d.lock));
  }

  /**
   * Show Changes at This Point: the diff editor for the file the row's turn changed, or VS Code's multi-file
   * diff editor with all of them; both sides are read-only checkpoint documents.
   */
  async showChangesHere(entryId: string): Promise<void> {
    const sm = this.d.controller.sessionManager;
    if (!sm) return;
    const checkpoints = await this.available();
    if (!checkpoints) return;
    let changes: TurnFileChange[];
    try {
      changes = await turnChanges(sm, entryId, checkpoints);
    } catch (e) {
      return this.d.notify.error("Cannot list the changes", e);
    }
    if (changes.length === 0) return this.d.notify.info("This turn changed no files here.");
    if (changes.length === 1) {
      // A side the checkpoint lacks (an added or deleted file) reads as an empty document.
      const c = changes[0];
      const title = `${path.basename(c.change.path)} (changes of this turn)`;
      await vscode.commands.executeCommand("vscode.diff", uriOf(ref(c, "before")), uriOf(ref(c, "after")), title);
      return;
    }
    // The multi-file diff editor: every file of the turn in one list; a missing side shows as added or deleted.
    await vscode.commands.executeCommand(
      "vscode.changes",
      `Changes of this turn (${changes.length} files)`,
      changes.map((c) => [
        vscode.Uri.file(path.join(c.folder, c.change.path)),
        c.change.status === "added" ? undefined : uriOf(ref(c, "before")),
        c.change.status === "deleted" ? undefined : uriOf(ref(c, "after")),
      ]),
    );
  }

  private ui(): RestoreUi {
    return vscodeRestoreUi(UNDO_FILE_RESTORE_COMMAND, (text, kind) => this.d.notify.status(text, kind));
  }

  /** The workspace's checkpoints, or undefined after saying why files cannot follow the tree here. */
  private async available(): Promise<WorkspaceCheckpoints | undefined> {
    const checkpoints = await this.d.service.workspace();
    if (!checkpoints || checkpoints.folders().length === 0) {
      const why = this.d.service.problems();
      this.d.notify.warn(why.length > 0 ? why.join(" ") : `${CANNOT_FOLLOW} in this window.`);
      return undefined;
    }
    return checkpoints;
  }

  /** Runs a file operation on the workspace's checkpoints (the operations table checked the agent is idle). */
  private async exclusive(run: (checkpoints: WorkspaceCheckpoints) => Promise<unknown>): Promise<void> {
    const checkpoints = await this.available();
    if (checkpoints) await run(checkpoints);
  }
}

/**
 * One conflict of a merge. A text conflict (the file holds conflict markers) opens in VS Code's merge editor: the
 * common ancestor's version as the base, the files before the merge as "Current", the other branch's as "Incoming",
 * the file as the result. Other conflicts open the other branch's version beside the file that was kept.
 */
async function openConflict(c: BroughtConflict): Promise<void> {
  const file = vscode.Uri.file(path.join(c.folder, c.path));
  const at = (checkpointId: string): vscode.Uri => uriOf({ folder: c.folder, checkpointId, path: c.path });
  if (c.outcome === "conflict") {
    try {
      await vscode.commands.executeCommand(MERGE_EDITOR_COMMAND, {
        base: at(c.baseId),
        input1: { uri: at(c.beforeId), title: "Current", description: "your files before the merge" },
        input2: { uri: at(c.theirsId), title: "Incoming", description: "the other branch" },
        output: file,
      });
    } catch {
      await vscode.window.showTextDocument(file, { preview: false });
    }
    return;
  }
  const kept = await vscode.workspace.fs.stat(file).then(
    (st) => st.type === vscode.FileType.File,
    () => false,
  );
  if (!kept) return void (await vscode.window.showTextDocument(at(c.theirsId), { preview: false }));
  await vscode.commands.executeCommand(
    "vscode.diff",
    at(c.theirsId),
    file,
    `${path.basename(c.path)} (other branch ↔ current)`,
  );
}
