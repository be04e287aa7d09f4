/**
 * Skills (the Agent Skills convention pi and Claude Code follow): a folder holding a SKILL.md whose frontmatter
 * gives `name` and `description`. Found recursively under a skills folder (a folder with a SKILL.md is a skill and
 * is not searched further; dot folders and node_modules are skipped), bounded in depth and count.
 */
import type { Dirent } from "node:fs";
import * as fs from "node:fs/promises";
import * as path from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { readInstructionFile, type InstructionIssue } from "./instruction-files.js";
import type { SkillInfo } from "./prompt-options.js";

/** How deep below a skills folder a SKILL.md is looked for. */
const MAX_DEPTH = 6;
/** Skills read from one skills folder at most (a runaway folder must not stall every request). */
const MAX_SKILLS_PER_DIR = 500;

/** Skills of one folder and the files that were skipped. */
export interface SkillScan {
  skills: SkillInfo[];
  issues: InstructionIssue[];
  /** Every folder looked into (the host watches them). */
  folders: string[];
}

/** Reads one SKILL.md; undefined with an issue when it has no description or cannot be read. */
export async function readSkill(
  file: string,
  maxBytes: number,
): Promise<{ skill?: SkillInfo; issue?: InstructionIssue }> {
  const read = await readInstructionFile(file, maxBytes);
  if (read.kind === "absent") return {};
  if (read.kind === "issue") return { issue: read.issue };
  let frontmatter: Record<string, unknown>;
  try {
    ({ frontmatter } = parseFrontmatter(read.text));
  } catch (err) {
    return {
      issue: {
        path: file,
        message: `Skipped skill ${file}: its frontmatter is not valid YAML (${(err as Error).message.split("\n", 1)[0]})`,
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

/** Scans `dir` for skills (see the file comment). A missing folder gives nothing. */
export async function scanSkillsDir(dir: string, maxBytes: number): Promise<SkillScan> {
  const out: SkillScan = { skills: [], issues: [], folders: [] };
  const walk = async (current: string, depth: number): Promise<void> => {
    if (out.skills.length >= MAX_SKILLS_PER_DIR) return;
    let entries: Dirent[];
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR")
        out.issues.push({ path: current, message: `Skipped skills in ${current}: ${(err as Error).message}` });
      return;
    }
    out.folders.push(current);
    if (entries.some((e) => e.name === "SKILL.md" && (e.isFile() || e.isSymbolicLink()))) {
      const { skill, issue } = await readSkill(path.join(current, "SKILL.md"), maxBytes);
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
