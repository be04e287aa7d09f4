/**
 * Checkpoints of a multi-root workspace: one FolderCheckpoints engine per workspace folder, each with its own
 * store. Folders where checkpoints cannot work are reported through `status()` and skipped; the others keep
 * working. A restore (or a merge) of several folders is all or nothing across them: if one folder fails, the
 * folders already done are put back.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import {
  CheckpointError,
  CheckpointUnavailableError,
  DirtyFilesError,
  NothingToUndoError,
  type UnavailableReason,
} from "./errors.js";
import { errorText, toError } from "../error-text.js";
import { FolderCheckpoints, type FolderCheckpointsOptions } from "./folder-checkpoints.js";
import type { CheckpointResult, MergePlan, MergeResult, RestoreOptions, RestorePlan, RestoreResult } from "./types.js";

/** Whether checkpoints work for a folder, and if not, why (the message is for the user). */
export type FolderStatus =
  | { folder: string; state: "ready" }
  | { folder: string; state: "unavailable"; reason: UnavailableReason; message: string };

/** Options shared by every folder (see FolderCheckpointsOptions). */
export type WorkspaceCheckpointsOptions = Omit<FolderCheckpointsOptions, "folder"> & {
  /** The workspace folders (absolute paths). */
  folders: readonly string[];
};

/** The outcome of one folder's part of `capture()`. */
export type FolderCapture =
  { folder: string; result: CheckpointResult } | { folder: string; error: CheckpointError | Error };

/** Where one folder's merge comes from: the other branch's changes from `baseId` to `theirsId`. */
export interface FolderMergeTarget {
  folder: string;
  baseId: string;
  theirsId: string;
}

/** Throws DirtyFilesError (absolute paths) when a plan would change files with unsaved changes. */
function throwIfDirty(plans: readonly { folder: string; dirty: readonly string[] }[]): void {
  const dirty = plans.flatMap((p) => p.dirty.map((d) => path.join(p.folder, d)));
  if (dirty.length > 0) throw new DirtyFilesError(dirty);
}

/** What a plan of a restore or merge looks at: the unsaved files (workspace paths), and when to stop. */
type PlanOptions = { dirtyPaths?: readonly string[]; signal?: AbortSignal };

/** Where to restore one folder to. */
export interface FolderTarget {
  folder: string;
  checkpointId: string;
}

function unavailable(folder: string, error: unknown): FolderStatus {
  if (error instanceof CheckpointUnavailableError)
    return { folder, state: "unavailable", reason: error.reason, message: error.message };
  return {
    folder,
    state: "unavailable",
    reason: "storage-unusable",
    message: `Files cannot follow the session tree in ${folder}: ${errorText(error)}`,
  };
}

/** See the file comment. Create with `WorkspaceCheckpoints.open()`; it never throws for a folder that cannot work. */
export class WorkspaceCheckpoints {
  private readonly statuses = new Map<string, FolderStatus>();

  private constructor(
    private readonly engines: ReadonlyMap<string, FolderCheckpoints>,
    statuses: readonly FolderStatus[],
  ) {
    for (const s of statuses) this.statuses.set(s.folder, s);
  }

  /** Opens an engine for every folder; folders that cannot have checkpoints are reported by `status()`. */
  static async open(options: WorkspaceCheckpointsOptions): Promise<WorkspaceCheckpoints> {
    const engines = new Map<string, FolderCheckpoints>();
    const statuses: FolderStatus[] = [];
    for (const given of options.folders) {
      const folder = path.resolve(given);
      try {
        engines.set(folder, await FolderCheckpoints.open({ ...options, folder }));
        statuses.push({ folder, state: "ready" });
      } catch (error) {
        statuses.push(unavailable(folder, error));
      }
    }
    return new WorkspaceCheckpoints(engines, statuses);
  }

  /** Every folder's status, in the order given to `open()`. "too-large" is re-checked by every capture. */
  status(): FolderStatus[] {
    return [...this.statuses.values()];
  }

  /** The folders that have an engine (ready, or too large for now). */
  folders(): string[] {
    return [...this.engines.keys()];
  }

  /** The engine of one folder (absolute path), for reads: diff, readFileAt, listFiles. */
  engine(folder: string): FolderCheckpoints | undefined {
    return this.engines.get(path.resolve(folder));
  }

  private engineOrThrow(folder: string): FolderCheckpoints {
    const engine = this.engine(folder);
    if (!engine) {
      const status = this.statuses.get(path.resolve(folder));
      throw status?.state === "unavailable"
        ? new CheckpointUnavailableError(status.reason, status.message, folder)
        : new CheckpointError(`${folder} is not a folder of this workspace`);
    }
    return engine;
  }

  /**
   * Checkpoints every folder that has an engine, in parallel. A folder over the caps turns "unavailable" (and back
   * to "ready" once it fits); its entry carries the error.
   */
  async capture(reason: string, options: { signal?: AbortSignal } = {}): Promise<FolderCapture[]> {
    return Promise.all(
      [...this.engines].map(async ([folder, engine]): Promise<FolderCapture> => {
        try {
          const result = await engine.checkpoint({ reason, signal: options.signal });
          this.statuses.set(folder, { folder, state: "ready" });
          return { folder, result };
        } catch (error) {
          if (error instanceof CheckpointUnavailableError) this.statuses.set(folder, unavailable(folder, error));
          return { folder, error: toError(error) };
        }
      }),
    );
  }

