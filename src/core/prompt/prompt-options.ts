/**
 * What the system prompt is built from (docs/system-prompt.md): the structured inputs, in the spirit of pi 1.6's
 * BuildSystemPromptOptions, so `before_agent_start` hooks can change any part of it before it is rendered.
 */

/** A tool as the prompt lists it: the tool definitions actually given to the agent. */
export interface PromptTool {
  name: string;
  /** One line saying what it is for; else the first line of `description`. */
  snippet?: string;
  /** The tool's full description (used when there is no snippet). */
  description?: string;
  /** Rule bullets the tool brings (e.g. "Use read to examine files instead of cat or sed."). */
  guidelines?: readonly string[];
}

/** A project instruction file (AGENTS.md, CLAUDE.md, .github/copilot-instructions.md, …) and its text. */
export interface ContextFile {
  path: string;
  content: string;
}

/** A skill as the prompt lists it (Agent Skills convention: a folder with a SKILL.md). */
export interface SkillInfo {
  name: string;
  description: string;
  /** Absolute path of its SKILL.md, which the model reads when the task calls for it. */
  filePath: string;
  /** `disable-model-invocation: true`: not listed for the model. */
  disableModelInvocation?: boolean;
  /**
   * `user`: from pi's agent folder, whose skill folders `read` may open; `project`: from the workspace or its
   * parents (never a read root). Absent (a skill a hook made up): treated as `project`.
   */
  scope?: "user" | "project";
}

/** Everything the prompt is built from. Collections are the hook's to change. */
export interface SystemPromptOptions {
  /** Replaces the preamble (a SYSTEM.md); the other sections stay. */
  customPrompt?: string;
  /** The tools given to the agent, in order. */
  tools: PromptTool[];
  /** Extra rule bullets (hooks). */
  promptGuidelines: string[];
  /** Appended instructions (APPEND_SYSTEM.md files and the `agentTree.systemPrompt.append` setting). */
  appendSystemPrompt: string;
  /** Extra sections by name (lower case, digits, `_` and `-`), each wrapped in `<name>…</name>` (hooks). */
  sections: Record<string, string>;
  /** The folder the agent works in (its tools' root). */
  cwd: string;
  /** Every folder of the workspace, `cwd` among them (multi-root workspaces). */
  workspaceFolders: string[];
  contextFiles: ContextFile[];
  skills: SkillInfo[];
  /** Today, `YYYY-MM-DD`. */
  date?: string;
  /** The platform, e.g. `linux x64`. */
  platform?: string;
}

/** A deep copy with every collection present, so a hook can change it without touching the caller's. */
export function normalizePromptOptions(input: Partial<SystemPromptOptions> & { cwd: string }): SystemPromptOptions {
  return {
    ...(input.customPrompt !== undefined ? { customPrompt: input.customPrompt } : {}),
    tools: (input.tools ?? []).map((t) => ({ ...t, ...(t.guidelines ? { guidelines: [...t.guidelines] } : {}) })),
    promptGuidelines: [...(input.promptGuidelines ?? [])],
    appendSystemPrompt: input.appendSystemPrompt ?? "",
    sections: { ...(input.sections ?? {}) },
    cwd: input.cwd,
    workspaceFolders: [...(input.workspaceFolders ?? [input.cwd])],
    contextFiles: (input.contextFiles ?? []).map((f) => ({ ...f })),
    skills: (input.skills ?? []).map((s) => ({ ...s })),
    ...(input.date !== undefined ? { date: input.date } : {}),
    ...(input.platform !== undefined ? { platform: input.platform } : {}),
  };
}
