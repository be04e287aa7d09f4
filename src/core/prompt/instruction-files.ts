/**
 * Where instructions come from (pi 1.6's rules, docs/system-prompt.md), as plain paths, and reading one file with
 * the size cap. Nothing here caches: InstructionLoader does.
 */
import * as fs from "node:fs/promises";
import * as path from "node:path";

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

/** Result of reading one file: its text, or nothing (absent), or an issue (too large, unreadable). */
export type ReadOutcome =
  { kind: "text"; text: string } | { kind: "absent" } | { kind: "issue"; issue: InstructionIssue };

function kb(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}

/**
 * Reads `file` as UTF-8 (BOM removed). Absent (or a folder) is not an issue; a file over `maxBytes` or one that
 * cannot be read is, with a message naming it.
 */
export async function readInstructionFile(file: string, maxBytes: number): Promise<ReadOutcome> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, "r");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return { kind: "absent" };
    return { kind: "issue", issue: { path: file, message: `Skipped ${file}: ${(err as Error).message}` } };
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) return { kind: "absent" };
    if (stat.size > maxBytes)
      return {
        kind: "issue",
        issue: { path: file, message: `Skipped ${file}: ${kb(stat.size)} is over the ${kb(maxBytes)} limit` },
      };
    const text = (await handle.readFile({ encoding: "utf8" })).replace(/^\uFEFF/, "");
    return { kind: "text", text };
  } catch (err) {
    return { kind: "issue", issue: { path: file, message: `Skipped ${file}: ${(err as Error).message}` } };
  } finally {
    await handle.close().catch(() => undefined);
  }
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
 * repository), as pi looks for them.
 */
export async function agentsSkillDirs(dir: string): Promise<string[]> {
  const out: string[] = [];
  const chain = ancestorsRootFirst(dir).reverse();
  for (const d of chain) {
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
