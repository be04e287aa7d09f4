/**
 * AgentSession: one conversation with a model on top of a SessionManager. Streams replies, runs tool
 * calls through the host's approval policy, appends every message as it completes, compacts, moves
 * around the tree, forks, and runs hooks. Every turn is an AgentRun — the leaf's (`prompt()`) and those that
 * append off the leaf (`startRun()`: parallel branches, asides, subagents) — and every piece of work registers with
 * the session's SessionRuns, which answers `busyAt(entryId)`. See docs/core-api.md.
 */
import * as path from "node:path";
import { ContextCache } from "./context-cache.js";
import { type AgentMessage, type BashExecutionMessage, type CustomMessage, type UserMessage } from "../messages.js";
import { CompactionError, runCompaction, type CompactionEnv } from "../compaction/run-compaction.js";
import {
  DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS,
  DEFAULT_COMPACTION_SETTINGS,
  shouldCompact,
  type CompactionSettings,
} from "../compaction/settings.js";
import { estimateContextTokens } from "../compaction/tokens.js";
import { HookRunner } from "../hooks/hook-runner.js";
import type { HookAPI, HookContext } from "../hooks/types.js";
import { keyEnvValues, withoutKeys } from "../providers/api-key.js";
import type { ModelRegistry } from "../providers/model-registry.js";
import type { ModelInfo, ThinkingLevel } from "../providers/types.js";
import { isThinkingLevel, supportedThinkingLevels } from "../providers/thinking-levels.js";
import type { SessionManager } from "../session/session-manager.js";
// The content of a user message with attachments (src/core/mentions).
import type { ImageContent, TextContent } from "../messages.js";
import type { CompactionEntry } from "../session/types.js";
import type { CompleteFn } from "../summary/summarize.js";
import { createWorkspaceTools } from "../tools/index.js";
import type { WorkspaceToolOptions } from "../tools/workspace-tools.js";
import type { AgentTool, AgentToolSource, ToolApprovalPolicy } from "../tools/types.js";
import type { AgentEvent } from "./events.js";
import { forkSession, type ForkPosition, type ForkResult } from "./fork.js";
import { bringConclusions } from "./bring-conclusions.js";
import type { HookMessage } from "../hooks/hook-events.js";
import {
  withPiFields,
  type BringConclusionsOptions,
  type BringConclusionsResult,
  type NavigateTreeOptions,
  type NavigateTreeResult,
} from "./navigate-types.js";
import { navigateTree, type NavigateEnv } from "./navigate-tree.js";
import type { StreamFn } from "./stream-turn.js";
import type { AgentCheckpointHook } from "../checkpoints/turn-checkpoints.js";
import {
  AgentRun,
  levelOf,
  type LeafParts,
  type RunCheckpoints,
  type RunEvent,
  type RunKind,
  type RunResult,
  type RunSession,
} from "./agent-run.js";
import { SessionRuns, type SessionWork } from "./session-runs.js";
import { createSubagentTool, SUBAGENT_TOOL_NAME, type SubagentRequest } from "./subagent-tool.js";
import { chooseSummarySource, type SummarySource } from "./summary-source.js";
import { KeyRedactor } from "./key-redactor.js";
import { errorText } from "../error-text.js";
import { PromptQueue, type QueuedKind, type QueuedMessage } from "./prompt-queue.js";
import { COMMAND_RUNNING_TEXT, UserCommandRunner } from "./user-command.js";
import { SystemPromptSync, promptTextOf } from "./system-prompt-sync.js";
import type { SystemPromptProvider } from "../prompt/workspace-prompt.js";
import {
  CARRY_OUT_PLAN_TEXT,
  PLAN_MODE_INSTRUCTIONS,
  PLAN_MODE_SECTION,
  PLAN_MODE_TYPE,
  planModeIn,
  planModeTools,
  type PlanModeState,
} from "./plan-mode.js";
import type { SkillInfo } from "../prompt/prompt-options.js";

/** Default bound on model calls per prompt, so a model that keeps calling tools cannot loop forever. */
export const DEFAULT_MAX_TURNS = 50;

/** Constructor options (docs/core-api.md). */
export interface AgentSessionOptions {
  sessionManager: SessionManager;
  cwd: string;
  modelRegistry: ModelRegistry;
  /**
   * The host's key for a model's provider (SecretStorage): it wins over the provider's own credentials; when it
   * returns nothing, the provider resolves its own (stored credential, login, environment variable).
   */
  getApiKey?: (model: ModelInfo) => Promise<string | undefined>;
  /** Asked before every tool call; default: approve everything. */
  approve?: ToolApprovalPolicy;
  /**
   * More tools, asked for when each prompt starts (MCP servers: src/core/mcp/); offered after `tools`, and a name
   * `tools` already has is left out.
   */
  toolSource?: AgentToolSource;
  /** Default: createWorkspaceTools(cwd), with bash commands run without any key variable of the registry's models. */
  tools?: AgentTool[];
  /** Where the default tools' bash commands run (src/core/tools/sandbox.ts), asked before each; default: as they are. */
  commandSandbox?: WorkspaceToolOptions["commandSandbox"];
  /**
   * The system prompt: a fixed text, or the provider of the options it is built from (workspacePromptProvider).
   * Recorded in the session as pi 1.6 records it (docs/system-prompt.md). None: no prompt is sent or recorded.
   */
  systemPrompt?: string | SystemPromptProvider;
  /** Else the session's last model_change, else none. */
  model?: ModelInfo;
  /**
   * Chooses the model from the one in force at the session's leaf (used when `model` is not given), so a
   * host can apply its own default without building the session context a second time. When it returns
   * nothing, the session's own model is looked up in the registry.
   */
  selectModel?: (sessionModel: { provider: string; modelId: string } | undefined) => ModelInfo | undefined;
  compaction?: CompactionSettings;
  branchSummary?: { reserveTokens: number };
  /** Model calls per prompt before the loop stops (default 50). */
  maxTurns?: number;
  /** Always summarize with the extractive summarizer, never a model. */
  extractiveSummaries?: boolean;
  /** Streaming function (default: the registry's `stream`). */
  stream?: StreamFn;
  /** Non-streaming completion used by summaries (default: the registry's `complete`). */
  complete?: CompleteFn;
  /**
   * Workspace checkpoints (docs/checkpoints.md): called before a prompt's first message, before each model call
   * that follows a mutating tool (write, edit, bash), and when a prompt ends. Without it no checkpoint is taken.
   */
  checkpoints?: AgentCheckpointHook;
  /**
   * Offer the `subagent` tool (docs/subagents.md): each call runs a fresh agent as a branch off the call's entry.
   * Without it the tool is not offered.
   */
  subagents?: SubagentSettings;
}

