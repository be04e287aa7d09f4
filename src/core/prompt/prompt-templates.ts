/**
 * pi's prompt templates: each `*.md` directly inside the agent folder's `prompts/` (`~/.pi/agent/prompts`,
 * honouring PI_CODING_AGENT_DIR) and the workspace's `.pi/prompts/` is a `/name` command whose text the
 * user message receives, its arguments substituted (template-args.ts). Loaded as pi 1.6 loads them: the
 * file name is the command, frontmatter `description` (else the first non-empty line, cut at 60
 * characters) and `argument-hint` show in the completion list. The files are read as the tools read files
 * (guarded-files.ts): a workspace template is refused when it is a link leading out of its workspace folder or not
 * a regular file (a FIFO must not block the completion list), and the cap counts the bytes read.
 */
import path from "node:path";
import { getAgentDir } from "../session/paths.js";
import { parseFrontmatter } from "./frontmatter.js";
import { listGuardedFolder, readGuardedText, type FileScope } from "./guarded-files.js";
import { parseCommandArgs, substituteArgs } from "./template-args.js";
import { errorText } from "../error-text.js";

/** A template file too large for a prompt is skipped (with a diagnostic) rather than read. */
export const MAX_TEMPLATE_BYTES = 256 * 1024;

/** One loaded template. */
export interface PromptTemplate {
  /** The command without its slash: the file name without `.md`. */
  name: string;
  description: string;
  argumentHint?: string;
  /** The body after the frontmatter. */
  content: string;
  filePath: string;
  /** `user`: the agent folder's; `project`: the workspace's `.pi/prompts`. */
  scope: "user" | "project";
}

/** A file that could not be loaded, and why. */
export interface TemplateDiagnostic {
  path: string;
  message: string;
}

/** Where to look. */
export interface LoadTemplatesOptions {
  /** Workspace folders whose `.pi/prompts` are read (none in an untrusted workspace). */
  projectDirs: readonly string[];
  /** pi's agent folder; default getAgentDir(). */
  agentDir?: string;
}

/** Templates found, user's first then each workspace folder's, and the files skipped. */
export interface LoadedTemplates {
  templates: PromptTemplate[];
  diagnostics: TemplateDiagnostic[];
}

/** The prompt folders `opts` names, in load order, each with how its files are read. */
export function templateDirs(
  opts: LoadTemplatesOptions,
): { dir: string; scope: PromptTemplate["scope"]; access: FileScope }[] {
  return [
    { dir: path.join(opts.agentDir ?? getAgentDir(), "prompts"), scope: "user", access: {} },
    ...opts.projectDirs.map((root) => ({
      dir: path.join(root, ".pi", "prompts"),
      scope: "project" as const,
      access: { root },
    })),
  ];
}

/** Load every template; a folder that does not exist adds nothing, a bad or refused file adds a diagnostic. */
export async function loadPromptTemplates(opts: LoadTemplatesOptions): Promise<LoadedTemplates> {
  const out: LoadedTemplates = { templates: [], diagnostics: [] };
  for (const { dir, scope, access } of templateDirs(opts)) {
    const listed = await listGuardedFolder(dir, access);
    if (listed.kind === "absent") continue;
    if (listed.kind === "refused") {
      out.diagnostics.push({ path: dir, message: listed.reason });
      continue;
    }
    // Not folders: a link is resolved (and checked) when read, as pi counts a linked template file.
    const names = listed.entries
      .filter((e) => e.name.endsWith(".md") && !e.isDirectory())
      .map((e) => e.name)
      .sort();
    for (const name of names) {
      const filePath = path.join(dir, name);
      const read = await readGuardedText(filePath, MAX_TEMPLATE_BYTES, access);
      if (read.kind === "absent") continue;
      if (read.kind === "refused") {
        const message = read.tooLarge ? `larger than ${MAX_TEMPLATE_BYTES / 1024} KiB; skipped` : read.reason;
        out.diagnostics.push({ path: filePath, message });
        continue;
      }
      try {
        out.templates.push(templateOf(filePath, read.text, scope));
      } catch (e) {
        out.diagnostics.push({ path: filePath, message: errorText(e) });
      }
    }
  }
  return out;
}

/** A template from its file's text (throws on malformed frontmatter). */
export function templateOf(filePath: string, raw: string, scope: PromptTemplate["scope"]): PromptTemplate {
  const { frontmatter: fields, body } = parseFrontmatter(raw);
  let description = typeof fields.description === "string" ? fields.description : "";
  if (!description) {
    const first = body.split("\n").find((line) => line.trim() !== "");
    if (first) description = first.length > 60 ? `${first.slice(0, 60)}...` : first;
  }
  const hint = fields["argument-hint"];
  return {
    name: path.basename(filePath).replace(/\.md$/, ""),
    description,
    ...(typeof hint === "string" && hint !== "" ? { argumentHint: hint } : {}),
    content: body,
    filePath,
    scope,
  };
}

/**
 * The text `text` stands for: a `/name args` naming a template becomes the template with `args`
 * substituted; anything else is returned as it is. With several templates of one name the first
 * (user's, then the workspace folders' in order) wins, as in pi.
 */
export function expandPromptTemplate(text: string, templates: readonly PromptTemplate[]): string {
  const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  if (!match) return text;
  const template = templates.find((t) => t.name === match[1]);
  return template ? substituteArgs(template.content, parseCommandArgs(match[2] ?? "")) : text;
}
