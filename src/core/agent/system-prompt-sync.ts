/**
 * Keeps the session's recorded system prompt in step with the one the agent runs under, as pi 1.6 does: before a
 * model call the prompt's sections are built, compared with the prompt replayed from the context (the `system`
 * messages on the path, or a compaction's recorded one), and the sections that changed are appended as a `system`
 * message. The text sent is the replayed prompt, so what the model gets, what pi replays from the file and what
 * Agent: Show System Prompt shows are one and the same.
 */
import {
  currentSystemMessage,
  systemPromptText,
  type AgentMessage,
  type SystemMessage,
  type SystemMessageTool,
} from "../messages.js";
import type { HookMessage } from "../hooks/hook-events.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import type { PromptTool, SkillInfo, SystemPromptOptions } from "../prompt/prompt-options.js";
import {
  applySectionPatch,
  buildPromptSections,
  diffPromptSections,
  type PromptSections,
} from "../prompt/prompt-sections.js";
import type { SystemPromptProvider } from "../prompt/workspace-prompt.js";
import type { AgentTool } from "../tools/types.js";
import { errorText } from "../error-text.js";

/** What the sync needs from the session. */
export interface PromptSyncEnv {
  /** A fixed prompt text, or the provider of the options it is built from. */
  source: string | SystemPromptProvider;
  /** The tools the model is offered now (the running prompt's, MCP servers' included), asked at each build. */
  tools: () => readonly AgentTool[];
  /** Sections of the session's own, by name (plan mode's), asked at each build; they go where hooks' sections go. */
  sections?: () => Readonly<Record<string, string>>;
  /** The before_agent_start handlers of startRun (none: a branch that runs beside the user's runs no hooks). */
  hooks?: HookRunner;
  /** The context at the leaf (its system messages are the prompt in force). */
  contextMessages: () => AgentMessage[];
  /** Appends a system message to the session. */
  append: (message: SystemMessage) => void;
  /** The skills the prompt lists, each time it is built (their folders become readable by `read`). */
  onSkills?: (skills: readonly SkillInfo[]) => void;
  /** A failure to build the prompt; the request goes on with the prompt recorded last. */
  onError: (message: string) => void;
  /**
   * Removes known keys from a section's text before it is recorded or sent (KeyRedactor): instruction files are
   * the workspace's text, and a key in one must not reach the session file or the provider.
   */
  redact?: (text: string) => string;
}

/** A tool as a system message declares it (pi's shape: name, description, JSON schema parameters). */
function declarationOf(tool: AgentTool): SystemMessageTool {
  return { name: tool.name, description: tool.description, parameters: tool.parameters };
}

/** The declarations to record so the replayed tools become `tools`: new or changed ones, and the names gone. */
export function diffTools(
  declared: readonly SystemMessageTool[],
  tools: readonly AgentTool[],
): { added: SystemMessageTool[]; removed: { name: string }[] } {
  const before = new Map(declared.map((t) => [t.name, JSON.stringify(t)]));
  const current = tools.map(declarationOf);
  const added = current.filter((t) => before.get(t.name) !== JSON.stringify(t));
  const names = new Set(current.map((t) => t.name));
  const removed = [...before.keys()].filter((name) => !names.has(name)).map((name) => ({ name }));
  return { added, removed };
}

/** The prompt's tool view of an agent tool. */
export function promptToolOf(tool: AgentTool): PromptTool {
  return {
    name: tool.name,
    description: tool.description,
    ...(tool.promptSnippet !== undefined ? { snippet: tool.promptSnippet } : {}),
    ...(tool.promptGuidelines !== undefined ? { guidelines: [...tool.promptGuidelines] } : {}),
  };
}

/** The prompt in force after `messages` (their system messages replayed), as one text; "" when there is none. */
export function promptTextOf(messages: readonly AgentMessage[]): string {
  const m = currentSystemMessage(messages);
  return m ? systemPromptText(m) : "";
}

/** Sections as a fixed prompt gets them: each wrapped in `<name>…</name>`, as buildPromptSections wraps its own. */
function wrapSections(sections: Readonly<Record<string, string>>): PromptSections {
  const out: PromptSections = {};
  for (const [name, text] of Object.entries(sections)) if (text) out[name] = `<${name}>\n${text}\n</${name}>`;
  return out;
}

/** See the file comment. One per AgentSession; a run is one prompt() (or hook-triggered turn). */
export class SystemPromptSync {
  /** What the run's before_agent_start handlers changed, re-applied to every later build in the run. */
  private hookPatch: Record<string, string | null> | undefined;
  /** A whole prompt text a handler returned: sent instead of the sections for the rest of the run. */
  private forced: string | undefined;

  constructor(private readonly env: PromptSyncEnv) {}

