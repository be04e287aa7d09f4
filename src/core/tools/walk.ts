/**
 * Breadth-first walk of a folder, skipping node_modules, .git and (optionally) what .gitignore files ignore,
 * never following symlinked folders.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { isIgnored, parseGitignore, type IgnoreRule } from "./gitignore.js";

/** Folders never entered. */
export const SKIP_DIRS: ReadonlySet<string> = new Set(["node_modules", ".git"]);

/** .gitignore files larger than this are not read (a generated monster is not worth the memory). */
const MAX_IGNORE_FILE_BYTES = 1024 * 1024;

/** One walked entry. */
export interface WalkEntry {
  abs: string;
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

/** Rules of the regular file `file` (nothing when missing, a symlink, huge or unreadable). */
async function readRules(file: string, base: string): Promise<IgnoreRule[]> {
  try {
    // lstat: a symlinked .gitignore could point outside the workspace (and git ignores those too).
    const st = await fs.lstat(file);
    if (!st.isFile() || st.size > MAX_IGNORE_FILE_BYTES) return [];
    return parseGitignore(await fs.readFile(file, "utf8"), base);
  } catch {
    return [];
  }
}

/** Rules that apply inside `dir` from its ancestors up to `root` (exclusive of `dir`'s own .gitignore). */
async function inheritedRules(root: string, dir: string): Promise<IgnoreRule[]> {
  const rel = path.relative(path.resolve(root), dir);
  if (rel.startsWith("..") || path.isAbsolute(rel)) return [];
  const rules = await readRules(path.join(root, ".git", "info", "exclude"), "");
  const parts = rel ? rel.split(path.sep) : [];
  for (let k = 0; k < parts.length; k++) {
    rules.push(
      ...(await readRules(
        path.join(path.resolve(root), ...parts.slice(0, k), ".gitignore"),
        parts.slice(0, k).join("/"),
      )),
    );
  }
  return rules;
}

/**
 * Yield entries under `dir` (not `dir` itself), sorted per folder. Stops early when the consumer
 * breaks. Unreadable folders are skipped silently (a permission error in one folder shouldn't fail a search).
 */
export async function* walk(
  dir: string,
  relBase: (abs: string) => string,
  opts: WalkOptions = {},
): AsyncGenerator<WalkEntry> {
  const { signal, gitignoreRoot } = opts;
  const honour = gitignoreRoot !== undefined;
  // Each queued folder carries the rules in force inside it (parent's, then its own appended on entry).
  const queue: { dir: string; rules: IgnoreRule[] }[] = [
    { dir, rules: honour ? await inheritedRules(gitignoreRoot, dir) : [] },
  ];
  while (queue.length) {
    if (signal?.aborted) return;
    const cur = queue.shift() as { dir: string; rules: IgnoreRule[] };
    let entries: import("node:fs").Dirent[];
    try {
      entries = await fs.readdir(cur.dir, { withFileTypes: true });
    } catch {
      continue;
    }
    let rules = cur.rules;
    if (honour && entries.some((e) => e.name === ".gitignore" && e.isFile())) {
      const own = await readRules(path.join(cur.dir, ".gitignore"), normBase(relBase(cur.dir)));
      if (own.length) rules = [...rules, ...own];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      const abs = path.join(cur.dir, e.name);
      const isDir = e.isDirectory();
      if (isDir && SKIP_DIRS.has(e.name)) continue;
      const rel = relBase(abs);
      // An ignored folder is not entered, so nothing below it can be re-included (git's rule).
      if (rules.length && isIgnored(rules, rel, isDir)) continue;
      yield { abs, rel, isFile: e.isFile(), isDir, isSymlink: e.isSymbolicLink() };
      if (isDir) queue.push({ dir: abs, rules });
    }
  }
}

function normBase(rel: string): string {
  return rel === "." ? "" : rel;
}
