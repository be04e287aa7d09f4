/** Data types of the checkpoint engine's API (docs/checkpoints.md). Paths are relative to the folder, with "/". */

/** How a file differs between two checkpoints. */
export type FileStatus = "added" | "modified" | "deleted" | "renamed" | "type-changed";

/** One changed file. `oldPath` is set for renames. */
export interface FileChange {
  path: string;
  status: FileStatus;
  oldPath?: string;
}

/** Why a file was left out of a checkpoint (it is reported, never recorded, and a restore never touches it). */
export type SkipReason = "too-large" | "nested-repository" | "special-file" | "unreadable" | "bad-name";

/** A file or folder left out of a checkpoint. */
export interface SkippedFile {
  path: string;
  reason: SkipReason;
  /** Bytes, for "too-large". */
  size?: number;
}

/** Caps that keep a checkpoint cheap; see DEFAULT_CHECKPOINT_LIMITS. */
export interface CheckpointLimits {
  /** Files larger than this are skipped and reported (not recorded). */
  maxFileBytes: number;
  /** A folder recording more files than this is "too-large": checkpoints are off for it until it shrinks. */
  maxFiles: number;
  /** Likewise for the total size of the recorded files. */
  maxTotalBytes: number;
}

/** 5 MiB per file, 50,000 files, 1 GiB in all. */
export const DEFAULT_CHECKPOINT_LIMITS: Readonly<CheckpointLimits> = Object.freeze({
  maxFileBytes: 5 * 1024 * 1024,
  maxFiles: 50_000,
  maxTotalBytes: 1024 * 1024 * 1024,
});

/** What `checkpoint()` returns. */
export interface CheckpointResult {
  /** The checkpoint id (a commit id of the folder's shadow repository). */
  id: string;
  /** The id of its file tree: two checkpoints with the same tree hold the same files. */
  tree: string;
  /** False when nothing changed since the previous checkpoint (then `id` is that checkpoint). */
  created: boolean;
  /** The checkpoint taken before this one in this folder, if any. */
  previousId?: string;
  /** Files changed since `previousId` (every file for the first checkpoint). */
  changes: FileChange[];
  /** Files found but not recorded. */
  skipped: SkippedFile[];
  /** Recorded files and their total size. */
  fileCount: number;
  totalBytes: number;
}

/** What a restore does to one path. */
export interface RestoreChange {
  path: string;
  /** create: the file is missing now; modify: content, mode or type differs; delete: the checkpoint lacks it. */
  action: "create" | "modify" | "delete";
}

/** Why a restore leaves a path alone. */
export type RestoreSkipReason =
  /** A file is there whose content no checkpoint holds (ignored, too large, nested repository): kept as is. */
  | "not-recorded"
  /** Reaching it would go through a symbolic link (which could lead outside the folder). */
  | "through-symlink"
  /** A folder with files that are not recorded stands where the checkpoint has a file. */
  | "blocked";

/** A path a restore leaves alone, and why. */
export interface RestoreSkip {
  path: string;
  reason: RestoreSkipReason;
}

/** What `planRestore()` returns: the restore, worked out but not done. */
export interface RestorePlan {
  /** The checkpoint to restore. */
  targetId: string;
  /** A checkpoint of the files as they are now (taken for the plan). */
  currentId: string;
  changes: RestoreChange[];
  /** Empty folders the restore creates and removes. */
  emptyDirs: { create: string[]; remove: string[] };
  skipped: RestoreSkip[];
  /** Of the caller's `dirtyPaths`, those the restore would overwrite or delete. */
  dirty: string[];
}

/** What `restore()` and `undoRestore()` return. */
export interface RestoreResult {
  targetId: string;
  /** The checkpoint taken just before the restore: `undoRestore()` goes back to it. */
  beforeId: string;
  changes: RestoreChange[];
  emptyDirs: { create: string[]; remove: string[] };
  skipped: RestoreSkip[];
}

/** Options of restore operations. */
export interface RestoreOptions {
  /** Cancels the restore; every file is then left as it was. */
  signal?: AbortSignal;
  /**
   * Files with unsaved changes in an editor (absolute, or relative to the folder). A restore that would
   * change one of them throws DirtyFilesError unless `discardDirty` is set.
   */
  dirtyPaths?: readonly string[];
  /** The caller asked the user and the unsaved changes may go. */
  discardDirty?: boolean;
  /** Tags the restore as part of a multi-folder restore (WorkspaceCheckpoints undoes such a batch together). */
  batchId?: string;
}

/**
 * What a merge does with one file the other branch changed (docs/checkpoints.md, "Merging another branch's files"):
 * - `applied`: only the other branch changed it; its version (or its deletion) is taken;
 * - `merged`: both changed the text, in different places; merged line by line;
 * - `conflict`: both changed the same lines; the file is written with standard conflict markers;
 * - `binary`: both changed a binary file or a symbolic link; the current one is kept;
 * - `deleted-modified`: one side deleted it, the other changed it; the changed file is kept;
 * - `blocked`: a current file or folder stands where the other branch has a folder or a file (or the path holds a
 *   file no checkpoint records); the current state is kept.
 */
export type MergeOutcome = "applied" | "merged" | "conflict" | "binary" | "deleted-modified" | "blocked";

/** The outcomes that need the user's attention: the other branch's change did not go in cleanly. */
export const CONFLICT_OUTCOMES: readonly MergeOutcome[] = ["conflict", "binary", "deleted-modified", "blocked"];

/** One file the other branch changed, and what the merge does with it. */
export interface MergedFile {
  path: string;
  outcome: MergeOutcome;
  /** What the other branch did to it since the common base. */
  change: FileStatus;
}

/** What `planMerge()` returns: the merge, worked out but not done. */
export interface MergePlan {
  baseId: string;
  theirsId: string;
  /** A checkpoint of the files as they are now (taken for the plan). */
  currentId: string;
  files: MergedFile[];
  /** What writing the merge changes in the folder. */
  changes: RestoreChange[];
  skipped: RestoreSkip[];
  /** Of the caller's `dirtyPaths`, those the merge would overwrite or delete. */
  dirty: string[];
}

/**
 * What `merge()` returns. A merge is a restore to a checkpoint holding the merged files (`targetId`): `beforeId`
 * holds the files before it, and `undoRestore()` puts them back.
 */
export interface MergeResult extends RestoreResult {
  baseId: string;
  theirsId: string;
  files: MergedFile[];
}
