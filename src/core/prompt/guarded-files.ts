/**
 * How the files instructions, skills and prompt templates come from are opened: as the tools open files. A file the
 * workspace brings (its folder or one of its parents) goes through the workspace path guard with that folder as the
 * root — no link leading out of it, no FIFO, socket or device, opened without blocking — and in Restricted Mode no
 * link at all. pi's agent folder is the user's own: its links are followed, but it too is opened without blocking
 * and only a regular file is read. Everywhere the size cap counts the bytes read, not what `stat` says (a
 * `/proc` file says 0 bytes).
 */
import type { Dirent } from "node:fs";
import { constants as C } from "node:fs";
import fs, { type FileHandle } from "node:fs/promises";
import path from "node:path";
import { OutsideWorkspaceError } from "../tools/path-guard.js";
import { NotRegularFileError, folderPath, openInWorkspace, readUpTo } from "../tools/workspace-open.js";
import { errorText } from "../error-text.js";

/** Where a file is read from. */
export interface FileScope {
  /**
   * The folder the file belongs to (a workspace folder, or the parent folder whose context file it is): a link
   * leading out of it is refused. Absent: the user's own folder (pi's agent folder), whose links are followed.
   */
  root?: string;
  /** Restricted Mode (an untrusted workspace): no link below `root` is followed, even one that stays inside. */
  noLinks?: boolean;
}

/** A file's text; nothing (absent, or a folder); or why it was refused, in words the user reads. */
export type GuardedRead =
  { kind: "text"; text: string } | { kind: "absent" } | { kind: "refused"; reason: string; tooLarge?: boolean };

/** A folder's entries (`real`: where it really is); nothing; or why it was refused. */
export type GuardedList =
  { kind: "entries"; real: string; entries: Dirent[] } | { kind: "absent" } | { kind: "refused"; reason: string };

const NONBLOCK = C.O_NONBLOCK ?? 0;

function kb(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}

function errorCode(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/** True when resolving `abs` below `root` went through a link (its real path is not the lexical one). */
function viaLink(root: string, abs: string, real: string, realRoot: string): boolean {
  return real !== path.join(realRoot, path.relative(path.resolve(root), abs));
}

/** The reason a refused open gives, or undefined when the error means "not there". */
function refusal(e: unknown, scope: FileScope): string | undefined {
  const code = errorCode(e);
  if (code === "ENOENT" || code === "ENOTDIR" || code === "EISDIR") return undefined;
  if (e instanceof OutsideWorkspaceError) return `it is a link that leads outside ${scope.root ?? "its folder"}`;
  if (e instanceof NotRegularFileError) return "it is not a regular file (a FIFO, socket or device)";
  return errorText(e);
}

const RESTRICTED = "it is a link, and links in the workspace are not followed in Restricted Mode";

/** Opens `file` for reading as `scope` says; throws as openInWorkspace does. */
async function openScoped(file: string, scope: FileScope): Promise<{ handle: FileHandle; linked: boolean }> {
  if (scope.root !== undefined) {
    const opened = await openInWorkspace(scope.root, file, "read");
    return { handle: opened.handle, linked: viaLink(scope.root, opened.abs, opened.real, opened.realRoot) };
  }
  const handle = await fs.open(file, C.O_RDONLY | NONBLOCK);
  const stat = await handle.stat().catch(async (e: unknown) => {
    await handle.close();
    throw e;
  });
  if (!stat.isFile()) {
    await handle.close();
    throw stat.isDirectory()
      ? Object.assign(new Error("is a directory"), { code: "EISDIR" })
      : new NotRegularFileError(file);
  }
  return { handle, linked: false };
}

/** Reads `file` as UTF-8 (BOM removed), at most `maxBytes` bytes, as `scope` says (see the file comment). */
export async function readGuardedText(file: string, maxBytes: number, scope: FileScope): Promise<GuardedRead> {
  let opened: { handle: FileHandle; linked: boolean };
  try {
    opened = await openScoped(file, scope);
  } catch (e) {
    const reason = refusal(e, scope);
    return reason === undefined ? { kind: "absent" } : { kind: "refused", reason };
  }
  const { handle } = opened;
  try {
    if (opened.linked && scope.noLinks) return { kind: "refused", reason: RESTRICTED };
    const { bytes, more } = await readUpTo(handle, maxBytes);
    if (more) {
      const size = (await handle.stat()).size;
      const what = size > maxBytes ? `${kb(size)} is` : "it is";
      return { kind: "refused", reason: `${what} over the ${kb(maxBytes)} limit`, tooLarge: true };
    }
    return { kind: "text", text: bytes.toString("utf8").replace(/^\uFEFF/, "") };
  } catch (e) {
    return { kind: "refused", reason: errorText(e) };
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** Lists the folder `dir` as `scope` says: through the guard below a root, else following links. */
export async function listGuardedFolder(dir: string, scope: FileScope): Promise<GuardedList> {
  try {
    if (scope.root === undefined) {
      const real = await fs.realpath(dir);
      return { kind: "entries", real, entries: await fs.readdir(real, { withFileTypes: true }) };
    }
    const opened = await openInWorkspace(scope.root, dir, "dir");
    try {
      if (scope.noLinks && viaLink(scope.root, opened.abs, opened.real, opened.realRoot))
        return { kind: "refused", reason: RESTRICTED };
      const entries = await fs.readdir(folderPath(opened.handle, opened.real), { withFileTypes: true });
      return { kind: "entries", real: opened.real, entries };
    } finally {
      await opened.handle.close().catch(() => undefined);
    }
  } catch (e) {
    const reason = refusal(e, scope);
    return reason === undefined ? { kind: "absent" } : { kind: "refused", reason };
  }
}
