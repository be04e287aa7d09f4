/** Workspace checkpoints: files follow the session tree (docs/checkpoints.md). */
export * from "./errors.js";
export * from "./types.js";
export { FolderCheckpoints, type FolderCheckpointsOptions } from "./folder-checkpoints.js";
export type { LastRestore } from "./last-restore.js";
export {
  WorkspaceCheckpoints,
  type FolderCapture,
  type FolderMergeTarget,
  type FolderStatus,
  type FolderTarget,
  type WorkspaceCheckpointsOptions,
} from "./workspace-checkpoints.js";
export { MERGE_LABELS } from "./merge.js";
export { defaultCheckpointStorageDir } from "./shadow-repo.js";
export { nodeRestoreFileSystem, STAGING_PREFIX, type RestoreFileSystem } from "./restore-apply.js";
export {
  CHECKPOINT_ENTRY_TYPE,
  MAX_LISTED_FILES,
  checkpointDataOf,
  findCheckpointForEntry,
  findPathCheckpoint,
  findTurnCheckpoints,
  mergeTargetsFor,
  readCheckpointEntry,
  restoreTargetsFor,
  type CheckpointEntryData,
  type CheckpointMoment,
  type CheckpointSessionView,
  type FolderCheckpointRef,
  type FoundCheckpoint,
} from "./session-link.js";
export { TurnCheckpoints, type AgentCheckpointHook } from "./turn-checkpoints.js";
