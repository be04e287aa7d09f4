/**
 * Accept writes what was reviewed: a `write` or `edit` approved from its diff runs only on the file the diff
 * showed. The diff is computed when the call asks (file-change.ts) and the user may take minutes to answer; a save
 * in the editor meanwhile would be overwritten by `write`, or make `edit` leave something else than the diff said.
 * So the approval carries the hash of the bytes the diff showed (ReviewedFile), and the tool compares it with the
 * bytes it reads through the very descriptor it then writes through (`openAsReviewed`); on a difference it throws
 * FileChangedSinceReviewError, writing nothing, and the agent loop shows the new diff and asks again
 * (tool-execution.ts, at most MAX_REVIEWS diffs per call).
 */
import { createHash } from "node:crypto";
import fs, { type FileHandle } from "node:fs/promises";
import { openInWorkspace } from "./workspace-open.js";

/** What the user saw of a file when approving a `write` or `edit` from its diff. */
export interface ReviewedFile {
  /** sha256 (hex) of the file's bytes as the diff showed them; null: the file did not exist. */
  sha256: string | null;
}

/** Diffs shown for one call before a file that keeps changing is given up on (the call is refused). */
export const MAX_REVIEWS = 3;

/** The hash a ReviewedFile holds for `bytes`. */
export function contentHash(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** The file is no longer what its diff showed: nothing was written; the host shows the new diff and asks again. */
export class FileChangedSinceReviewError extends Error {
  constructor(
    /** The path as the tools show it. */
    readonly shown: string,
    /** What happened to it, e.g. "changed" or "was deleted". */
    readonly what: string,
    outcome = "nothing was written",
  ) {
    super(`${shown} ${what} after its diff was shown; ${outcome}.`);
    this.name = "FileChangedSinceReviewError";
  }
}

/** Test seam (tests only; product code never sets it): runs after the check, right before the write. */
export const reviewTestHooks: { beforeWrite?: () => Promise<void> } = {};

/** A reviewed file, open for the write: its descriptor, its bytes as checked, where it is. */
export interface ReviewedOpen {
  handle: FileHandle;
  /** The file's bytes, equal to what the diff showed (empty for a file the call creates). */
  bytes: Buffer;
  /** Its real path (links resolved). */
  real: string;
}

/** Every byte of the open file, read through `handle` from its start. */
async function readAllFrom(handle: FileHandle): Promise<Buffer> {
  const parts: Buffer[] = [];
  for (let at = 0; ;) {
    const buf = Buffer.allocUnsafe(64 * 1024);
    const { bytesRead } = await handle.read(buf, 0, buf.length, at);
    if (bytesRead === 0) return Buffer.concat(parts);
    parts.push(buf.subarray(0, bytesRead));
    at += bytesRead;
  }
}

/** Whether `real` still names the file open as `handle` (an editor that saves by rename puts a new one there). */
async function stillAt(handle: FileHandle, real: string): Promise<boolean> {
  const [open, now] = await Promise.all([handle.stat(), fs.lstat(real).catch(() => undefined)]);
  return now !== undefined && now.ino === open.ino && now.dev === open.dev;
}

function isMissing(e: unknown): boolean {
  return (e as NodeJS.ErrnoException | undefined)?.code === "ENOENT";
}

/**
 * Opens the file of a reviewed `write` (`mayCreate`) or `edit` for writing, through the workspace guard, and
 * checks it is still what its diff showed; throws FileChangedSinceReviewError (nothing written, nothing created)
 * when it is not, or the guard's own errors.
 *
 * Why this is the check: the bytes compared are read through the same descriptor the write then goes through,
 * with nothing awaited in between but that read, so a save in the minutes the review took is always seen. What
 * remains is the moment between this read and the write, where nobody is waited for: POSIX has no mandatory lock
 * an editor would honour, so a program writing into the file in that moment is not excluded. An editor that saves
 * by writing a new file and renaming it over this one leaves the descriptor on the old file: `real` is checked to
 * name the open file here, and again after the write (`assertWrittenInPlace`), so such a save is seen as well.
 */
export async function openAsReviewed(
  cwd: string,
  requested: string,
  reviewed: ReviewedFile,
  shown: string,
  mayCreate: boolean,
): Promise<ReviewedOpen> {
  if (reviewed.sha256 === null) {
    // The diff showed a new file: create it now, or find that someone else did meanwhile (their file is kept).
    if (!mayCreate) throw new FileChangedSinceReviewError(shown, "was created");
    const o = await openInWorkspace(cwd, requested, "write");
    if (!o.created) {
      await o.handle.close();
      throw new FileChangedSinceReviewError(shown, "was created");
    }
    return { handle: o.handle, bytes: Buffer.alloc(0), real: o.real };
  }
  let o;
  try {
    // Never created here: a file deleted since its diff is a change like any other.
    o = await openInWorkspace(cwd, requested, "edit");
  } catch (e) {
    if (isMissing(e)) throw new FileChangedSinceReviewError(shown, "was deleted");
    throw e;
  }
  try {
    const bytes = await readAllFrom(o.handle);
    if (contentHash(bytes) !== reviewed.sha256) throw new FileChangedSinceReviewError(shown, "changed");
    if (!(await stillAt(o.handle, o.real))) throw new FileChangedSinceReviewError(shown, "was replaced");
    await reviewTestHooks.beforeWrite?.();
    return { handle: o.handle, bytes, real: o.real };
  } catch (e) {
    await o.handle.close();
    throw e;
  }
}

/**
 * After a reviewed write: `real` must still name the file written (see openAsReviewed). Throws
 * FileChangedSinceReviewError when another program put a new file there meanwhile (that file is left as it is).
 */
export async function assertWrittenInPlace(handle: FileHandle, real: string, shown: string): Promise<void> {
  if (!(await stillAt(handle, real)))
    throw new FileChangedSinceReviewError(
      shown,
      "was replaced by another program",
      "the file there now was not changed",
    );
}
