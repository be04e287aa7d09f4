/** Breadth-first walk of a folder, skipping node_modules and .git, never following symlinked folders. */
import fs from "node:fs/promises";
import path from "node:path";

/** Folders never entered. */
export const SKIP_DIRS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

/** One walked entry. */
export interface WalkEntry {
  abs: string;
  /** Relative to the walk root's workspace, forward slashes. */
  rel: string;
  isFile: boolean;
  isDir: boolean;
  isSymlink: boolean;
}

/**
 * Yield entries under `dir` (not `dir` itself), sorted per folder. Stops early when the consumer
 * breaks. Unreadable folders are skipped silently (a permission error in one folder shouldn't fail a search).
 */
export async function* walk(
  dir: string,
  relBase: (abs: string) => string,
  signal?: AbortSignal,
): AsyncGenerator<WalkEntry> {
  const queue: string[] = [dir];
  while (queue.length) {
    if (signal?.aborted) return;
    const cur = queue.shift() as string;
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(cur, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = path.join(cur, e.name);
      const isDir = e.isDirectory();
      if (isDir && SKIP_DIRS.has(e.name)) continue;
      yield { abs, rel: relBase(abs), isFile: e.isFile(), isDir, isSymlink: e.isSymbolicLink() };
      if (isDir) queue.push(abs);
    }
  }
}
