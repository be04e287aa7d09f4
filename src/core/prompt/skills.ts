/**
 * Skills (the Agent Skills convention pi and Claude Code follow): a folder holding a SKILL.md whose frontmatter
 * gives `name` and `description`. Found recursively under a skills folder (a folder with a SKILL.md is a skill and
 * is not searched further; dot folders and node_modules are skipped). The scan reads as the tools read
 * (guarded-files.ts: in the workspace no link leads out of its root) and is bounded: in depth, in skills, in
 * folders looked into, and each real folder is entered once (a link cycle costs one visit).
 */
import * as path from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { listGuardedFolder, type FileScope } from "./guarded-files.js";
import { readInstructionFile, type InstructionIssue } from "./instruction-files.js";
import type { SkillInfo } from "./prompt-options.js";
import { errorText } from "../error-text.js";

/** How deep below a skills folder a SKILL.md is looked for. */
const MAX_DEPTH = 6;
/** Skills read from one skills folder at most (a runaway folder must not stall every request). */
const MAX_SKILLS_PER_DIR = 500;
/** Folders looked into below one skills folder at most (a link to `/` or a huge tree ends here). */
export const MAX_FOLDERS_PER_SKILLS_DIR = 2000;

/** Skills of one folder and the files that were skipped. */
export interface SkillScan {
  skills: SkillInfo[];
  issues: InstructionIssue[];
  /** Every folder looked into (the host watches them). */
  folders: string[];
}

/** Reads one SKILL.md (as `scope` says); undefined with an issue when it has no description or cannot be read. */
export async function readSkill(
  file: string,
  maxBytes: number,
  scope: FileScope = {},
): Promise<{ skill?: SkillInfo; issue?: InstructionIssue }> {
  const read = await readInstructionFile(file, maxBytes, scope);
  if (read.kind === "absent") return {};
  if (read.kind === "issue") return { issue: read.issue };
  let frontmatter: Record<string, unknown>;
  try {
    ({ frontmatter } = parseFrontmatter(read.text));
  } catch (err) {
    return {
      issue: {
        path: file,
        message: `Skipped skill ${file}: its frontmatter is not valid YAML (${errorText(err).split("\n", 1)[0]})`,
      },
    };
  }
  const description = typeof frontmatter.description === "string" ? frontmatter.description.trim() : "";
  if (description === "")
    return { issue: { path: file, message: `Skipped skill ${file}: no description in its frontmatter` } };
  const name =
    typeof frontmatter.name === "string" && frontmatter.name.trim() !== ""
      ? frontmatter.name.trim()
      : path.basename(path.dirname(file));
  return {
    skill: {
      name,
      description,
      filePath: file,
      ...(frontmatter["disable-model-invocation"] === true ? { disableModelInvocation: true } : {}),
    },
  };
}

/**
 * Scans `dir` for skills (see the file comment), reading as `scope` says (default: the user's own folder, whose
 * links are followed). A missing folder gives nothing.
 */
export async function scanSkillsDir(dir: string, maxBytes: number, scope: FileScope = {}): Promise<SkillScan> {
  const out: SkillScan = { skills: [], issues: [], folders: [] };
  const entered = new Set<string>();
  let stopped = false;
  const walk = async (current: string, depth: number): Promise<void> => {
    if (out.skills.length >= MAX_SKILLS_PER_DIR || stopped) return;
    const listed = await listGuardedFolder(current, scope);
    if (listed.kind === "absent") return;
    if (listed.kind === "refused") {
      out.issues.push({ path: current, message: `Skipped skills in ${current}: ${listed.reason}` });
      return;
    }
    if (entered.has(listed.real)) return;
    if (out.folders.length >= MAX_FOLDERS_PER_SKILLS_DIR) {
      stopped = true;
      out.issues.push({
        path: dir,
        message: `Skipped the rest of ${dir}: the scan stopped after ${MAX_FOLDERS_PER_SKILLS_DIR} folders`,
      });
      return;
    }
    entered.add(listed.real);
    out.folders.push(current);
    const { entries } = listed;
    // Any SKILL.md that is not a folder is read, so a FIFO or a link leading out is reported, not passed over.
    if (entries.some((e) => e.name === "SKILL.md" && !e.isDirectory())) {
      const { skill, issue } = await readSkill(path.join(current, "SKILL.md"), maxBytes, scope);
      if (skill) out.skills.push(skill);
      if (issue) out.issues.push(issue);
      return;
    }
    if (depth >= MAX_DEPTH) return;
    const subdirs = entries
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith(".") && e.name !== "node_modules")
      .map((e) => e.name)
      .sort();
    for (const name of subdirs) await walk(path.join(current, name), depth + 1);
  };
  await walk(dir, 0);
  return out;
}
