/**
 * Paths inside one workspace folder as the engine handles them: relative, "/"-separated, never leaving the folder.
 * Every path read from a checkpoint goes through `assertSafeRelative` before it reaches the file system, so even a
 * damaged or hand-made shadow repository cannot make a restore write outside the folder.
 */
import path from "node:path";
import { CheckpointError } from "./errors.js";

/** True for a relative path with no empty, "." or ".." segment, no NUL and no `.git` segment. */
export function isSafeRelative(rel: string): boolean {
  if (rel === "" || rel.includes("\0") || rel.startsWith("/") || /^[A-Za-z]:/.test(rel) || rel.includes("\\"))
    return false;
  return rel.split("/").every((seg) => seg !== "" && seg !== "." && seg !== ".." && seg.toLowerCase() !== ".git");
}

/** Throws unless `rel` is a safe relative path (see isSafeRelative). */
export function assertSafeRelative(rel: string): void {
  if (!isSafeRelative(rel)) throw new CheckpointError(`Refusing unsafe path "${rel}" (it could leave the folder)`);
}

/** The absolute path of `rel` inside `folder`. */
export function absoluteIn(folder: string, rel: string): string {
  return path.join(folder, ...rel.split("/"));
}

/** The parent folders of `rel`, outermost first ("a/b/c" → ["a", "a/b"]). */
export function ancestorsOf(rel: string): string[] {
  const segs = rel.split("/");
  const out: string[] = [];
  for (let i = 1; i < segs.length; i++) out.push(segs.slice(0, i).join("/"));
  return out;
}

/**
 * A caller's path (absolute, or relative to the folder) as a folder-relative path, or undefined when it is not
 * inside the folder (`folder` and `alsoFolder` are the folder as given and its real path).
 */
export function toFolderRelative(folder: string, p: string, alsoFolder?: string): string | undefined {
  for (const root of alsoFolder && alsoFolder !== folder ? [folder, alsoFolder] : [folder]) {
    const abs = path.isAbsolute(p) ? path.normalize(p) : path.join(root, p);
    const rel = path.relative(root, abs);
    const outside = rel === ".." || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);
    if (rel !== "" && !outside) return rel.split(path.sep).join("/");
  }
  return undefined;
}
