/**
 * Where instructions come from (pi 1.6's rules, docs/system-prompt.md), as plain paths, and reading one file with
 * the size cap, as the tools read files (guarded-files.ts). Nothing here caches: InstructionLoader does.
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { readGuardedText, type FileScope } from "./guarded-files.js";

export type { FileScope } from "./guarded-files.js";

/** Context file names in a folder, in order of preference: the first that exists is the folder's. */
export const CONTEXT_FILE_NAMES: readonly string[] = [
  "AGENTS.override.md",
  "AGENTS.md",
  "AGENTS.MD",
  "CLAUDE.md",
  "CLAUDE.MD",
];

/** GitHub Copilot's instructions file, relative to a workspace folder. */
export const COPILOT_INSTRUCTIONS = path.join(".github", "copilot-instructions.md");

/** The project configuration folder (pi's CONFIG_DIR_NAME). */
export const PROJECT_CONFIG_DIR = ".pi";

/** Default cap on one instruction or skill file, in bytes. */
export const DEFAULT_MAX_INSTRUCTION_BYTES = 64 * 1024;

/** A file that was skipped, with the reason in words the user reads. */
export interface InstructionIssue {
  path: string;
  message: string;
}

/** Result of reading one file: its text, or nothing (absent), or an issue (too large, unreadable, refused). */
export type ReadOutcome =
  { kind: "text"; text: string } | { kind: "absent" } | { kind: "issue"; issue: InstructionIssue };

/**
 * Reads `file` as UTF-8 (BOM removed), as `scope` says (default: the user's own folder, links followed; see
 * guarded-files.ts). Absent (or a folder) is not an issue; a file over `maxBytes`, a link leading out of the
 * scope's root, a FIFO or device, or one that cannot be read is, with a message naming it.
 */
export async function readInstructionFile(file: string, maxBytes: number, scope: FileScope = {}): Promise<ReadOutcome> {
  const read = await readGuardedText(file, maxBytes, scope);
  if (read.kind !== "refused") return read;
  return { kind: "issue", issue: { path: file, message: `Skipped ${file}: ${read.reason}` } };
}

/** `dir` and each of its parents up to the root, root first. */
export function ancestorsRootFirst(dir: string): string[] {
  const out: string[] = [];
  let current = path.resolve(dir);
  for (let guard = 0; guard < 256; guard++) {
    out.unshift(current);
    const parent = path.dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return out;
}

/**
 * The folders whose context file applies, in prompt order: the agent folder first, then each workspace folder's
 * ancestors root first (a parent shared by two folders once).
 */
export function contextFolders(agentDir: string, workspaceFolders: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const dir of [path.resolve(agentDir), ...workspaceFolders.flatMap((f) => ancestorsRootFirst(f))]) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    out.push(dir);
  }
  return out;
}

/**
 * `.agents/skills` folders from `dir` up to its git repository's root (or the file system's root outside a
 * repository), as pi looks for them, but never the home folder's or above it: `home` and what is above are not
 * the project's (a workspace outside the home folder climbs as pi does).
 */
export async function agentsSkillDirs(dir: string, home: string): Promise<string[]> {
  const out: string[] = [];
  const chain = ancestorsRootFirst(dir).reverse();
  const homeDir = path.resolve(home);
  for (const d of chain) {
    if (d === homeDir) break;
    out.push(path.join(d, ".agents", "skills"));
    if (await exists(path.join(d, ".git"))) break;
  }
  return out;
}

async function exists(p: string): Promise<boolean> {
  try {
    await fs.access(p);
    return true;
  } catch {
    return false;
  }
}