/** The subagents' settings (AgentSessionOptions.subagents). */
export interface SubagentSettings {
  /** How many of the session's subagents run at once (read when a call waits; default 4). */
  maxConcurrent?: () => number;
  /** Model calls per subagent before it stops (default: the session's `maxTurns`). */
  maxTurns?: number;
}

interface QueuedHookMessage {
  message: HookMessage;
  triggerTurn: boolean;
}

/**
 * A run off the leaf (`AgentSession.startRun`): it appends under `parentId` and then under its own newest entry,
 * never moving the leaf, with its own context (the path to `parentId`, read once, plus its own messages). What is
 * not given is the session's: its model, folder, approval policy, stream, thinking level, turn bound.
 */
export interface StartRunOptions {
  kind: Exclude<RunKind, "prompt">;
  /** How the user is told about it ("Branch 2 of 3", "The aside"). */
  label: string;
  /** The entry it appends under (null: a new root). */
  parentId: string | null;
  /** Its first message: the user's text, or a recorded user message's content (redacted of known keys before it is recorded). */
  prompt: string | UserMessage["content"];
  /** User messages sent after the first, each when the turn before it ended (AgentRunOptions.followUps). */
  followUps?: readonly UserMessage["content"][];
  model?: ModelInfo;
  /** The tools it is offered (confined to its folder). */
  tools: readonly AgentTool[];
  /** The folder its tools work in (a branch's copy); hooks get it as `ctx.cwd`. Default: the session's. */
  cwd?: string;
  approve?: ToolApprovalPolicy;
  /** As AgentRunOptions.systemPrompt (none: the prompt in force at `parentId` is sent as it is). */
  systemPrompt?: string | SystemPromptProvider;
  thinkingLevel?: ThinkingLevel;
  stream?: StreamFn;
  maxTurns?: number;
  signal?: AbortSignal;
  checkpoints?: RunCheckpoints;
  /** Its requests carry only its own messages, not the path to `parentId` (a subagent; AgentRunOptions.freshContext). */
  freshContext?: boolean;
  onEvent?: (event: RunEvent) => void;
  onStarted?: (firstEntryId: string | undefined) => Promise<void>;
  finish?: (result: RunResult, signal: AbortSignal) => Promise<RunResult>;
}

const approveAll: ToolApprovalPolicy = async () => ({ approved: true });

/** True when a user message's content says something: a text that is not blank, or an image. */
function hasUserContent(content: unknown): boolean {
  if (typeof content === "string") return content.trim() !== "";
  if (!Array.isArray(content)) return false;
  return content.some(
    (c: { type?: unknown; text?: unknown }) =>
      c.type === "image" || (c.type === "text" && typeof c.text === "string" && c.text.trim() !== ""),
  );
}

/** See the file comment. */
export class AgentSession {
  readonly sessionManager: SessionManager;
  readonly cwd: string;
  readonly modelRegistry: ModelRegistry;
  /** Hook registration; the VS Code host hands this object to other extensions. */
  readonly hooks: HookAPI;

  private readonly options: AgentSessionOptions;
  private readonly hookRunner: HookRunner;
  private readonly listeners = new Set<(e: AgentEvent) => void>();
  private readonly tools: AgentTool[];
  private readonly stream: StreamFn;
  private readonly complete: CompleteFn;
  /**
   * The work going on in this session — its runs (the leaf's and those off it), commands, moves — and the one answer
   * to "may this start?" (`busyAt`).
   */
  readonly runs: SessionRuns;

  private model: ModelInfo | undefined;
  private queued: QueuedHookMessage[] = [];
  private disposed = false;
  private readonly contextCache: ContextCache;
  private readonly redactor: KeyRedactor;
  /** Builds the prompt a request would start from (previewSystemPrompt); each run records its own. */
  private readonly promptPreview: SystemPromptSync | undefined;
  /** What every run takes from this session. */
  private readonly runSession: RunSession;
  /** Folders of the agent folder's skills the system prompt lists: `read` may open their files (outside the workspace). */
  private skillFolders: readonly string[] = [];
  /** What the user typed while this agent works (steering and follow-ups). */
  private readonly promptQueue = new PromptQueue((items) => this.emit({ type: "queue_update", items }));
  /** Commands the user types (`!command`), one at a time. */
  private readonly userCommands: UserCommandRunner;
  /** Commands that ended while a prompt ran: recorded when it ends (pi's order: a tool call and its result stay together). */
  private pendingCommands: BashExecutionMessage[] = [];

