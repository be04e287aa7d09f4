/**
 * Typed failures of the checkpoint engine. A caller tells "checkpoints cannot work here" (show one message,
 * keep working without them) from "this operation failed" (report it; nothing was changed) by the class.
 */

/** Why checkpoints cannot work for a folder. */
export type UnavailableReason = "no-git" | "git-too-old" | "not-a-folder" | "too-large" | "storage-unusable";

/** Base class: every error the engine throws on purpose is one of these. */
export class CheckpointError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "CheckpointError";
  }
}

/**
 * Checkpoints cannot work for this folder (no `git`, not a folder, over the size caps, …). The message says
 * why in words a user understands; `reason` is for code. "too-large" may pass once files are removed or
 * ignored; the others need a change to the machine or the settings.
 */
export class CheckpointUnavailableError extends CheckpointError {
  constructor(
    readonly reason: UnavailableReason,
    message: string,
    readonly folder?: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "CheckpointUnavailableError";
  }
}

/** A `git` command failed in a way the engine did not expect (its stderr is in the message). */
export class GitCommandError extends CheckpointError {
  constructor(
    readonly args: readonly string[],
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(`git ${args[0] ?? ""} failed (exit ${exitCode ?? "signal"}): ${stderr.trim() || "no message"}`);
    this.name = "GitCommandError";
  }
}

/** The checkpoint id is not in this folder's store. */
export class CheckpointNotFoundError extends CheckpointError {
  constructor(readonly checkpointId: string) {
    super(`Checkpoint ${checkpointId} does not exist in this folder's checkpoint store`);
    this.name = "CheckpointNotFoundError";
  }
}

/** The operation was cancelled through its AbortSignal; no workspace file was changed. */
export class CheckpointAbortedError extends CheckpointError {
  constructor(what: string) {
    super(`${what} was cancelled; no file was changed`);
    this.name = "CheckpointAbortedError";
  }
}

/** A restore would overwrite files the caller said have unsaved changes in an editor. */
export class DirtyFilesError extends CheckpointError {
  constructor(readonly paths: readonly string[]) {
    super(
      `Restoring would overwrite ${paths.length} file(s) with unsaved changes: ${paths.slice(0, 5).join(", ")}` +
        `${paths.length > 5 ? ", …" : ""}. Save or discard them first.`,
    );
    this.name = "DirtyFilesError";
  }
}

/**
 * Writing the files failed. When `rolledBack` is true every file is as it was before the restore; otherwise
 * `leftovers` names what could not be put back and where the original content was kept.
 */
export class RestoreFailedError extends CheckpointError {
  constructor(
    message: string,
    readonly rolledBack: boolean,
    readonly leftovers: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "RestoreFailedError";
  }
}

/** `undoRestore()` without a restore to undo. */
export class NothingToUndoError extends CheckpointError {
  constructor() {
    super("There is no file restore to undo");
    this.name = "NothingToUndoError";
  }
}
