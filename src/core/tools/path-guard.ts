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

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}

/** realpath of the deepest existing ancestor, with the missing tail re-appended. */
async function realpathLenient(p: string): Promise<string> {
  const missing: string[] = [];
  let cur = p;
  for (let i = 0; i < 4096; i++) {
    try {
      const real = await fs.realpath(cur);
      return path.join(real, ...missing.reverse());
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR") throw e;
      const parent = path.dirname(cur);
      if (parent === cur) return p;
      missing.push(path.basename(cur));
      cur = parent;
    }
  }
  return p;
}

/**
 * Resolve `requested` (relative to `cwd`, or absolute) to an absolute path inside the workspace.
 * Refuses `..` escapes, absolute paths elsewhere and symlinks that lead outside.
 * A leading "@" (as pi's prompts write file references) is ignored.
 */
export async function resolveInWorkspace(cwd: string, requested: string): Promise<string> {
  const cleaned = requested.startsWith("@") ? requested.slice(1) : requested;
  if (cleaned.includes("\0")) throw new Error(`Path "${requested}" contains a NUL byte.`);
  const root = path.resolve(cwd);
  const target = path.resolve(root, cleaned || ".");
  const realRoot = await fs.realpath(root).catch(() => root);
  if (!isInside(root, target) && !isInside(realRoot, target)) throw new OutsideWorkspaceError(requested, root);
  const realTarget = await realpathLenient(target);
  if (!isInside(realRoot, realTarget)) throw new OutsideWorkspaceError(requested, root);
  return target;
}

/** Path relative to the workspace, with forward slashes (what tools print). */
export function displayPath(cwd: string, abs: string): string {
  const rel = path.relative(path.resolve(cwd), abs);
  return (rel || ".").split(path.sep).join("/");
}