  constructor(options: AgentSessionOptions) {
    this.options = options;
    this.sessionManager = options.sessionManager;
    this.cwd = options.cwd;
    this.modelRegistry = options.modelRegistry;
    const tools =
      options.tools ??
      createWorkspaceTools(options.cwd, {
        commandEnv: () => withoutKeys(process.env, this.modelRegistry),
        readRoots: () => this.skillFolders,
        ...(options.commandSandbox ? { commandSandbox: options.commandSandbox } : {}),
      });
    const subagents = options.subagents;
    this.tools =
      subagents && !tools.some((t) => t.name === SUBAGENT_TOOL_NAME)
        ? [
            ...tools,
            createSubagentTool({
              start: (request) => this.startSubagent(request),
              ...(subagents.maxConcurrent ? { maxConcurrent: subagents.maxConcurrent } : {}),
            }),
          ]
        : tools;
    this.redactor = new KeyRedactor(() => keyEnvValues(process.env, this.modelRegistry));
    this.userCommands = new UserCommandRunner({
      cwd: options.cwd,
      env: () => withoutKeys(process.env, this.modelRegistry),
      emit: (e) => this.emit(e),
      redact: (text) => this.redactor.redactText(text),
    });
    this.stream = options.stream ?? ((request) => this.modelRegistry.stream(request));
    this.complete = options.complete ?? ((request) => this.modelRegistry.complete(request));
    this.contextCache = new ContextCache(this.sessionManager);
    // Not the whole context: on a big session that reads every body on the path, and nothing needs it yet.
    const context = this.sessionManager.getLeafSettings();
    this.model =
      options.model ??
      options.selectModel?.(context.model) ??
      (context.model ? this.modelRegistry.find(context.model.provider, context.model.modelId) : undefined);
    this.hookRunner = new HookRunner(
      () => this.hookContext(),
      (error) => this.emit({ type: "error", error, source: "hook" }),
    );
    this.hooks = this.createHookApi();
    this.runs = new SessionRuns(this.sessionManager);
    this.runSession = {
      sessionManager: this.sessionManager,
      hookRunner: this.hookRunner,
      redactor: this.redactor,
      runs: this.runs,
      hostKeyFor: (model) => this.hostKeyFor(model),
      learnHostKeys: () => this.learnHostKeys(),
    };
    const source = options.systemPrompt;
    this.promptPreview =
      source === undefined || source === ""
        ? undefined
        : new SystemPromptSync({
            source,
            tools: () => this.getTools(),
            // Plan mode's instructions, recorded with the prompt (a patch when the mode changes).
            sections: () => this.planModeSections(),
            contextMessages: () => this.contextCache.get().messages,
            append: () => undefined,
            onSkills: (skills) => this.learnSkills(skills),
            onError: (error) => this.emit({ type: "error", error, source: "hook" }),
            redact: (text) => this.redactor.redactText(text),
          });
  }

  /**
   * Only the user's own skills (pi's agent folder) widen `read`: a workspace's are inside it already, and a parent
   * folder's are not the workspace's to open.
   */
  private learnSkills(skills: readonly SkillInfo[]): void {
    this.skillFolders = skills.filter((s) => s.scope === "user").map((s) => path.dirname(s.filePath));
  }

  /**
   * The prompt the next request would start from, built from today's instructions without recording anything
   * ("" when the session has no system prompt). before_agent_start hooks are not run for it.
   */
  previewSystemPrompt(): Promise<string> {
    return this.promptPreview?.preview() ?? Promise.resolve("");
  }

  /**
   * Records at the leaf what differs between the prompt and tools the leaf's next request starts from and those its
   * path replays: a `system` entry, as a prompt records it (nothing when they agree, or without a system prompt).
   * After a move onto a branch that ran with other tools — an aside continued as a branch — the path so declares
   * the leaf's own tools again, and pi resuming the file activates them too. Rejects while the leaf is busy, on a
   * read-only session and when the prompt cannot be built (nothing is recorded then).
   */
  async recordSystemPrompt(): Promise<void> {
    this.assertIdle("record the system prompt");
    const source = this.options.systemPrompt;
    if (source === undefined || source === "") return;
    let failure: string | undefined;
    const sync = new SystemPromptSync({
      source,
      tools: () => this.getTools(),
      sections: () => this.planModeSections(),
      contextMessages: () => this.contextCache.get().messages,
      append: (message) => void this.sessionManager.appendMessage(message),
      onSkills: (skills) => this.learnSkills(skills),
      onError: (error) => (failure = error),
      redact: (text) => this.redactor.redactText(text),
    });
    const endBusy = this.beginBusy("recording the system prompt");
    try {
      await sync.recordChanges();
    } finally {
      endBusy();
    }
    if (failure !== undefined) throw new Error(failure);
  }

  /** The system prompt in force at the leaf, as recorded in the session ("" when none is recorded). */
  getSystemPrompt(): string {
    return promptTextOf(this.contextCache.get().messages);
  }

  // ---- events -------------------------------------------------------------------------------

  /** Receives every AgentEvent; returns the unsubscribe function. */
  subscribe(listener: (e: AgentEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(event: AgentEvent): void {
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // A broken UI listener must not stop the agent; the other listeners still get the event.
      }
    }
  }

  // ---- state --------------------------------------------------------------------------------

  /** True while a prompt (or a hook-triggered turn) runs at the leaf. */
  get isStreaming(): boolean {
    return this.leafRun !== undefined;
  }

  /** The run at the leaf, if one runs. */
  private get leafRun(): AgentRun | undefined {
    return this.runs.atLeaf().find((w) => w.kind === "run")?.run;
  }

