/**
 * After a run that changed files, the chat lists them, one line each with the lines added and removed (from the
 * workspace checkpoints taken before the run's first message and at its end); a line opens that file's diff
 * between the two checkpoints (read-only checkpoint documents).
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { SessionManager } from "../../core/session/session-manager.js";
import type { HostToWebview } from "../../shared/protocol.js";
import type { CheckpointService } from "../checkpoints/checkpoint-service.js";
import { checkpointUriParts, runChanges, type RunFileChange } from "../checkpoints/turn-changes.js";
import { errorText } from "../../core/error-text.js";

/** What the list needs from the host. */
export interface RunChangesDeps {
  service: CheckpointService;
  postChat(msg: HostToWebview): void;
  log: vscode.LogOutputChannel;
}

/** See the file comment. */
export class RunChangesView {
  /** The files of the last list posted (a click names one by index). */
  private files: RunFileChange[] = [];

  constructor(private readonly d: RunChangesDeps) {}

  /** A run ended: post the files it changed (nothing when it changed none or files do not follow the tree). */
  async runEnded(sm: SessionManager, firstUserId: string | undefined): Promise<void> {
    const lastId = sm.getLeafId();
    if (!firstUserId || !lastId) return;
    const checkpoints = await this.d.service.workspace();
    if (!checkpoints) return;
    let files: RunFileChange[];
    try {
      files = await runChanges(sm, firstUserId, lastId, checkpoints);
    } catch (e) {
      this.d.log.warn(`Listing the run's changed files failed: ${errorText(e)}`);
      return;
    }
    if (files.length === 0) return;
    this.files = files;
    this.d.postChat({
      type: "chat/changedFiles",
      entryId: lastId,
      files: files.map((f) => ({
        path: f.change.path,
        status: f.change.status,
        ...(f.lines.added === undefined ? {} : { added: f.lines.added, removed: f.lines.removed ?? 0 }),
      })),
    });
  }

  /** Opens the diff of the listed file `index`. */
  async open(index: number): Promise<void> {
    const f = this.files.at(index);
    if (!f || index < 0) return;
    const before = vscode.Uri.from(
      checkpointUriParts({ folder: f.folder, checkpointId: f.beforeId, path: f.change.oldPath ?? f.change.path }),
    );
    const after = vscode.Uri.from(
      checkpointUriParts({ folder: f.folder, checkpointId: f.afterId, path: f.change.path }),
    );
    await vscode.commands.executeCommand(
      "vscode.diff",
      before,
      after,
      `${path.basename(f.change.path)} (changes of the run)`,
    );
  }
}
