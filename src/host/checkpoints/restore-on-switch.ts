/**
 * Files follow a branch switch (the setting `agentTree.checkpoints.restoreOnSwitch`): before the leaf moves, the
 * files of the target node (the latest checkpoint on its path) are restored — after asking with the list of
 * files that would change ("ask"), or without asking ("always"); "never" leaves the files alone. The files go
 * first and the leaf second: if the move then does not happen (summary cancelled or failed, a hook cancelled
 * it), the files are put back to the checkpoint taken just before the restore. Pure: the editor comes in as a
 * RestoreUi.
 */
import { restoreTargetsFor, type CheckpointSessionView } from "../../core/checkpoints/session-link.js";
import type { WorkspaceCheckpoints } from "../../core/checkpoints/workspace-checkpoints.js";

import {
  changedCount,
  dirtyOf,
  failedMessage,
  planWithProgress,
  restoredMessage,
  restoreQuestion,
  runRestore,
  type RestoreRun,
  type RestoreUi,
} from "./file-restore.js";
import type { FilesFollow } from "../tree/navigate-flow.js";
import { filesBusyText, type FilesLock } from "../common/files-lock.js";
import { errorText } from "../../core/error-text.js";

/** The setting `agentTree.checkpoints.restoreOnSwitch`. */
export type RestoreOnSwitchSetting = "ask" | "always" | "never";

/** What a branch switch's files need. */
export interface RestoreOnSwitchDeps {
  view: CheckpointSessionView;
  /** The workspace's checkpoints; undefined when files cannot follow the tree here. */
  checkpoints: WorkspaceCheckpoints | undefined;
  setting: RestoreOnSwitchSetting;
  ui: RestoreUi;
  /** The window's one lock on the workspace's files: held from the restore until the move ended. */
  lock: FilesLock;
}

/** One branch switch's files (create one per switch). See the file comment. */
export class RestoreOnSwitch implements FilesFollow {
  private done: Extract<RestoreRun, { kind: "restored" }> | undefined;
  private release: (() => void) | undefined;

  constructor(private readonly d: RestoreOnSwitchDeps) {}

  async beforeMove(targetId: string): Promise<boolean> {
    const { checkpoints, ui, setting } = this.d;
    if (setting === "never" || !checkpoints) return true;
    const targets = restoreTargetsFor(this.d.view, targetId, checkpoints.folders());
    // Nothing recorded on that path (an old session, another machine's store): the files stay.
    if (targets.length === 0) return true;
    const release = this.d.lock.acquire("branch switch");
    if (!release) {
      ui.showInfo(filesBusyText(this.d.lock.heldBy ?? "file restore"));
      return false;
    }
    this.release = release;
    try {
      const go = await this.restore(targets);
      if (!go) this.unlock();
      return go;
    } catch (e) {
      this.unlock();
      throw e;
    }
  }

  private async restore(targets: ReturnType<typeof restoreTargetsFor>): Promise<boolean> {
    const { checkpoints, ui, setting } = this.d;
    if (!checkpoints) return true;
    let knownDirty: string[] = [];
    if (setting === "ask") {
      const plans = await planWithProgress(ui, checkpoints, targets);
      if (!plans) return false;
      if (changedCount(plans) === 0) return true;
      const answer = await ui.confirmRestore(restoreQuestion(plans, checkpoints.folders().length > 1, true));
      if (answer === undefined) return false;
      if (answer === "keep") return true;
      knownDirty = dirtyOf(plans);
    }
    const run = await runRestore(ui, "Restoring files…", (o) => checkpoints.restore(targets, o), knownDirty);
    if (run.kind === "cancelled") return false;
    if (run.kind === "failed") {
      ui.showError(failedMessage("Restoring files failed, so the branch was not switched", run));
      return false;
    }
    if (changedCount(run.results) > 0 || run.discarded.length > 0) this.done = run;
    return true;
  }

  async afterMove(moved: boolean): Promise<void> {
    try {
      await this.settle(moved);
    } finally {
      this.unlock();
    }
  }

  private unlock(): void {
    this.release?.();
    this.release = undefined;
  }

  private async settle(moved: boolean): Promise<void> {
    const done = this.done;
    this.done = undefined;
    if (!done || !this.d.checkpoints) return;
    const { ui, checkpoints } = this.d;
    if (moved) {
      await ui.revertDocuments(done.discarded);
      ui.restored(restoredMessage(changedCount(done.results)));
      return;
    }
    // Not cancellable: stopping half-way would leave the files of a point the conversation is not at.
    const back = done.results.map((r) => ({ folder: r.folder, checkpointId: r.beforeId }));
    try {
      await ui.withProgress("Putting the files back…", false, () => checkpoints.restore(back, { discardDirty: true }));
    } catch (e) {
      ui.showError(
        `The branch was not switched, and putting the files back failed: ${errorText(e)}. ` +
          "Run “Agent: Undo File Restore” to bring them back.",
      );
    }
  }
}