  /**
   * The work at `entryId` — undefined: at the leaf — or undefined when nothing is (SessionRuns.busyAt): leaf work
   * (the leaf's run, a command the user typed, a move, a compaction, an operation the host holds) is at every entry
   * of the current path; a run off the leaf at its own entries.
   */
  busyAt(entryId?: string): SessionWork | undefined {
    return this.runs.busyAt(entryId);
  }

  /** The model in use, if any. */
  getModel(): ModelInfo | undefined {
    return this.model;
  }

  /** Switches the model and records a model_change entry. */
  setModel(model: ModelInfo): void {
    this.assertIdle("change the model");
    if (this.model?.provider === model.provider && this.model.id === model.id) {
      this.model = model;
      return;
    }
    this.sessionManager.appendModelChange(model.provider, model.id);
    this.model = model;
  }

  /** The thinking level in force at the leaf (its branch's last thinking_level_change; "off" without one). */
  getThinkingLevel(): ThinkingLevel {
    return levelOf(this.sessionManager.getLeafSettings().thinkingLevel);
  }

  /** The levels the current model takes (pi-ai's rule: only "off" without reasoning; see thinking-levels.ts). */
  getSupportedThinkingLevels(): ThinkingLevel[] {
    return supportedThinkingLevels(this.model);
  }

  /**
   * Switches the thinking level and records a thinking_level_change entry (so the branch keeps it and pi resumes
   * with it). The level is recorded as chosen; a request carries the nearest level the model takes.
   */
  setThinkingLevel(level: ThinkingLevel): void {
    if (!isThinkingLevel(level)) throw new Error(`Unknown thinking level "${String(level)}"`);
    this.assertIdle("change the thinking level");
    if (level === this.getThinkingLevel()) return;
    this.sessionManager.appendThinkingLevelChange(level);
  }

  /**
   * The tools the model is offered: the session's own, then those of its tool source available now; in plan mode
   * only those that change nothing (plan-mode.ts).
   */
  getTools(): readonly AgentTool[] {
    const tools = this.withSourceTools(this.options.toolSource?.current() ?? []);
    return this.getPlanMode() ? planModeTools(tools) : tools;
  }

  // ---- plan mode ----------------------------------------------------------------------------

  /** True when plan mode is on at the leaf: the newest plan-mode line on its path says so (plan-mode.ts). */
  getPlanMode(): boolean {
    return this.getPlanModeState().enabled;
  }

  /** Plan mode at the leaf, and the plan to approve when the leaf is the agent's answer given in plan mode. */
  getPlanModeState(): PlanModeState {
    // From the answers the store keeps per entry: a move or an append costs the part of the path it changed.
    return planModeIn(this.sessionManager);
  }

  /**
   * Turns plan mode on or off at the leaf by recording a plan-mode line there (nothing when it already is). Throws
   * while a prompt runs or when the session is read-only.
   */
  setPlanMode(enabled: boolean): void {
    this.assertIdle(enabled ? "turn plan mode on" : "turn plan mode off");
    if (this.getPlanMode() === enabled) return;
    this.sessionManager.appendCustomEntry(PLAN_MODE_TYPE, { enabled });
  }

  /**
   * Approve Plan: turns plan mode off and asks the agent to carry out the plan above (CARRY_OUT_PLAN_TEXT) with all
   * its tools. Rejects, recording nothing, when plan mode is off, no model is chosen or the session is busy.
   */
  async approvePlan(options: { signal?: AbortSignal } = {}): Promise<void> {
    this.assertIdle("approve the plan");
    if (!this.getPlanMode()) throw new Error("Plan mode is off: there is no plan to approve");
    if (!this.model) throw new Error("No model selected: choose a model before sending a message");
    this.setPlanMode(false);
    await this.prompt(CARRY_OUT_PLAN_TEXT, options);
  }

  /** The session's own prompt sections: plan mode's instructions while it is on. */
  private planModeSections(): Record<string, string> {
    return this.getPlanMode() ? { [PLAN_MODE_SECTION]: PLAN_MODE_INSTRUCTIONS } : {};
  }

  private withSourceTools(extra: readonly AgentTool[]): readonly AgentTool[] {
    if (extra.length === 0) return this.tools;
    const own = new Set(this.tools.map((t) => t.name));
    return [...this.tools, ...extra.filter((t) => !own.has(t.name))];
  }

  /**
   * Refuses while the leaf is busy with a prompt (unless `duringPrompt`: a command the user types may run then) or
   * with a move, compaction, fork or hook command of this session's. An operation the host holds the leaf for is not
   * in the way: the host calls in while it holds it (its own guards asked `busyAt` before).
   */
  private assertIdle(action: string, writes = true, duringPrompt = false): void {
    if (this.disposed) throw new Error(`Cannot ${action}: the session was disposed`);
    if (writes && this.sessionManager.isReadOnly()) throw new Error(`Cannot ${action}: the session is open read-only`);
    for (const work of this.runs.atLeaf()) {
      if (work.kind === "run" && !duringPrompt)
        throw new Error(`Cannot ${action} while a prompt is running; abort it first`);
      if (work.kind === "session") throw new Error(`Cannot ${action} while ${work.label} is in progress`);
    }
  }

  /** A move or a compaction waits for the user's command: it is recorded at the leaf it ends on. */
  private assertNoCommand(action: string): void {
    if (this.isBashRunning) throw new Error(`Cannot ${action} while a command runs; stop it first`);
  }

  /** Registers one of this session's own pieces of work at the leaf (a move, a compaction, …) until `endBusy`. */
  private beginBusy(label: string): () => void {
    const work = this.runs.begin({ kind: "session", place: "leaf", label });
    return () => this.endBusy(work.end);
  }

