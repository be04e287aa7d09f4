/** Differences between two checkpoint trees, read from `git diff-tree --raw -z`. */
import { splitNul, type GitRunner } from "./git-runner.js";
import type { FileChange, FileStatus } from "./types.js";

/** A gitlink: git's record of a nested repository; never written or removed by a restore. */
export const GITLINK_MODE = "160000";

/** One raw difference, with modes and blob ids. */
export interface RawChange {
  status: "A" | "D" | "M" | "T" | "R";
  path: string;
  oldPath?: string;
  oldMode: string;
  newMode: string;
  oldId: string;
  newId: string;
}

/** Parses `diff-tree -r -z --raw --no-abbrev` output (with or without rename detection). */
export function parseRawDiff(output: Buffer | string): RawChange[] {
  const parts = splitNul(output);
  const out: RawChange[] = [];
  for (let i = 0; i < parts.length; i++) {
    const head = parts[i];
    if (!head.startsWith(":")) continue;
    const [oldMode, newMode, oldId, newId, statusField] = head.slice(1).split(" ");
    const letter = statusField[0] as RawChange["status"];
    if (letter === "R") {
      out.push({ status: "R", oldPath: parts[++i], path: parts[++i], oldMode, newMode, oldId, newId });
    } else if (letter === "A" || letter === "D" || letter === "M" || letter === "T") {
      out.push({ status: letter, path: parts[++i], oldMode, newMode, oldId, newId });
    } else {
      i++; // a status this engine does not produce (C, U, X): skip its path
    }
  }
  return out;
}

const STATUS: Record<RawChange["status"], FileStatus> = {
  A: "added",
  D: "deleted",
  M: "modified",
  T: "type-changed",
  R: "renamed",
};

/** The public form of a raw change. */
export function toFileChange(c: RawChange): FileChange {
  const change: FileChange = { path: c.path, status: STATUS[c.status] };
  if (c.oldPath !== undefined) change.oldPath = c.oldPath;
  return change;
}

/** Raw differences from tree-ish `from` to `to` (nested repositories left out). */
export async function rawDiff(
  git: GitRunner,
  from: string,
  to: string,
  options: { renames?: boolean; signal?: AbortSignal } = {},
): Promise<RawChange[]> {
  const args = ["diff-tree", "-r", "-z", "--raw", "--no-abbrev", options.renames ? "-M" : "--no-renames", from, to];
  const { stdout } = await git.run(args, { signal: options.signal });
  return parseRawDiff(stdout).filter((c) => c.oldMode !== GITLINK_MODE && c.newMode !== GITLINK_MODE);
}

/** Lines added and removed in one file; undefined counts for a binary file. */
export interface LineCounts {
  added?: number;
  removed?: number;
}

/**
 * Parses `diff-tree -r -z --numstat` output: "added\tremoved\tpath\0", or for a rename "added\tremoved\t\0old\0new\0";
 * a binary file has "-" for both counts. Keyed by the (new) path.
 */
export function parseNumstat(output: Buffer | string): Map<string, LineCounts> {
  const parts = splitNul(output);
  const out = new Map<string, LineCounts>();
  for (let i = 0; i < parts.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t(.*)$/s.exec(parts[i]);
    if (!m) continue;
    let file = m[3];
    if (file === "") {
      i += 2;
      file = parts[i] ?? "";
    }
    out.set(file, m[1] === "-" ? {} : { added: Number(m[1]), removed: Number(m[2]) });
  }
  return out;
}

/** Line counts of the files that differ from tree-ish `from` to `to` (renames detected, as rawDiff with renames). */
export async function numstatDiff(git: GitRunner, from: string, to: string): Promise<Map<string, LineCounts>> {
  const { stdout } = await git.run(["diff-tree", "-r", "-z", "--numstat", "-M", from, to]);
  return parseNumstat(stdout);
}
