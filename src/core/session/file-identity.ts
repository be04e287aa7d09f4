/**
 * Which file a session path names: the real path (symlinked files and folders resolved) and the file's
 * identity (device and inode, the same under every name the file has, hard links included). Also opening
 * only regular files, without ever blocking on a FIFO.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SessionFileTypeError, type NonRegularKind } from "./errors.js";

/** A file as the kernel knows it: equal for every path (symlink, hard link) that reaches it. */
export interface FileIdentity {
  dev: bigint;
  ino: bigint;
}

/** "dev-ino", usable as a file name. */
export function identityKey(id: FileIdentity): string {
  return `${id.dev}-${id.ino}`;
}

/** The identity of an open descriptor or of a path (following links). */
export function identityOf(target: number | string): FileIdentity {
  const st =
    typeof target === "number" ? fs.fstatSync(target, { bigint: true }) : fs.statSync(target, { bigint: true });
  return { dev: st.dev, ino: st.ino };
}

/**
 * The path with every symlink resolved. A file that does not exist yet resolves through its folder (the
 * folder must exist); so both the path of a new session and its aliases lead to one lock.
 */
export function realSessionPath(file: string): string {
  const abs = path.resolve(file);
  try {
    return fs.realpathSync.native(abs);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  let dir = path.dirname(abs);
  try {
    dir = fs.realpathSync.native(dir);
  } catch {
    // the folder is created on the first append; its path is used as given
  }
  return path.join(dir, path.basename(abs));
}

/** What a stat says the path is, when it is not a regular file. */
export function nonRegularKind(st: fs.Stats | fs.BigIntStats): NonRegularKind | undefined {
  if (st.isFile()) return undefined;
  if (st.isDirectory()) return "directory";
  if (st.isFIFO()) return "fifo";
  if (st.isSocket()) return "socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "device";
  return "other";
}

// O_NONBLOCK makes opening a FIFO return at once instead of waiting for its other end (not on Windows,
// which has no FIFOs in the file system).
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;

/**
 * Open `file` with `flags` (fs.constants bits) and check that what was opened is a regular file: a path
 * swapped for a FIFO or a folder between a check and the open is refused too, and never blocks.
 */
export function openRegular(file: string, flags: number, mode?: number): number {
  let fd: number;
  try {
    fd = fs.openSync(file, flags | NONBLOCK, mode);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    // A folder opened for writing, or a FIFO without a reader opened for writing.
    if (code === "EISDIR") throw new SessionFileTypeError(file, "directory");
    if (code === "ENXIO") throw new SessionFileTypeError(file, "fifo");
    throw e;
  }
  const kind = nonRegularKind(fs.fstatSync(fd));
  if (kind) {
    fs.closeSync(fd);
    throw new SessionFileTypeError(file, kind);
  }
  return fd;
}