  // ---- prompting ----------------------------------------------------------------------------

  /**
   * Sends `text` (or runs a registered `/command`) and runs the agent loop until the model stops, the
   * turn limit is hit, an error occurs or the prompt is aborted. Model failures do not reject: they end
   * as an assistant message with stopReason "error" plus an `error` event. Rejects only when the
   * prompt cannot start (no model, already running).
   */
  async prompt(
    text: string,
    options: { signal?: AbortSignal; content?: (TextContent | ImageContent)[] } = {},
  ): Promise<void> {
    if (typeof text !== "string" || text.trim() === "") throw new Error("Cannot send an empty message");
    this.assertIdle("send a message");
    if (text.startsWith("/") && this.hookRunner.getCommand(text.slice(1).split(/\s/, 1)[0])) {
      const work = this.runs.begin({ kind: "session", place: "leaf", label: "a command" });
      try {
        await this.hookRunner.runCommand(text);
      } finally {
        work.end();
      }
      // A command may have queued messages that ask for a reply.
      await this.drainTriggeredTurns();
      return;
    }
    if (!this.model) throw new Error("No model selected: choose a model before sending a message");
    // `content`: the typed text with its attachments (src/core/mentions/user-content.ts); commands read `text`.
    const user: UserMessage = { role: "user", content: options.content ?? text, timestamp: Date.now() };
    await this.run([user], options.signal);
  }

  /**
   * Queues `text` while a prompt runs: "steer" delivers it once all the tool calls of the current reply have
   * finished, before the next model request; "followUp" when the agent would stop, as a request of its own. Both become ordinary user messages.
   * `attachments` follow the text in the user message (files, selections, images: src/core/mentions/user-content.ts)
   * and stay when the text is edited. Rejects (throws) when nothing runs: send it with prompt() then. Returns the
   * queued message's id.
   */
  queueMessage(kind: QueuedKind, text: string, attachments: readonly (TextContent | ImageContent)[] = []): string {
    if (typeof text !== "string" || text.trim() === "") throw new Error("Cannot queue an empty message");
    if (this.disposed) throw new Error("Cannot queue a message: the session was disposed");
    if (!this.isStreaming) throw new Error("Nothing is running: send the message instead of queueing it");
    // Keys are redacted before the queue (and the views it updates) holds the message; again when it is delivered.
    return this.promptQueue.enqueue(kind, this.redactor.redactText(text), this.redactor.redactContent(attachments));
  }

  /** Changes a queued message's text (empty text removes it); false when it was already delivered. */
  editQueuedMessage(id: string, text: string): boolean {
    return this.promptQueue.edit(id, text);
  }

  /** Removes a queued message; false when it was already delivered. */
  removeQueuedMessage(id: string): boolean {
    return this.promptQueue.remove(id);
  }

  /** The messages waiting for delivery, oldest first. */
  getQueuedMessages(): readonly QueuedMessage[] {
    return this.promptQueue.list();
  }

  /** Empties the queue and returns what it held (to put back into the input after an abort). */
  clearQueue(): QueuedMessage[] {
    return this.promptQueue.clear();
  }

  /** Stops the running prompt: the stream and tools are aborted, what was said is kept. Runs off the leaf go on. */
  abort(): void {
    this.leafRun?.stop();
  }

  // ---- commands the user types --------------------------------------------------------------

  /**
   * Runs a command the user typed (`!command`; `excludeFromContext` for `!!`) in the workspace as the bash tool
   * runs its commands (no approval: the user typed it) and records pi's bashExecution message at the leaf — while a
   * prompt runs, once it ended, as pi does. Emits bash_execution_start, _update and _end, then message_end once
   * recorded. Resolves with the message (`cancelled` after abortBash()); rejects when it cannot start (a read-only
   * session, a command already running, a navigation or compaction in progress) or cannot be recorded.
   */
  async executeBash(command: string, options: { excludeFromContext?: boolean } = {}): Promise<BashExecutionMessage> {
    if (typeof command !== "string" || command.trim() === "") throw new Error("Cannot run an empty command");
    this.assertIdle("run a command", true, true);
    if (this.userCommands.running) throw new Error(COMMAND_RUNNING_TEXT);
    const work = this.runs.begin({ kind: "command", place: "leaf", label: "a command" });
    let message: BashExecutionMessage;
    try {
      // Keys the host holds are known before the command's output is shown or recorded (it is redacted of them).
      await this.learnHostKeys();
      message = await this.userCommands.run({
        command: command.trim(),
        excludeFromContext: options.excludeFromContext === true,
      });
    } finally {
      work.end();
    }
    if (this.isStreaming) this.pendingCommands.push(message);
    else this.appendMessage(message, []);
    return message;
  }

  /** Stops the running command the user typed, if any; its output so far is recorded. */
  abortBash(): void {
    this.userCommands.abort();
  }

  /** True while a command the user typed runs. */
  get isBashRunning(): boolean {
    return this.runs.atLeaf().some((w) => w.kind === "command");
  }

  /** Records the commands that ended while the prompt ran. */
  private flushCommands(): void {
    for (const message of this.pendingCommands.splice(0)) {
      try {
        this.appendMessage(message, []);
      } catch (err) {
        this.emit({ type: "error", error: `The command was not recorded: ${errorText(err)}`, source: "tool" });
      }
    }
  }

  /** Ends a navigation/compaction/fork; hook messages sent meanwhile are added now. */
  private endBusy(end: () => void): void {
    end();
    if (this.queued.length === 0) return;
    this.drainTriggeredTurns().catch((err: unknown) =>
      this.emit({ type: "error", error: errorText(err), source: "hook" }),
    );
  }