  /** Plans a restore of each target folder (see FolderCheckpoints.planRestore). */
  async planRestore(
    targets: readonly FolderTarget[],
    options: PlanOptions = {},
  ): Promise<(RestorePlan & { folder: string })[]> {
    return this.perFolder(targets, (engine, t) => engine.planRestore(t.checkpointId, options));
  }

  /**
   * Restores every target folder, all or nothing: unsaved files are checked in every folder before any file is
   * written, and if a folder fails or the signal aborts, the folders already restored are restored back.
   */
  async restore(
    targets: readonly FolderTarget[],
    options: RestoreOptions = {},
  ): Promise<(RestoreResult & { folder: string })[]> {
    await this.refuseDirty(options, (planOptions) => this.planRestore(targets, planOptions));
    return this.batch(targets, (t, batchId) =>
      this.engineOrThrow(t.folder).restore(t.checkpointId, { ...options, discardDirty: true, batchId }),
    );
  }

  /** Plans a merge in each target folder (see FolderCheckpoints.planMerge). */
  async planMerge(
    targets: readonly FolderMergeTarget[],
    options: PlanOptions = {},
  ): Promise<(MergePlan & { folder: string })[]> {
    return this.perFolder(targets, (engine, t) => engine.planMerge(t.baseId, t.theirsId, options));
  }

  /**
   * Merges another branch's changes into every target folder (FolderCheckpoints.merge), all or nothing across
   * folders like `restore()`; `undoRestore()` undoes the whole merge.
   */
  async merge(
    targets: readonly FolderMergeTarget[],
    options: RestoreOptions = {},
  ): Promise<(MergeResult & { folder: string })[]> {
    await this.refuseDirty(options, (planOptions) => this.planMerge(targets, planOptions));
    return this.batch(targets, (t, batchId) =>
      this.engineOrThrow(t.folder).merge(t.baseId, t.theirsId, { ...options, discardDirty: true, batchId }),
    );
  }

  /** Runs `run` for every target as one batch; if one fails, the folders already done are restored back. */
  /** What `plan` gives for each target folder, one folder after the other, with the folder (resolved). */
  private async perFolder<T extends { folder: string }, P>(
    targets: readonly T[],
    plan: (engine: FolderCheckpoints, target: T) => Promise<P>,
  ): Promise<(P & { folder: string })[]> {
    const plans: (P & { folder: string })[] = [];
    for (const t of targets)
      plans.push({ ...(await plan(this.engineOrThrow(t.folder), t)), folder: path.resolve(t.folder) });
    return plans;
  }

  /**
   * Throws DirtyFilesError when a file a restore or merge would write has unsaved changes (`options.dirtyPaths`),
   * unless they are to be discarded: `plan` plans the operation over the dirty paths.
   */
  private async refuseDirty(
    options: RestoreOptions,
    plan: (planOptions: {
      dirtyPaths: readonly string[];
      signal?: AbortSignal;
    }) => Promise<{ folder: string; dirty: readonly string[] }[]>,
  ): Promise<void> {
    if (!options.dirtyPaths?.length || options.discardDirty) return;
    throwIfDirty(await plan({ dirtyPaths: options.dirtyPaths, signal: options.signal }));
  }

  private async batch<T extends { folder: string }, R extends RestoreResult>(
    targets: readonly T[],
    run: (target: T, batchId: string) => Promise<R>,
  ): Promise<(R & { folder: string })[]> {
    const batchId = randomUUID();
    const done: (R & { folder: string })[] = [];
    try {
      for (const t of targets) done.push({ ...(await run(t, batchId)), folder: path.resolve(t.folder) });
      return done;
    } catch (error) {
      await this.putBack(done);
      throw error;
    }
  }

  /** Restores folders already restored by a failed multi-folder restore back to their pre-restore checkpoints. */
  private async putBack(done: readonly (RestoreResult & { folder: string })[]): Promise<void> {
    for (const r of [...done].reverse()) {
      try {
        await this.engineOrThrow(r.folder).restore(r.beforeId, { discardDirty: true });
      } catch {
        // Its pre-restore checkpoint stays in the store; undoRestore() of that folder still reaches it.
      }
    }
  }

  /** Undoes the last restore: every folder restored together with the latest one goes back. */
  async undoRestore(options: RestoreOptions = {}): Promise<(RestoreResult & { folder: string })[]> {
    const lasts = await Promise.all(
      [...this.engines].map(async ([folder, engine]) => ({ folder, last: await engine.lastRestore() })),
    );
    const latest = lasts.reduce<(typeof lasts)[number] | undefined>(
      (best, l) => (l.last && (!best?.last || l.last.at > best.last.at) ? l : best),
      undefined,
    );
    if (!latest?.last) throw new NothingToUndoError();
    const batch = latest.last.batchId;
    const targets = lasts
      .filter((l) => l.last && (l === latest || (batch !== undefined && l.last.batchId === batch)))
      .map((l) => ({ folder: l.folder, checkpointId: (l.last as { beforeId: string }).beforeId }));
    return this.restore(targets, options);
  }
}
