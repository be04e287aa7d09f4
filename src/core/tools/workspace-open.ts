/**
 * Opening files and folders inside the workspace so that a link swapped in after the path was checked cannot
 * redirect the tool outside (a check-then-open race).
 *
 * The path is resolved by `resolveInWorkspace`; then it is opened without following a link at the last
 * component, and on Linux the kernel is asked where the opened file really is (`/proc/self/fd/N`): anything
 * outside the workspace is closed unread and the whole resolution is retried. Opening a file or folder has no
 * effect on it, so reads (and edits, which only write after this check) are safe. Creating a file does have an
 * effect, so `write` first opens and checks the parent folder, then creates the file *in that folder*
 * (`/proc/self/fd/<folder>/<name>` is resolved from the open folder, like `openat`), and so do the folders
 * `mkdir -p` creates. Without `/proc` (not Linux) the last component is still never followed, but a folder
 * swapped for a link between the check and the open is not detected.
 */
import { existsSync, constants as C, type Stats } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { PathChangedError, isInside, resolveInWorkspace, type WorkspacePath } from "./path-guard.js";

const PROC_FD = existsSync("/proc/self/fd") ? "/proc/self/fd" : undefined;
/** Not defined on Windows, where there is nothing to add. */
const NOFOLLOW = C.O_NOFOLLOW ?? 0;
/** A FIFO or a terminal must not block a tool; regular files ignore it. */
const NONBLOCK = C.O_NONBLOCK ?? 0;
const DIRECTORY = C.O_DIRECTORY ?? 0;

/** Resolutions tried before giving up on a path that keeps changing. */
const ATTEMPTS = 5;

/** What the opened path is for. */
export type OpenPurpose = "read" | "edit" | "write" | "dir";

/** An open file or folder inside the workspace. Close `handle` when done. */
export interface OpenedPath extends WorkspacePath {
  handle: FileHandle;
  stat: Stats;
  /** "write" only: the file did not exist and this call created it (empty). */
  created: boolean;
}

function errorCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

function fsError(code: string, message: string): Error {
  return Object.assign(new Error(message), { code });
}

/** Where the kernel says an open file is; undefined without /proc. */
async function openedAt(handle: FileHandle): Promise<string | undefined> {
  if (!PROC_FD) return undefined;
  return (await fs.readlink(`${PROC_FD}/${handle.fd}`)).replace(/ \(deleted\)$/, "");
}

/** A path that names `name` inside the open folder `dir` itself, whatever happens to its path meanwhile. */
function inFolder(dir: FileHandle, dirReal: string, name: string): string {
  return PROC_FD ? `${PROC_FD}/${dir.fd}/${name}` : path.join(dirReal, name);
}

/** Closes `handle` and throws PathChangedError unless it is inside `realRoot`. */
async function mustBeInside(handle: FileHandle, realRoot: string): Promise<void> {
  const at = await openedAt(handle);
  if (at === undefined || isInside(realRoot, at)) return;
  await handle.close();
  throw new PathChangedError(at);
}

/** ENOTDIR from `open(O_DIRECTORY | O_NOFOLLOW)` also means "a link": tell a race from a real file. */
async function linkAppeared(p: string): Promise<boolean> {
  try {
    return (await fs.lstat(p)).isSymbolicLink();
  } catch {
    return true; // gone since: it changed
  }
}

/**
 * Opens the existing folder `real`, checked to be inside `realRoot`. With `create`, missing folders are created,
 * each inside its checked parent.
 */
export async function openFolderInside(real: string, realRoot: string, create = false): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(real, C.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (e) {
    const code = errorCode(e);
    if (code === "ELOOP" || (code === "ENOTDIR" && (await linkAppeared(real)))) throw new PathChangedError(real);
    if (code !== "ENOENT" || !create || real === realRoot) throw e;
    const parent = await openFolderInside(path.dirname(real), realRoot, true);
    try {
      await fs.mkdir(inFolder(parent, path.dirname(real), path.basename(real)));
    } catch (m) {
      if (errorCode(m) !== "EEXIST") throw m;
    } finally {
      await parent.close();
    }
    return openFolderInside(real, realRoot, false);
  }
  await mustBeInside(handle, realRoot);
  return handle;
}

/** Opens the existing file `real` for reading (or reading and writing), checked to be inside `realRoot`. */
export async function openFileInside(real: string, realRoot: string, writable = false): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(real, (writable ? C.O_RDWR : C.O_RDONLY) | NOFOLLOW | NONBLOCK);
  } catch (e) {
    if (errorCode(e) === "ELOOP") throw new PathChangedError(real);
    throw e;
  }
  await mustBeInside(handle, realRoot);
  return handle;
}

/**
 * Opens (creating it, and its folders, when missing) the file `real` for writing, inside `realRoot`; `created`
 * tells whether it was missing.
 */
