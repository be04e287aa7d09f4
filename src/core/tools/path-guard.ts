/** Keeps every tool path inside the workspace root, symlinks included. */
import fs from "node:fs/promises";
import path from "node:path";

/** Thrown when a path would leave the workspace. */
export class OutsideWorkspaceError extends Error {
  constructor(requested: string, root: string) {
    super(`Path "${requested}" is outside the workspace (${root}); tools can only access files inside it.`);
    this.name = "OutsideWorkspaceError";
  }
}

/** The disk changed between two steps of resolving or opening a path (another process swapped something). */
export class PathChangedError extends Error {
  constructor(requested: string) {
    super(`"${requested}" changed while it was being opened (a folder or link was replaced meanwhile).`);
    this.name = "PathChangedError";
  }
}

/** The kernel's limit on links met while resolving one path (Linux MAXSYMLINKS). */
const MAX_LINKS = 40;

/** True when `target` is `root` or below it (both absolute and normalized). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** A path inside the workspace: as named (for display) and where it really is. */
export interface WorkspacePath {
  /** Absolute, as the caller named it (links not resolved): what tools show. */
  abs: string;
  /** With every link resolved, the missing tail included: where the file is or will be created. */
  real: string;
  /** The workspace root with its links resolved; `real` is inside it. */
  realRoot: string;
}

/** Components of `p` below the workspace, which may be named through its real path or as given; else undefined. */
function partsInside(root: string, realRoot: string, p: string): string[] | undefined {
  const base = isInside(realRoot, p) ? realRoot : isInside(root, p) ? root : undefined;
  return base === undefined ? undefined : path.relative(base, p).split(path.sep).filter(Boolean);
}

/**
 * Resolves `parts` below `realRoot` one component at a time, as the kernel would, but refusing any link that
 * leads outside. A missing component ends the walk: nothing below it exists yet, so nothing below it can be a
 * link, and the rest is appended as is. This is what catches a dangling link (`notes.txt -> /elsewhere/new`)
 * that `realpath` cannot resolve and that a write would follow.
 */
async function resolveParts(root: string, realRoot: string, parts: string[], requested: string): Promise<string> {
  let rest = parts;
  let cur = realRoot;
  let links = 0;
  while (rest.length > 0) {
    const next = path.join(cur, rest[0]);
    rest = rest.slice(1);
    let isLink: boolean;
    try {
      isLink = (await fs.lstat(next)).isSymbolicLink();
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT" || code === "ENOTDIR") return path.join(next, ...rest);
      throw e;
    }
    if (!isLink) {
      cur = next;
      continue;
    }
    if (++links > MAX_LINKS) {
      throw Object.assign(new Error(`Too many levels of symbolic links in "${requested}"`), { code: "ELOOP" });
    }
    let target: string;
    try {
      target = await fs.readlink(next);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      // No longer a link (EINVAL) or gone: replaced since the lstat above.
      if (code === "EINVAL" || code === "ENOENT") throw new PathChangedError(requested);
      throw e;
    }
    const inner = partsInside(root, realRoot, path.resolve(cur, target));
    if (inner === undefined) throw new OutsideWorkspaceError(requested, root);
    rest = [...inner, ...rest];
    cur = realRoot;
  }
  return cur;
}

/**
 * Resolve `requested` (relative to `cwd`, or absolute) to a path inside the workspace. Refuses `..` escapes,
 * absolute paths elsewhere and links that lead outside, at any component, the last and missing ones included.
 * A leading "@" (as pi's prompts write file references) is ignored. The answer is only as current as the disk:
 * open it with `openInWorkspace`, which rechecks what it opened.
 */
export async function resolveInWorkspace(cwd: string, requested: string): Promise<WorkspacePath> {
  if (requested.includes("\0")) throw new Error(`Path "${requested}" contains a NUL byte.`);
  const root = path.resolve(cwd);
  const abs = namedPath(cwd, requested);
  const realRoot = await fs.realpath(root).catch(() => root);
  const parts = partsInside(root, realRoot, abs);
  if (parts === undefined) throw new OutsideWorkspaceError(requested, root);
  return { abs, real: await resolveParts(root, realRoot, parts, requested), realRoot };
}

/** The absolute path `requested` names, links not resolved (nothing is checked). */
export function namedPath(cwd: string, requested: string): string {
  const cleaned = requested.startsWith("@") ? requested.slice(1) : requested;
  return path.resolve(cwd, cleaned || ".");
}

/** Path relative to the workspace, with forward slashes (what tools print). */
export function displayPath(cwd: string, abs: string): string {
  const rel = path.relative(path.resolve(cwd), abs);
  return (rel || ".").split(path.sep).join("/");
}
