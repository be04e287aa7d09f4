/**
 * `/skill:name [request]` in the chat input: the skill's SKILL.md (frontmatter removed) goes into the user message,
 * wrapped as pi 1.6 wraps it (agent-session.js `_expandSkillCommand`), the request after it. The message holds the
 * expansion, as in pi, so pi shows and sends the same. The file is read again as the skills scan read it (the
 * workspace guard for a project's skill, the cap per file), so an edit since the scan counts.
 */
import * as path from "node:path";
import { parseFrontmatter } from "./frontmatter.js";
import { DEFAULT_MAX_INSTRUCTION_BYTES, readInstructionFile } from "./instruction-files.js";
import type { InstructionLoader } from "./instruction-loader.js";
import type { SkillInfo } from "./prompt-options.js";
import { errorText } from "../error-text.js";

/** The command's prefix; a skill `pdf` is `/skill:pdf` (pi's name, also in the completion list). */
export const SKILL_COMMAND_PREFIX = "skill:";

/** A `/skill:` command that cannot be expanded: unknown skill, unreadable file. The message says which. */
export class SkillCommandError extends Error {}

/** `/skill:name rest` → the name and the request after it; undefined for any other text. */
export function parseSkillCommand(text: string): { name: string; args: string } | undefined {
  const m = /^\/skill:(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  return m ? { name: m[1], args: (m[2] ?? "").trim() } : undefined;
}

/** pi's wrapping of a skill's instructions, the request after them. */
export function skillMessage(skill: Pick<SkillInfo, "name" | "filePath">, body: string, args: string): string {
  const block =
    `<skill name="${skill.name}" location="${skill.filePath}">\n` +
    `References are relative to ${path.dirname(skill.filePath)}.\n\n${body}\n</skill>`;
  return args ? `${block}\n\n${args}` : block;
}

/**
 * `text` with a `/skill:name` command expanded from the loader's skills (those of this workspace and trust); any
 * other text unchanged. Throws SkillCommandError for a skill that is not listed or cannot be read.
 */
export async function expandSkillCommand(text: string, loader: InstructionLoader): Promise<string> {
  const command = parseSkillCommand(text);
  if (!command) return text;
  const loaded = await loader.load();
  const skill = loaded.skills.find((s) => s.name === command.name);
  if (!skill) {
    const names = loaded.skills.map((s) => s.name).sort();
    const known = names.length > 0 ? `the skills are ${names.join(", ")}` : "no skill is loaded";
    throw new SkillCommandError(`No skill named "${command.name}": ${known}.`);
  }
  const maxBytes = loader.getSources().maxFileBytes ?? DEFAULT_MAX_INSTRUCTION_BYTES;
  const read = await readInstructionFile(skill.filePath, maxBytes, loaded.skillScopes[skill.filePath] ?? {});
  if (read.kind === "absent") throw new SkillCommandError(`The skill "${skill.name}" is gone: ${skill.filePath}`);
  if (read.kind === "issue") throw new SkillCommandError(read.issue.message);
  let body: string;
  try {
    body = parseFrontmatter(read.text).body.trim();
  } catch (e) {
    throw new SkillCommandError(`The skill "${skill.name}" has frontmatter that is not valid YAML: ${errorText(e)}`);
  }
  return skillMessage(skill, body, command.args);
}