async function openForWrite(real: string, realRoot: string): Promise<{ handle: FileHandle; created: boolean }> {
  if (real === realRoot) throw fsError("EISDIR", "is a directory");
  const dirReal = path.dirname(real);
  const folder = await openFolderInside(dirReal, realRoot, true);
  try {
    const target = inFolder(folder, dirReal, path.basename(real));
    let handle: FileHandle;
    let created = true;
    try {
      handle = await fs.open(target, C.O_WRONLY | C.O_CREAT | C.O_EXCL | NOFOLLOW | NONBLOCK, 0o666);
    } catch (e) {
      if (errorCode(e) !== "EEXIST") throw e;
      created = false;
      try {
        handle = await fs.open(target, C.O_WRONLY | NOFOLLOW | NONBLOCK);
      } catch (o) {
        // A link (ELOOP) or nothing any more (ENOENT): it changed since it was resolved.
        if (errorCode(o) === "ELOOP" || errorCode(o) === "ENOENT") throw new PathChangedError(real);
        throw o;
      }
    }
    try {
      await mustBeInside(handle, realRoot);
    } catch (e) {
      // The folder was moved out after it was checked: take back the file this call created there.
      if (created) await fs.unlink(target).catch(() => undefined);
      throw e;
    }
    return { handle, created };
  } finally {
    await folder.close();
  }
}

/** The path names a FIFO, socket or device: tools (and instruction files) only use regular files. */
export class NotRegularFileError extends Error {
  constructor(requested: string) {
    super(`"${requested}" is not a regular file (a FIFO, socket or device); tools only use regular files.`);
    this.name = "NotRegularFileError";
  }
}

function notRegular(requested: string): Error {
  return new NotRegularFileError(requested);
}

async function openResolved(
  loc: WorkspacePath,
  purpose: OpenPurpose,
): Promise<{ handle: FileHandle; created: boolean }> {
  switch (purpose) {
    case "dir":
      return { handle: await openFolderInside(loc.real, loc.realRoot), created: false };
    case "write":
      return openForWrite(loc.real, loc.realRoot);
    default:
      return { handle: await openFileInside(loc.real, loc.realRoot, purpose === "edit"), created: false };
  }
}

/**
 * Resolves `requested` (see `resolveInWorkspace`) and opens it for `purpose`: "read" and "edit" an existing
 * regular file, "write" a regular file created when missing (with its folders), "dir" a folder. Throws
 * OutsideWorkspaceError, a Node file-system error (ENOENT, EISDIR, ENOTDIR, …), or an Error when the file is not
 * a regular file or the path kept changing while being opened.
 */
export async function openInWorkspace(cwd: string, requested: string, purpose: OpenPurpose): Promise<OpenedPath> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    let loc: WorkspacePath;
    let handle: FileHandle;
    let created: boolean;
    try {
      loc = await resolveInWorkspace(cwd, requested);
      ({ handle, created } = await openResolved(loc, purpose));
    } catch (e) {
      if (e instanceof PathChangedError) continue;
      // A FIFO without a reader, opened for writing without blocking.
      if (errorCode(e) === "ENXIO") throw notRegular(requested);
      throw e;
    }
    const stat = await handle.stat();
    if (purpose !== "dir" && !stat.isFile()) {
      await handle.close();
      throw stat.isDirectory() ? fsError("EISDIR", "is a directory") : notRegular(requested);
    }
    return { ...loc, handle, stat, created };
  }
  throw new Error(
    `"${requested}" kept changing while it was opened (a folder or link was replaced meanwhile); nothing was read or written.`,
  );
}

/** A path naming the open folder `handle` (`real` is where it was opened), for `readdir`. */
export function folderPath(handle: FileHandle, real: string): string {
  return PROC_FD ? `${PROC_FD}/${handle.fd}` : real;
}

/**
 * Reads the open file from its start up to `maxBytes`, and one byte more to tell whether it holds more: the cap
 * counts the bytes read, never what `stat` says (a `/proc` file says 0 bytes and holds more).
 */
export async function readUpTo(handle: FileHandle, maxBytes: number): Promise<{ bytes: Buffer; more: boolean }> {
  const buf = Buffer.alloc(maxBytes + 1);
  let got = 0;
  while (got < buf.length) {
    const { bytesRead } = await handle.read(buf, got, buf.length - got, null);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return { bytes: buf.subarray(0, Math.min(got, maxBytes)), more: got > maxBytes };
}

/** Writes all of `data` at the start of the open file and cuts what was beyond it. */
export async function replaceContent(handle: FileHandle, data: string): Promise<number> {
  const buf = Buffer.from(data, "utf8");
  for (let off = 0; off < buf.length;) {
    const { bytesWritten } = await handle.write(buf, off, buf.length - off, off);
    off += bytesWritten;
  }
  await handle.truncate(buf.length);
  return buf.length;
}