  private async drainTriggeredTurns(): Promise<void> {
    if (this.queued.some((q) => q.triggerTurn) && this.model) await this.run([], undefined);
    else this.flushQueued([]);
  }

  private appendMessage(message: AgentMessage, produced: AgentMessage[]): string {
    const id = this.sessionManager.appendMessage(message);
    produced.push(message);
    this.emit({ type: "message_end", message, entryId: id });
    return id;
  }

  private flushQueued(produced: AgentMessage[]): boolean {
    const queued = this.queued;
    this.queued = [];
    for (const { message } of queued) {
      const custom: CustomMessage = { role: "custom", ...message, timestamp: Date.now() };
      this.emit({ type: "message_start", message: custom });
      const id = this.sessionManager.appendCustomMessageEntry(
        message.customType,
        message.content,
        message.display,
        message.details,
      );
      produced.push(custom);
      this.emit({ type: "message_end", message: custom, entryId: id });
    }
    return queued.some((q) => q.triggerTurn);
  }

  /** Runs a prompt at the leaf (`given`: its user message; none for a turn a hook's message started). */
  private async run(given: AgentMessage[], external: AbortSignal | undefined): Promise<void> {
    const model = this.model;
    if (!model) throw new Error("No model selected: choose a model before sending a message");
    const run = new AgentRun(this.runSession, {
      kind: "prompt",
      label: "a reply",
      model,
      cwd: this.cwd,
      approve: this.options.approve ?? approveAll,
      stream: this.stream,
      maxTurns: this.options.maxTurns ?? DEFAULT_MAX_TURNS,
      ...(this.options.systemPrompt !== undefined ? { systemPrompt: this.options.systemPrompt } : {}),
      onSkills: (skills) => this.learnSkills(skills),
      sections: () => this.planModeSections(),
      ...(this.options.checkpoints ? { checkpoints: leafCheckpoints(this.options.checkpoints) } : {}),
      ...(external ? { signal: external } : {}),
      onEvent: (e) => {
        if (e.type !== "branch_entry") this.emit(e);
      },
      leaf: this.leafParts(),
    });
    await run.start(given);
  }

  /** The leaf's own parts of its runs: the context cache, the queues, compaction, the commands the user typed. */
  private leafParts(): LeafParts {
    return {
      context: () => this.contextCache.get(),
      // Servers behind the tool source start with the first prompt that needs them (bounded wait); the system
      // prompt built next lists the tools this prompt is offered.
      // Plan mode offers only tools that change nothing; the mode cannot change while the prompt runs.
      tools: async (signal) => {
        const offered = this.withSourceTools((await this.options.toolSource?.ready(signal)) ?? []);
        return this.getPlanMode() ? planModeTools(offered) : offered;
      },
      queueHookMessages: (messages) => {
        for (const message of messages) this.queued.push({ message, triggerTurn: false });
      },
      flushQueued: (produced) => void this.flushQueued(produced),
      hasTriggeredMessages: () => this.queued.some((q) => q.triggerTurn),
      takeSteering: () => this.takeQueued("steer"),
      takeFollowUp: () => this.takeQueued("followUp"),
      compactIfNeeded: (model, signal) => this.compactIfNeeded(model, signal),
      compactForOverflow: async (signal) =>
        (await runCompaction(this.compactionEnv(), "overflow", undefined, signal)).status === "done",
      canCompact: this.compactionSettings.enabled,
      // pi-ai's test: every provider's wording, and a reply whose usage is over the window.
      isContextOverflow: (m, model) => this.modelRegistry.isContextOverflow(m, model),
      onLoopEnd: (produced) => {
        // Messages a hook sent too late for this prompt are kept, not lost.
        if (this.queued.length > 0) this.flushQueued(produced);
        this.flushCommands();
      },
    };
  }

  /**
   * Starts a run off the leaf (see StartRunOptions): a parallel branch, an aside, a subagent. It is registered with
   * this session while it runs (`busyAt` answers for its entries), runs this session's hooks, and is stopped when the
   * session is disposed. Rejects (throws) on a disposed or read-only session and for an unknown `parentId`; every
   * failure after the start ends the run as `failed` (`run.done`).
   */
  startRun(options: StartRunOptions): AgentRun {
    if (this.disposed) throw new Error("Cannot start a run: the session was disposed");
    if (this.sessionManager.isReadOnly()) throw new Error("Cannot start a run: the session is open read-only");
    if (options.parentId !== null && !this.sessionManager.hasEntry(options.parentId))
      throw new Error(`Cannot start a run under ${options.parentId}: no such entry`);
    if (!hasUserContent(options.prompt) || !(options.followUps ?? []).every(hasUserContent))
      throw new Error("Cannot start a run without a prompt");
    const model = options.model ?? this.model;
    if (!model) throw new Error("No model selected: choose a model before starting a run");
    const run = new AgentRun(this.runSession, {
      kind: options.kind,
      label: options.label,
      parentId: options.parentId,
      model,
      tools: options.tools,
      cwd: options.cwd ?? this.cwd,
      approve: options.approve ?? this.options.approve ?? approveAll,
      stream: options.stream ?? this.stream,
      maxTurns: options.maxTurns ?? DEFAULT_MAX_TURNS,
      thinkingLevel: options.thinkingLevel ?? this.getThinkingLevel(),
      ...(options.systemPrompt !== undefined ? { systemPrompt: options.systemPrompt } : {}),
      ...(options.checkpoints ? { checkpoints: options.checkpoints } : {}),
      ...(options.freshContext ? { freshContext: true } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.followUps?.length ? { followUps: options.followUps } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.onStarted ? { onStarted: options.onStarted } : {}),
      ...(options.finish ? { finish: options.finish } : {}),
    });
    void run.start([{ role: "user", content: options.prompt, timestamp: Date.now() }]);
    return run;
  }

