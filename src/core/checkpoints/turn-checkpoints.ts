/**
 * The checkpoint hook of AgentSession: takes checkpoints at the moments a prompt may have changed files and links
 * each one that differs from the path's previous checkpoint to the session with a checkpoint entry
 * (session-link.ts). Nothing is written to the session when the files did not change.
 */
import type { SessionManager } from "../session/session-manager.js";
import {
  CheckpointAbortedError,
  CheckpointError,
  CheckpointNotFoundError,
  CheckpointUnavailableError,
} from "./errors.js";
import { errorText } from "../error-text.js";
import {
  CHECKPOINT_ENTRY_TYPE,
  findPathCheckpoint,
  MAX_LISTED_FILES,
  readCheckpointEntry,
  type CheckpointEntryData,
  type CheckpointMoment,
  type FolderCheckpointRef,
} from "./session-link.js";
import type { WorkspaceCheckpoints } from "./workspace-checkpoints.js";

/**
 * What AgentSession calls (its `checkpoints` option). `record` runs before a prompt's first message
 * ("prompt-start"), before a model call that follows tool calls that may have changed files ("after-tools"), and
 * at the end of a prompt whose last tool calls were not followed by a model call ("prompt-end"). `settle` runs
 * when every prompt ends and moves the leaf off a checkpoint entry (only an abort can leave one there).
 */
export interface AgentCheckpointHook {
  record(moment: CheckpointMoment, sessionManager: SessionManager, signal?: AbortSignal): Promise<void>;
  settle(sessionManager: SessionManager): void;
  /**
   * As `record`, with the entry linked where a run off the leaf appends (a subagent working in the workspace): the
   * previous checkpoint is looked for on the path to `place.tipId`, and the entry is appended by `place`.
   */
  recordAt?(moment: CheckpointMoment, place: CheckpointPlace, signal?: AbortSignal): Promise<void>;
}

/** Where a checkpoint entry goes: after `tipId`, appended by `appendCustom` (a run's own writer). */
export interface CheckpointPlace {
  readonly sessionManager: SessionManager;
  readonly tipId: string | null;
  appendCustom(customType: string, data: unknown): string;
}

function notFound(error: unknown): undefined {
  if (error instanceof CheckpointNotFoundError) return undefined;
  throw error;
}

/** See the file comment. One instance can serve every session of the workspace. */
export class TurnCheckpoints implements AgentCheckpointHook {
  constructor(readonly checkpoints: WorkspaceCheckpoints) {}

  /**
   * Checkpoints every folder and appends a checkpoint entry for the folders whose files differ from the path's
   * previous checkpoint. Folders where checkpoints cannot work are skipped (WorkspaceCheckpoints.status() says
   * why); other failures are thrown together after the entry for the folders that worked was written.
   * A cancelled capture writes nothing (the next prompt's "prompt-start" records the files).
   */
  async record(moment: CheckpointMoment, sessionManager: SessionManager, signal?: AbortSignal): Promise<void> {
    await this.recordAt(
      moment,
      {
        sessionManager,
        get tipId() {
          return sessionManager.getLeafId();
        },
        appendCustom: (customType, data) => sessionManager.appendCustomEntry(customType, data),
      },
      signal,
    );
  }

  /** See AgentCheckpointHook.recordAt. */
  async recordAt(moment: CheckpointMoment, place: CheckpointPlace, signal?: AbortSignal): Promise<void> {
    const { sessionManager } = place;
    const captures = await this.checkpoints.capture(moment, { signal });
    if (signal?.aborted) return;
    const leaf = place.tipId;
    const refs: FolderCheckpointRef[] = [];
    const failures: string[] = [];
    for (const capture of captures) {
      if ("error" in capture) {
        const quiet =
          capture.error instanceof CheckpointUnavailableError || capture.error instanceof CheckpointAbortedError;
        if (!quiet) failures.push(`${capture.folder}: ${errorText(capture.error)}`);
        continue;
      }
      const { folder, result } = capture;
      const base = findPathCheckpoint(sessionManager, leaf, folder);
      if (base?.ref.tree === result.tree) continue;
      const ref: FolderCheckpointRef = { folder, checkpointId: result.id, tree: result.tree, changed: 0, files: [] };
      const engine = this.checkpoints.engine(folder);
      // A base from another machine's store (a copied session) is not here: then nothing is compared.
      const changes = base && engine ? await engine.diff(base.ref.checkpointId, result.id).catch(notFound) : undefined;
      if (base && changes) {
        ref.baseId = base.ref.checkpointId;
        ref.changed = changes.length;
        ref.files = changes.slice(0, MAX_LISTED_FILES);
      }
      refs.push(ref);
    }
    if (refs.length > 0 && !signal?.aborted) {
      const data: CheckpointEntryData = { version: 1, moment, folders: refs };
      place.appendCustom(CHECKPOINT_ENTRY_TYPE, data);
    }
    if (failures.length > 0) throw new CheckpointError(`Checkpoint failed: ${failures.join("; ")}`);
  }

  /** Moves the leaf from a checkpoint entry to the entry it hangs off. */
  settle(sessionManager: SessionManager): void {
    const leaf = sessionManager.getLeafId();
    if (leaf === null || !readCheckpointEntry(sessionManager, leaf)) return;
    const parent = sessionManager.getEnvelope(leaf)?.parentId ?? null;
    if (parent === null) sessionManager.resetLeaf();
    else sessionManager.branch(parent);
  }
}
