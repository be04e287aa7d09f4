/**
 * The compare tab's "Files that differ" from the workspace checkpoints: in each workspace folder, the files recorded
 * at the two compared nodes (the checkpoint holding each node's files, as a branch switch would restore them), the
 * files that differ between them, and the two read-only checkpoint documents of one file for VS Code's diff editor.
 * A session without checkpoints at both nodes (pi's, Claude Code's, one from before checkpoints, another machine's)
 * has no files section. Pure: the diff editor comes in as a function.
 */
import path from "node:path";
import { CheckpointNotFoundError } from "../../core/checkpoints/errors.js";
import { findCheckpointForEntry, type CheckpointSessionView } from "../../core/checkpoints/session-link.js";
import type { FileChange } from "../../core/checkpoints/types.js";
import type { WorkspaceCheckpoints } from "../../core/checkpoints/workspace-checkpoints.js";
import type { CompareFileChange } from "../../core/compare/compare-types.js";
import type { CheckpointFileRef } from "../checkpoints/turn-changes.js";
import type { CompareFilesHost } from "./compare-feed.js";

/** One file that differs between the two nodes, with the checkpoint of each side. */
export interface PointFileChange {
  folder: string;
  leftId: string;
  rightId: string;
  change: FileChange;
  /** What the files section shows (and names when the user opens it). */
  shown: CompareFileChange;
}

function shownChange(change: FileChange, prefix: string): CompareFileChange {
  const status = change.status === "type-changed" ? "modified" : change.status;
  const shown: CompareFileChange = { path: prefix + change.path, change: status };
  if (change.oldPath !== undefined) shown.oldPath = prefix + change.oldPath;
  return shown;
}

/**
 * The files that differ from the files of entry `leftEntryId` to those of `rightEntryId`, over every folder; undefined
 * when no folder has a checkpoint (this store holds) at both nodes.
 */
export async function pointChanges(
  view: CheckpointSessionView,
  checkpoints: WorkspaceCheckpoints,
  leftEntryId: string,
  rightEntryId: string,
): Promise<PointFileChange[] | undefined> {
  const folders = checkpoints.folders();
  let known = false;
  const out: PointFileChange[] = [];
  for (const folder of folders) {
    const left = findCheckpointForEntry(view, leftEntryId, folder);
    const right = findCheckpointForEntry(view, rightEntryId, folder);
    const engine = checkpoints.engine(folder);
    if (!left || !right || !engine) continue;
    let changes: FileChange[] = [];
    if (left.ref.tree !== right.ref.tree) {
      try {
        changes = await engine.diff(left.ref.checkpointId, right.ref.checkpointId);
      } catch (e) {
        // A session copied from another machine names checkpoints this store never had.
        if (e instanceof CheckpointNotFoundError) continue;
        throw e;
      }
    }
    known = true;
    const prefix = folders.length > 1 ? `${path.basename(folder)}/` : "";
    for (const change of changes)
      out.push({
        folder,
        leftId: left.ref.checkpointId,
        rightId: right.ref.checkpointId,
        change,
        shown: shownChange(change, prefix),
      });
  }
  return known ? out : undefined;
}

/** What CheckpointCompareFiles needs. */
export interface CheckpointCompareFilesDeps {
  /** The session the comparison was made in. */
  view: CheckpointSessionView;
  /** The workspace's checkpoints; undefined when files cannot follow the tree here. */
  checkpoints(): Promise<WorkspaceCheckpoints | undefined>;
  /** Opens the diff editor on two checkpoint documents (a side the checkpoint lacks reads as empty). */
  openDiff(left: CheckpointFileRef, right: CheckpointFileRef, title: string): Promise<void>;
}

/** The files section of one compare tab (CompareFilesHost) over the workspace checkpoints. */
export class CheckpointCompareFiles implements CompareFilesHost {
  /** The files listed so far, by ends and shown path: a path from the panel opens only if it was listed. */
  private readonly listed = new Map<string, PointFileChange>();

  constructor(private readonly d: CheckpointCompareFilesDeps) {}

  async changedFiles(leftId: string, rightId: string): Promise<CompareFileChange[] | undefined> {
    const checkpoints = await this.d.checkpoints();
    if (!checkpoints) return undefined;
    const changes = await pointChanges(this.d.view, checkpoints, leftId, rightId);
    for (const c of changes ?? []) this.listed.set(key(leftId, rightId, c.shown.path), c);
    return changes?.map((c) => c.shown);
  }

  async openDiff(leftId: string, rightId: string, shownPath: string): Promise<void> {
    const c = this.listed.get(key(leftId, rightId, shownPath));
    if (!c) return;
    const { folder, change } = c;
    await this.d.openDiff(
      { folder, checkpointId: c.leftId, path: change.oldPath ?? change.path },
      { folder, checkpointId: c.rightId, path: change.path },
      `${path.basename(change.path)} (compared branches)`,
    );
  }
}

function key(leftId: string, rightId: string, shownPath: string): string {
  return `${leftId}\n${rightId}\n${shownPath}`;
}