  /**
   * A subagent's run (subagent-tool.ts): off the leaf under the call's entry, with a context of its own (its prompt
   * and the system prompt), the session's tools but `subagent` (only those that change nothing when `readOnly` or in
   * plan mode), the session's approvals, and — when it may write — the workspace's checkpoints linked on its branch.
   */
  private startSubagent(request: SubagentRequest): AgentRun {
    // In plan mode every subagent only reads, as its parent does.
    const readOnly = request.readOnly || this.getPlanMode();
    const all = this.getTools().filter((t) => t.name !== SUBAGENT_TOOL_NAME);
    // What "only reads" offers is plan mode's rule (plan-mode.ts): one owner for tools that change nothing.
    const tools = readOnly ? planModeTools(all) : all;
    const hook = this.options.checkpoints;
    const checkpoints: RunCheckpoints | undefined =
      hook?.recordAt && !readOnly
        ? { record: (moment, run, signal) => hook.recordAt?.(moment, run, signal) ?? Promise.resolve() }
        : undefined;
    const maxTurns = this.options.subagents?.maxTurns ?? this.options.maxTurns;
    const approve = this.options.approve ?? approveAll;
    return this.startRun({
      // The agent's own approvals, each question naming the subagent that asks.
      approve: (call, signal) => approve({ ...call, asker: request.label }, signal),
      kind: "subagent",
      label: request.label,
      parentId: request.parentId,
      prompt: request.prompt,
      tools,
      freshContext: true,
      ...(this.options.systemPrompt !== undefined ? { systemPrompt: this.options.systemPrompt } : {}),
      ...(checkpoints ? { checkpoints } : {}),
      ...(maxTurns !== undefined ? { maxTurns } : {}),
      ...(request.signal ? { signal: request.signal } : {}),
    });
  }

  private takeQueued(kind: QueuedKind): UserMessage | undefined {
    const item = this.promptQueue.take(kind);
    if (!item) return undefined;
    const content =
      item.attachments.length > 0 ? [{ type: "text" as const, text: item.text }, ...item.attachments] : item.text;
    return this.redactUser({ role: "user", content, timestamp: Date.now() });
  }

  /** A user message with known keys removed from its text (KeyRedactor); other messages as they are. */
  private redactUser<M extends AgentMessage>(message: M): M {
    if (message.role !== "user") return message;
    return { ...message, content: this.redactor.redactContent(message.content) };
  }

  /** The host's key for the model's provider, if it holds one (learned, so tool output is redacted of it). */
  private async hostKeyFor(model: ModelInfo): Promise<string | undefined> {
    let fromHost: string | undefined;
    try {
      fromHost = (await this.options.getApiKey?.(model))?.trim() || undefined;
    } catch {
      // The host could not read its secret store; the provider may still have its own credentials.
    }
    this.redactor.learn(fromHost);
    return fromHost;
  }

  /** Learns the host's key of every known provider, so tool output is redacted of all of them, not only the current one. */
  private async learnHostKeys(): Promise<void> {
    const byProvider = new Map(this.modelRegistry.all().map((m) => [m.provider, m]));
    await Promise.all([...byProvider.values()].map((m) => this.hostKeyFor(m)));
  }

  // ---- compaction ---------------------------------------------------------------------------

  private get compactionSettings(): CompactionSettings {
    return this.options.compaction ?? DEFAULT_COMPACTION_SETTINGS;
  }

  private async summarySource(forceExtractive: boolean): Promise<SummarySource> {
    const force = forceExtractive || this.options.extractiveSummaries === true;
    const model = force ? undefined : this.model;
    const key = model ? await this.hostKeyFor(model) : undefined;
    const ready = model !== undefined && (key !== undefined || (await this.providerReady(model.provider)));
    return chooseSummarySource(model, ready, key, this.complete, force);
  }

  /** True when the provider has credentials now (or needs none): pi-ai's check, not the registry's snapshot. */
  private async providerReady(provider: string): Promise<boolean> {
    try {
      return (await this.modelRegistry.models.checkAuth(provider)) !== undefined;
    } catch {
      return false;
    }
  }

  private compactionEnv(): CompactionEnv {
    return {
      sessionManager: this.sessionManager,
      hooks: this.hookRunner,
      model: this.model,
      settings: this.compactionSettings,
      summarySource: () => this.summarySource(false),
      emit: (e) => this.emit(e),
    };
  }

  /** Threshold check before each model call: compact when the context would not leave the reserve free. */
  private async compactIfNeeded(model: ModelInfo, signal: AbortSignal): Promise<void> {
    const settings = this.compactionSettings;
    if (!settings.enabled) return;
    const tokens = estimateContextTokens(this.contextCache.get().messages);
    if (!shouldCompact(tokens, model.contextWindow, settings)) return;
    // A failed automatic compaction is reported by runCompaction; the request is still tried.
    await runCompaction(this.compactionEnv(), "threshold", undefined, signal);
  }

