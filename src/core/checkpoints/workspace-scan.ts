/**
 * What changed in a folder since the shadow index was last updated, using git's own machinery: `git status`
 * against the shadow index compares each recorded file's stat data with the index (so an unchanged folder costs
 * one walk, with lstat calls spread over threads, and no file reads) and lists new files with the folder's ignore
 * rules applied (nested .gitignore files, info/exclude, the global excludes file). Each new or changed path is then
 * checked here: its size against the cap, its type, whether it is a nested repository.
 */
import type { Dirent } from "node:fs";
import fs from "node:fs/promises";
import { CheckpointAbortedError } from "./errors.js";
import { absoluteIn, ancestorsOf, isSafeRelative } from "./folder-paths.js";
import { splitNul, type GitRunner } from "./git-runner.js";
import type { SkippedFile } from "./types.js";

/** The result of a scan: what to write into the shadow index. */
export interface ScanResult {
  /** Files and symbolic links to record (new or changed), with their sizes. */
  update: Map<string, number>;
  /** Recorded paths to drop: deleted, or no longer recordable (grew over the cap, became a folder, …). */
  remove: string[];
  /** Found but not recorded. */
  skipped: SkippedFile[];
  /**
   * Folders with nothing in them, sorted. Found by walking folders git lists as holding nothing it would record;
   * such a folder may hold ignored sub-folders, so the caller still filters these through the ignore rules.
   */
  emptyDirs: string[];
  /** A `.gitignore` file was added, changed or deleted (recorded files may have become ignored). */
  ignoreFilesChanged: boolean;
  /** The shadow index holds changes its latest checkpoint does not (an interrupted checkpoint). */
  staged: boolean;
}

/** Stops the search for empty folders inside one listed folder after this many entries (a folder of ignored files). */
const EMPTY_DIR_ENTRY_BUDGET = 5000;
/** lstat calls in flight at once. */
const STAT_CONCURRENCY = 64;

async function mapLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Leaf folders with no entries at all inside `rel` (which git listed as holding nothing it would record). */
async function emptyLeafDirs(folder: string, rel: string, budget: { left: number }): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await fs.readdir(absoluteIn(folder, rel), { withFileTypes: true });
  } catch {
    return [];
  }
  budget.left -= entries.length;
  if (entries.length === 0) return [rel];
  const out: string[] = [];
  for (const e of entries) {
    if (budget.left <= 0) break;
    if (e.isDirectory() && e.name !== ".git") out.push(...(await emptyLeafDirs(folder, `${rel}/${e.name}`, budget)));
  }
  return out;
}

/**
 * Lists the changes (see the file comment). `maxFileBytes`: files over it are skipped and, if recorded before,
 * dropped from the record.
 */
export async function scanFolder(
  git: GitRunner,
  folder: string,
  maxFileBytes: number,
  signal?: AbortSignal,
): Promise<ScanResult> {
  const [changes, dirs] = await Promise.all([
    git.run(["status", "--porcelain=v2", "-z", "--untracked-files=all", "--no-renames"], { signal }),
    git.run(["ls-files", "-z", "--others", "--directory", "--exclude-standard"], { signal }),
  ]);
  const untracked = new Set<string>();
  const modified = new Set<string>();
  const deleted = new Set<string>();
  const nested = new Set<string>();
  let staged = false;
  for (const record of splitNul(changes.stdout)) {
    if (record.startsWith("? ")) {
      const p = record.slice(2);
      // git stops at a folder holding its own repository and lists it with a trailing slash.
      if (p.endsWith("/")) nested.add(p.slice(0, -1));
      else untracked.add(p);
    } else if (record.startsWith("1 ")) {
      // "1 XY sub mH mI mW hH hI path": X = index against the latest checkpoint, Y = folder against the index.
      const fields = record.split(" ");
      const [x, y] = fields[1];
      const p = fields.slice(8).join(" ");
      if (x !== ".") staged = true;
      if (y === "D") deleted.add(p);
      else if (y !== ".") modified.add(p);
    }
  }

  const result: ScanResult = {
    update: new Map(),
    remove: [],
    skipped: [],
    emptyDirs: [],
    ignoreFilesChanged: false,
    staged,
  };
  const isIgnoreFile = (p: string): boolean => p === ".gitignore" || p.endsWith("/.gitignore");
  result.ignoreFilesChanged = [...untracked, ...modified, ...deleted].some(isIgnoreFile);
  for (const p of nested) result.skipped.push({ path: p, reason: "nested-repository" });
  for (const p of deleted) {
    modified.delete(p);
    result.remove.push(p);
  }
  const candidates = [...untracked, ...modified];
  await mapLimited(candidates, STAT_CONCURRENCY, async (p) => {
    const recorded = modified.has(p);
    if (!isSafeRelative(p) || p.includes("\uFFFD")) {
      result.skipped.push({ path: p, reason: "bad-name" });
      if (recorded) result.remove.push(p);
      return;
    }
    const st = await fs.lstat(absoluteIn(folder, p)).catch(() => undefined);
    if (!st) {
      if (recorded) result.remove.push(p);
    } else if (st.isSymbolicLink()) {
      result.update.set(p, st.size);
    } else if (st.isFile()) {
      if (st.size > maxFileBytes) {
        result.skipped.push({ path: p, reason: "too-large", size: st.size });
        if (recorded) result.remove.push(p);
      } else result.update.set(p, st.size);
    } else if (st.isDirectory()) {
      // A recorded file replaced by a folder: the folder's files are listed on their own.
      if (recorded) result.remove.push(p);
    } else {
      result.skipped.push({ path: p, reason: "special-file" });
      if (recorded) result.remove.push(p);
    }
  });
  if (signal?.aborted) throw new CheckpointAbortedError("The checkpoint");

  // `--directory` lists folders holding nothing git would record: empty ones, ones with only ignored or
  // skipped files, nested repositories, and new folders (whose files are in `untracked`).
  const budget = { left: EMPTY_DIR_ENTRY_BUDGET };
  const foldersWithNewFiles = new Set<string>();
  for (const p of untracked) if (result.update.has(p)) for (const a of ancestorsOf(p)) foldersWithNewFiles.add(a);
  for (const record of splitNul(dirs.stdout)) {
    if (!record.endsWith("/")) continue;
    const dir = record.slice(0, -1);
    if (nested.has(dir) || !isSafeRelative(dir) || foldersWithNewFiles.has(dir)) continue;
    result.emptyDirs.push(...(await emptyLeafDirs(folder, dir, budget)));
  }
  result.emptyDirs.sort();
  result.remove.sort();
  result.skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return result;
}
