/**
 * Breadth-first walk of a folder, skipping node_modules, .git and (optionally) what .gitignore files ignore,
 * never following symlinked folders.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { isIgnored, parseGitignore, type IgnoreRule } from "./gitignore.js";
import type { WorkspacePath } from "./path-guard.js";
import { folderPath, openFileInside, openFolderInside, readUpTo } from "./workspace-open.js";

/** Folders never entered. */
export const SKIP_DIRS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

/** .gitignore files larger than this are not read (a generated monster is not worth the memory). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** One walked entry. */
export interface WalkEntry {
  /** As named below the walked folder (for display). */
  abs: string;
  /** Where it really is: the walked folder's real path joined with the names below it (no links are entered). */
  real: string;
  /** Relative to the walk root's workspace, forward slashes. */
  rel: string;
  isFile: boolean;
  isDir: boolean;
  isSymlink: boolean;
}

/** How to walk. */
export interface WalkOptions {
  signal?: AbortSignal;
  /**
   * Workspace root. When set, .gitignore files are honoured: those of the folders from this root down to
   * the walked folder (and `.git/info/exclude` of the root), then those met on the way down. The walked
   * folder itself is never filtered: a folder named explicitly is searched, as ripgrep does.
   */
  gitignoreRoot?: string;
}

/**
 * Rules of the regular file `file` inside `realRoot`, `base` being its folder relative to the workspace (nothing
 * when missing, a link, a FIFO or device, over MAX_IGNORE_FILE_BYTES or unreadable). Opened without following a
 * link and without blocking, and read no further than the cap: a `.gitignore -> /dev/zero` or a FIFO costs nothing.
 */
export async function readIgnoreRules(file: string, realRoot: string, base: string): Promise<IgnoreRule[]> {
  try {
    // Not followed when a link: a symlinked .gitignore could point outside the workspace (and git ignores those too).
    const handle = await openFileInside(file, realRoot);
    try {
      if (!(await handle.stat()).isFile()) return [];
      const { bytes, more } = await readUpTo(handle, MAX_IGNORE_FILE_BYTES);
      return more ? [] : parseGitignore(bytes.toString("utf8"), base);
    } finally {
      await handle.close();
    }
  } catch {
    return [];
  }
}

/** Rules that apply inside `dir` from its ancestors up to `root` (exclusive of `dir`'s own .gitignore). */
async function inheritedRules(root: string, realRoot: string, dir: string): Promise<IgnoreRule[]> {
  const rel = path.relative(path.resolve(root), dir);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return [];
  const rules = await readIgnoreRules(path.join(realRoot, ".git", "info", "exclude"), realRoot, "");
  const parts = rel ? rel.split(path.sep) : [];
  for (let k = 0; k < parts.length; k++) {
    const base = parts.slice(0, k);
    rules.push(...(await readIgnoreRules(path.join(realRoot, ...base, ".gitignore"), realRoot, base.join("/"))));
  }
  return rules;
}

/** Entries of the folder `real`, opened only when it is still a folder inside `realRoot`. */
async function listFolder(real: string, realRoot: string): Promise<import("node:fs").Dirent[]> {
  const handle = await openFolderInside(real, realRoot);
  try {
    return await fs.readdir(folderPath(handle, real), { withFileTypes: true });
  } finally {
    await handle.close();
  }
}

/**
 * Yield entries under `start` (not `start` itself), sorted per folder. Stops early when the consumer
 * breaks. Unreadable folders are skipped silently (a permission error in one folder shouldn't fail a search),
 * and so are folders that stopped being folders inside the workspace while the walk went on.
 */
export async function* walk(
  start: WorkspacePath,
  relBase: (abs: string) => string,
  opts: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const { signal, gitignoreRoot } = opts;
  const { realRoot } = start;
  const honour = gitignoreRoot !== undefined;
  // Each queued folder carries the rules in force inside it (parent's, then its own appended on entry).
  interface Queued {
    abs: string;
    real: string;
    rules: IgnoreRule[];
  }
  const queue: Queued[] = [
    {
      abs: start.abs,
      real: start.real,
      rules: honour ? await inheritedRules(gitignoreRoot, realRoot, start.abs) : [],
    },
  ];
  while (queue.length) {
    if (signal?.aborted) return;
    const cur = queue.shift() as Queued;
    let entries: import("node:fs").Dirent[];
    try {
      entries = await listFolder(cur.real, realRoot);
    } catch {
      continue;
    }
    let rules = cur.rules;
    if (honour && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      const own = await readIgnoreRules(path.join(cur.real, ".gitignore"), realRoot, normBase(relBase(cur.abs)));
      if (own.length) rules = [...rules, ...own];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = path.join(cur.abs, e.name);
      const real = path.join(cur.real, e.name);
      const isDir = e.isDirectory();
      if (isDir && SKIP_DIRS.has(e.name)) continue;
      const rel = relBase(abs);
      // An ignored folder is not entered, so nothing below it can be re-included (git's rule).
      if (rules.length && isIgnored(rules, rel, isDir)) continue;
      yield { abs, real, rel, isFile: e.isFile(), isDir, isSymlink: e.isSymbolicLink() };
      if (isDir) queue.push({ abs, real, rules });
    }
  }
}

function normBase(rel: string): string {
  return rel === "." ? "" : rel;
}