  private async options(): Promise<SystemPromptOptions | undefined> {
    const { source } = this.env;
    if (typeof source === "string") return undefined;
    const options = await source(this.env.tools().map(promptToolOf));
    this.env.onSkills?.(options.skills);
    return options;
  }

  private sectionsOf(options: SystemPromptOptions | undefined): PromptSections {
    const { source, redact } = this.env;
    const own = this.env.sections?.() ?? {};
    const sections = options
      ? buildPromptSections({ ...options, sections: { ...options.sections, ...own } })
      : { preamble: typeof source === "string" ? source : "", ...wrapSections(own) };
    if (!redact) return sections;
    return Object.fromEntries(Object.entries(sections).map(([name, text]) => [name, redact(text)]));
  }

  /**
   * Starts a run: builds the prompt, lets before_agent_start handlers change it, records what changed. Returns
   * the messages the handlers asked to add.
   */
  async startRun(prompt: string | undefined): Promise<HookMessage[]> {
    this.hookPatch = undefined;
    this.forced = undefined;
    let options: SystemPromptOptions | undefined;
    let sections: PromptSections;
    try {
      options = await this.options();
      sections = this.sectionsOf(options);
    } catch (err) {
      this.env.onError(`Could not build the system prompt: ${errorText(err)}`);
      return [];
    }
    let messages: HookMessage[] = [];
    const hooks = this.env.hooks;
    if (hooks?.has("before_agent_start")) {
      const before = sections;
      const result = await hooks.emitBeforeAgentStart(
        {
          type: "before_agent_start",
          ...(prompt !== undefined ? { prompt } : {}),
          systemPrompt: "",
          ...(options ? { systemPromptOptions: options } : {}),
        },
        () => systemPromptText({ role: "system", content: "", sections: this.sectionsOf(options), timestamp: 0 }),
      );
      messages = result.messages;
      this.forced =
        result.systemPrompt !== undefined && this.env.redact
          ? this.env.redact(result.systemPrompt)
          : result.systemPrompt;
      try {
        sections = this.sectionsOf(options);
        this.hookPatch = diffPromptSections(before, sections);
      } catch (err) {
        this.env.onError(`Hook "before_agent_start" failed: ${errorText(err)}`);
        sections = before;
      }
    }
    this.record(sections);
    return messages;
  }

  /**
   * Before a model call: rebuilds the prompt (instruction files may have changed; the loader's cache makes this
   * cheap), records the sections that changed and returns the text to send (undefined: none).
   */
  async beforeRequest(): Promise<{ text: string } | undefined> {
    await this.recordChanges();
    if (this.forced !== undefined) return { text: this.forced };
    const m = currentSystemMessage(this.env.contextMessages());
    const text = m ? systemPromptText(m) : "";
    return text === "" ? undefined : { text };
  }

  /**
   * Rebuilds the prompt and records the sections that changed, keeping the run's hook changes. Called before each
   * request, and before a user message delivered during a run (steering, a follow-up), so that message follows
   * the prompt it is answered under, as a prompt's own message does.
   */
  async recordChanges(): Promise<void> {
    try {
      const built = this.sectionsOf(await this.options());
      this.record(this.hookPatch ? applySectionPatch(built, this.hookPatch) : built);
    } catch (err) {
      this.env.onError(`Could not build the system prompt: ${errorText(err)}`);
    }
  }

  /** The prompt the next request would be built from (nothing recorded; hooks not run). */
  async preview(): Promise<string> {
    return systemPromptText({
      role: "system",
      content: "",
      sections: this.sectionsOf(await this.options()),
      timestamp: 0,
    });
  }

  /** Ends the run: the handlers' changes and a forced text apply to one run only. */
  endRun(): void {
    this.hookPatch = undefined;
    this.forced = undefined;
  }

  /**
   * Appends a system message with what differs from the replayed prompt, if anything does: the sections, and the
   * tools declared (as pi records its loadout, so pi resuming the file activates the same tools).
   */
  private record(sections: PromptSections): void {
    const replayed = currentSystemMessage(this.env.contextMessages());
    const previous: Record<string, string> = {};
    for (const [name, text] of Object.entries(replayed?.sections ?? {})) if (text !== null) previous[name] = text;
    const patch = diffPromptSections(previous, sections);
    const { added, removed } = diffTools(replayed?.toolsAdded ?? [], this.env.tools());
    if (!patch && added.length === 0 && removed.length === 0) return;
    this.env.append({
      role: "system",
      content: "",
      ...(patch ? { sections: patch } : {}),
      ...(added.length > 0 ? { toolsAdded: added } : {}),
      ...(removed.length > 0 ? { toolsRemoved: removed } : {}),
      timestamp: Date.now(),
    });
  }
}