  /**
   * Summarizes the older part of the context into a compaction entry. Resolves to the entry, or to
   * undefined when there is nothing to compact yet, a hook cancelled, or `signal` aborted; rejects
   * with a CompactionError when summarizing fails (nothing is written then).
   */
  async compact(customInstructions?: string, signal?: AbortSignal): Promise<CompactionEntry | undefined> {
    this.assertIdle("compact");
    this.assertNoCommand("compact");
    const endBusy = this.beginBusy("a compaction");
    try {
      const outcome = await runCompaction(
        this.compactionEnv(),
        "manual",
        customInstructions,
        signal ?? new AbortController().signal,
      );
      if (outcome.status === "failed") throw new CompactionError(outcome.error);
      return outcome.status === "done" ? outcome.entry : undefined;
    } finally {
      endBusy();
    }
  }

  // ---- tree ---------------------------------------------------------------------------------

  /**
   * Moves to `targetId` (docs/tree-navigation.md). Rejects while a prompt runs (abort it first) and for an unknown
   * id; every other failure resolves with a result other than `moved` and leaves the session unchanged.
   */
  async navigateTree(targetId: string, options: NavigateTreeOptions = {}): Promise<NavigateTreeResult> {
    this.assertIdle("navigate");
    this.assertNoCommand("navigate");
    const endBusy = this.beginBusy("a navigation");
    try {
      return withPiFields(await navigateTree(this.navigateEnv(), targetId, options));
    } finally {
      endBusy();
    }
  }

  /** What navigateTree and bringConclusions need: the store, hooks, and the session's summarizer. */
  private navigateEnv(): NavigateEnv {
    return {
      sessionManager: this.sessionManager,
      hooks: this.hookRunner,
      model: this.model,
      summarySource: (force) => this.summarySource(force),
      reserveTokens: this.options.branchSummary?.reserveTokens ?? DEFAULT_BRANCH_SUMMARY_RESERVE_TOKENS,
      emit: (e) => this.emit(e),
    };
  }

  /**
   * Summarizes another branch — from its common ancestor with the leaf to `sourceId` — and appends the summary at
   * the leaf as a `branch_summary` with `fromId: sourceId` (Bring Conclusions Here). The leaf stays on this branch
   * (the summary becomes it). Rejects while a prompt runs, on a read-only session and for an unknown id; every other
   * failure (nothing to bring, hook cancel, summarizer error, abort) resolves a result other than `moved`, with nothing
   * written.
   */
  async bringConclusions(sourceId: string, options: BringConclusionsOptions = {}): Promise<BringConclusionsResult> {
    this.assertIdle("bring conclusions");
    this.assertNoCommand("bring conclusions");
    const endBusy = this.beginBusy("bringing conclusions");
    try {
      return await bringConclusions(this.navigateEnv(), sourceId, options);
    } finally {
      endBusy();
    }
  }

  /** Copies the path up to `entryId` into a new session file (pi's /fork); this session is unchanged. */
  async fork(entryId: string, position?: ForkPosition): Promise<ForkResult> {
    this.assertIdle("fork", false);
    const endBusy = this.beginBusy("a fork");
    try {
      return await forkSession(this.sessionManager, this.hookRunner, entryId, position);
    } finally {
      endBusy();
    }
  }

  // ---- hooks --------------------------------------------------------------------------------

  private hookContext(): HookContext {
    return { cwd: this.cwd, sessionManager: this.sessionManager, modelRegistry: this.modelRegistry };
  }

  private createHookApi(): HookAPI {
    const runner = this.hookRunner;
    return {
      on: (event, handler) => runner.on(event, handler),
      registerCommand: (name, command) => runner.registerCommand(name, command),
      getCommands: () => runner.getCommands(),
      appendEntry: (customType, data) => {
        if (typeof customType !== "string" || customType.trim() === "")
          throw new Error("appendEntry needs a customType");
        return this.sessionManager.appendCustomEntry(customType, data);
      },
      sendMessage: (message, triggerTurn = false) => {
        if (!message || typeof message.customType !== "string" || message.customType.trim() === "")
          throw new Error("sendMessage needs a message with a customType");
        if (typeof message.content !== "string" && !Array.isArray(message.content))
          throw new Error("sendMessage needs string or block-array content");
        this.queued.push({ message: { ...message, display: message.display !== false }, triggerTurn });
        if (this.runs.atLeaf().some((w) => w.kind === "run" || w.kind === "session")) return;
        if (triggerTurn && this.model) {
          this.run([], undefined).catch((err: unknown) =>
            this.emit({ type: "error", error: errorText(err), source: "hook" }),
          );
        } else {
          this.flushQueued([]);
        }
      },
    };
  }

  /**
   * Stops every run (the leaf's and those off it) and a `!` command, and waits until the runs have ended — a stopped
   * run writes what it had (its reply so far, marked aborted; a new session's deferred prompt with it) — so that the
   * session can be closed without losing them. A run that does not end within `maxMs` is not waited for longer.
   */
  async stopAll(maxMs = 5_000): Promise<void> {
    const runs = this.runs.list().flatMap((w) => (w.run ? [w.run] : []));
    for (const run of runs) run.stop();
    this.abortBash();
    if (runs.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    await Promise.race([Promise.allSettled(runs.map((r) => r.done)), cap]);
    clearTimeout(timer);
  }

  /** Aborts whatever runs — the leaf's run and every run off the leaf — and drops listeners, hooks and commands. */
  dispose(): void {
    for (const work of this.runs.list()) work.run?.stop();
    this.abortBash();
    this.disposed = true;
    this.listeners.clear();
    this.hookRunner.clear();
  }
}

/** The workspace's checkpoints (TurnCheckpoints) as a leaf run records them: at the leaf. */
function leafCheckpoints(hook: AgentCheckpointHook): RunCheckpoints {
  return {
    record: (moment, run, signal) => hook.record(moment, run.sessionManager, signal),
    settle: (run) => hook.settle(run.sessionManager),
  };
}
