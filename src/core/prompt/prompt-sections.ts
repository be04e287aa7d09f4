/**
 * The system prompt as named sections, the way pi 1.6 records it (a `system` message's `sections`): the preamble
 * as plain text, every other section wrapped in `<name>…</name>`. Stable sections come first (preamble, tools,
 * rules, the workspace folder), then what changes more often (appended text, project instructions, skills, the
 * date), so Anthropic's prompt-cache breakpoint after the stable part keeps hitting when an AGENTS.md changes.
 */
import type { PromptTool, SkillInfo, SystemPromptOptions } from "./prompt-options.js";

/** Ordered section texts by name, as recorded in the session (`preamble` first). */
export type PromptSections = Record<string, string>;

/** The default preamble: what the model is and where it works. */
export const DEFAULT_PREAMBLE =
  "You are a coding agent working in the user's VS Code workspace through the Agent Tree extension. " +
  "Help the user inspect files, run commands, and change code.";

/** Sections that rarely change; the prompt cache's first breakpoint goes after the last of them. */
export const STABLE_SECTIONS: readonly string[] = ["preamble", "tools", "rules", "cwd"];

const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;
/** Names the builder owns; a hook's extra section cannot take them. */
const BUILT_IN = new Set(["preamble", "tools", "rules", "cwd", "addendum", "project_context", "skills", "environment"]);
const SNIPPET_MAX = 160;

/** One line for a tool: its snippet, else the first line of its description, shortened. */
export function toolLine(tool: PromptTool): string | undefined {
  const text = (tool.snippet ?? tool.description ?? "").trim().split("\n", 1)[0].trim();
  if (text === "") return undefined;
  return text.length > SNIPPET_MAX ? `${text.slice(0, SNIPPET_MAX - 1)}…` : text;
}

function buildRules(options: SystemPromptOptions): string {
  const rules: string[] = [];
  const seen = new Set<string>();
  const add = (rule: string): void => {
    const r = rule.trim();
    if (r === "" || seen.has(r)) return;
    seen.add(r);
    rules.push(r);
  };
  const names = new Set(options.tools.map((t) => t.name));
  if (names.has("bash") && !names.has("grep") && !names.has("find") && !names.has("ls"))
    add("Use bash for file operations like ls, rg, find");
  for (const tool of options.tools) for (const g of tool.guidelines ?? []) add(g);
  for (const g of options.promptGuidelines) add(g);
  if (names.has("edit") && names.has("read")) add("Read a file before you edit it");
  add("Be concise in your responses");
  add("Show file paths clearly when working with files");
  return rules.map((r) => `- ${r}`).join("\n");
}

function escapeXml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}

/** The skills list (pi's formatSkillsForPrompt): name, description and SKILL.md path of each listed skill. */
export function formatSkills(skills: readonly SkillInfo[], readTool: "read" | "bash" | undefined): string {
  const visible = skills.filter((s) => !s.disableModelInvocation);
  if (visible.length === 0) return "";
  const how =
    readTool === "read"
      ? "Use the read tool to load a skill's file when the task matches its description."
      : readTool === "bash"
        ? "Use bash to load a skill's file when the task matches its description."
        : "Load a skill's file when the task matches its description.";
  const lines = [
    "The following skills provide specialized instructions for specific tasks.",
    how,
    "Resolve relative paths against the skill's directory (parent of SKILL.md). Use absolute paths in tool calls.",
    "",
    "<available_skills>",
  ];
  for (const s of visible) {
    lines.push("  <skill>");
    lines.push(`    <name>${escapeXml(s.name)}</name>`);
    lines.push(`    <description>${escapeXml(s.description)}</description>`);
    lines.push(`    <location>${escapeXml(s.filePath)}</location>`);
    lines.push("  </skill>");
  }
  lines.push("</available_skills>");
  return lines.join("\n");
}

function workspaceText(options: SystemPromptOptions): string {
  const cwd = options.cwd.replace(/\\/g, "/");
  const others = options.workspaceFolders.map((f) => f.replace(/\\/g, "/")).filter((f) => f !== cwd);
  if (others.length === 0) return cwd;
  return [
    cwd,
    "",
    "Other folders of the workspace (the tools work in the first):",
    ...others.map((f) => `- ${f}`),
  ].join("\n");
}

/**
 * Builds the sections (see the file comment). Throws for a hook section with an invalid or built-in name, so the
 * hook's author sees why it is missing.
 */
export function buildPromptSections(options: SystemPromptOptions): PromptSections {
  for (const name of Object.keys(options.sections)) {
    if (!SECTION_NAME.test(name) || BUILT_IN.has(name)) throw new Error(`Invalid system prompt section name: ${name}`);
  }
  const body: Record<string, string> = {};
  const lines = options.tools.flatMap((t) => {
    const line = toolLine(t);
    return line ? [`- ${t.name}: ${line}`] : [];
  });
  body.tools = lines.length > 0 ? lines.join("\n") : "(none)";
  body.rules = buildRules(options);
  body.cwd = workspaceText(options);
  if (options.appendSystemPrompt.trim() !== "") body.addendum = options.appendSystemPrompt.trim();
  if (options.contextFiles.length > 0) {
    body.project_context = [
      "Project-specific instructions and guidelines:",
      ...options.contextFiles.map(
        ({ path, content }) => `<project_instructions path="${path}">\n${content}\n</project_instructions>`,
      ),
    ].join("\n\n");
  }
  const names = new Set(options.tools.map((t) => t.name));
  const readTool = names.has("read") ? "read" : names.has("bash") ? "bash" : undefined;
  const skills = formatSkills(options.skills, readTool);
  if (skills !== "") body.skills = skills;
  for (const [name, text] of Object.entries(options.sections)) if (text) body[name] = text;
  const env = [
    options.date ? `Current date: ${options.date}` : "",
    options.platform ? `Platform: ${options.platform}` : "",
  ]
    .filter((l) => l !== "")
    .join("\n");
  if (env !== "") body.environment = env;

  const sections: PromptSections = { preamble: options.customPrompt?.trim() || DEFAULT_PREAMBLE };
  for (const [name, text] of Object.entries(body)) sections[name] = `<${name}>\n${text}\n</${name}>`;
  return sections;
}

/**
 * The sections to record so that a prompt replayed as `previous` becomes `current` (pi 1.6
 * diffSystemPromptSections): changed or new sections with their text, removed ones as null. Undefined when
 * nothing changed.
 */
export function diffPromptSections(
  previous: Readonly<Record<string, string>>,
  current: Readonly<Record<string, string>>,
): Record<string, string | null> | undefined {
  const patch: Record<string, string | null> = {};
  for (const [name, text] of Object.entries(current)) if (previous[name] !== text) patch[name] = text;
  for (const name of Object.keys(previous)) if (current[name] === undefined) patch[name] = null;
  return Object.keys(patch).length > 0 ? patch : undefined;
}

/** Applies a patch from diffPromptSections (null removes a section; new ones go last). */
export function applySectionPatch(
  sections: Readonly<Record<string, string>>,
  patch: Readonly<Record<string, string | null>>,
): PromptSections {
  const out: PromptSections = { ...sections };
  for (const [name, text] of Object.entries(patch)) {
    if (text === null) delete out[name];
    else out[name] = text;
  }
  return out;
}
