/**
 * One agent run (docs/core-api.md, "AgentRun"): the loop of one prompt — model call, tool calls, next model call —
 * wherever it appends and whichever folder its tools work in. A run appends either
 * - **at the leaf** (the user's own turns; `AgentSession.prompt()`): every entry becomes the leaf, the context is the
 *   current path's (compactions, steering, follow-ups and hook messages join it), or
 * - **under a given entry without moving the leaf** (a parallel branch, an aside, a subagent;
 *   `AgentSession.startRun()`): its entries hang under that entry and then under its own newest one (SessionManager's
 *   off-leaf appends), its context is the path to that entry, read once, plus its own messages, and it never
 *   compacts.
 *
 * Every run of a session has the same parts: the loop (runAgentLoop), the session's hooks (tool_call before each
 * call, context before each request, before_agent_start when it starts), the approval policy it is given,
 * checkpoints, the session's KeyRedactor on everything it records, shows or sends, the system prompt recorded on its
 * own path (SystemPromptSync), and its token use and cost. While it runs it is registered with the session's
 * SessionRuns, which answers `busyAt(entryId)` for everyone.
 */
import {
  convertToLlm,
  emptyUsage,
  type AgentMessage,
  type AssistantMessage,
  type Usage,
  type UserMessage,
} from "../messages.js";
import { errorText } from "../error-text.js";
import type { CheckpointMoment } from "../checkpoints/session-link.js";
import type { HookMessage } from "../hooks/hook-events.js";
import type { HookRunner } from "../hooks/hook-runner.js";
import type { SystemPromptProvider } from "../prompt/workspace-prompt.js";
import type { ModelInfo, StreamRequest, ThinkingLevel } from "../providers/types.js";
import { clampThinkingLevel, isThinkingLevel } from "../providers/thinking-levels.js";
import type { SessionManager } from "../session/session-manager.js";
import type { AgentTool, ToolApprovalPolicy } from "../tools/types.js";
import { runAgentLoop, type LoopEnv } from "./agent-loop.js";
import type { AgentEvent } from "./events.js";
import type { KeyRedactor } from "./key-redactor.js";
import type { SessionRuns, WorkHandle } from "./session-runs.js";
import type { StreamFn } from "./stream-turn.js";
import { SystemPromptSync, promptTextOf } from "./system-prompt-sync.js";

/** What a run is for: the leaf's prompt, or a run off the leaf. */
export type RunKind = "prompt" | "explore" | "replay" | "aside" | "subagent";

/** Where a run is: starting (nothing streamed yet), streaming a reply, running a tool, or how it ended. */
export type RunState = "starting" | "streaming" | "tool" | "done" | "stopped" | "failed";

/** What a run reports: its loop's events, and (off the leaf) `branch_entry` whenever it wrote an entry. */
export type RunEvent = AgentEvent | { type: "branch_entry"; entryId: string };

/** A run's progress, as a view shows it while it runs. */
export interface RunProgress {
  state: RunState;
  /** The tool running now. */
  tool?: string;
  /** Tokens of the finished replies, plus an estimate of the streaming one. */
  tokens: number;
  /** The newest message entry (the row that shows the run). */
  tipId?: string;
}

/** How a run ended. */
export interface RunResult {
  state: Exclude<RunState, "starting" | "streaming" | "tool">;
  /** The first entry it wrote (off the leaf: its branch's first entry); undefined when it wrote none. */
  firstEntryId?: string;
  /** Its newest content entry (not a system prompt record or checkpoint). */
  tipId?: string;
  error?: string;
  /** Token use and cost of every model call of the run. */
  usage: Usage;
  durationMs: number;
  /** The text of its last assistant reply. */
  finalText: string;
  /** The messages it appended, in order. */
  messages: AgentMessage[];
}

/** Where a run's checkpoint entries go, and what it has written so far. */
export interface RunWriter {
  readonly sessionManager: SessionManager;
  /** The entry the run's next entry hangs under (at the leaf: the leaf). */
  readonly tipId: string | null;
  /** Appends a custom entry where the run appends (its checkpoint entries). */
  appendCustom(customType: string, data: unknown): string;
}

/**
 * The checkpoints of a run: the workspace's at the leaf (TurnCheckpoints through AgentSession), a branch copy's off
 * it. `record` runs before a leaf prompt's first message ("prompt-start"), before a model call that follows a call
 * of a tool that may change files ("after-tools"), and when such calls were not followed by one ("prompt-end");
 * `settle` when the run ends. At the leaf a failure is reported and the prompt goes on; off the leaf it fails the
 * run (its copy's files are all it has).
 */
export interface RunCheckpoints {
  record(moment: CheckpointMoment, run: RunWriter, signal?: AbortSignal): Promise<void>;
  settle?(run: RunWriter): void;
}

/** What a run takes from the session it belongs to (AgentSession). */
export interface RunSession {
  readonly sessionManager: SessionManager;
  readonly hookRunner: HookRunner;
  readonly redactor: KeyRedactor;
  readonly runs: SessionRuns;
  /** The host's key for a model (learned by the redactor), or undefined: the provider resolves its own. */
  hostKeyFor(model: ModelInfo): Promise<string | undefined>;
  /** Learns the host's key of every provider, so everything the run records is redacted of all of them. */
  learnHostKeys(): Promise<void>;
}

/** The leaf's own parts of a run (AgentSession's queues, compaction and commands). */
export interface LeafParts {
  /** The context at the leaf (ContextCache). */
  context(): { messages: AgentMessage[]; thinkingLevel: string };
  /** The tools of this prompt (the session's and its tool source's, started if need be). */
  tools(signal: AbortSignal): Promise<readonly AgentTool[]>;
  /** Messages before_agent_start handlers asked for: the session's queue (added before the next model call). */
  queueHookMessages(messages: readonly HookMessage[]): void;
  flushQueued(produced: AgentMessage[]): void;
  hasTriggeredMessages(): boolean;
  takeSteering: NonNullable<LoopEnv["takeSteering"]>;
  takeFollowUp: NonNullable<LoopEnv["takeFollowUp"]>;
  compactIfNeeded(model: ModelInfo, signal: AbortSignal): Promise<void>;
  compactForOverflow(signal: AbortSignal): Promise<boolean>;
  canCompact: boolean;
  isContextOverflow(message: AssistantMessage, model: ModelInfo): boolean;
  /** When the loop ended, before the last checkpoint: messages a hook sent too late, commands that ended meanwhile. */
  onLoopEnd(produced: AgentMessage[]): void;
}

/** How to run (AgentSession fills in what the session decides; see `AgentSession.startRun` for a run off the leaf). */
export interface AgentRunOptions {
  kind: RunKind;
  /** How the user is told about it while it runs ("a reply", "Branch 2 of 3", "The aside"). */
  label: string;
  /** Undefined: at the leaf. Otherwise the entry it appends under (null: a new root), without moving the leaf. */
  parentId?: string | null;
  model: ModelInfo;
  /** The tools offered (off the leaf; the leaf's come from `leaf.tools`). */
  tools?: readonly AgentTool[];
  /** The folder its tools work in (the workspace, a branch's copy); hooks get it as `ctx.cwd`. */
  cwd: string;
  approve: ToolApprovalPolicy;
  stream: StreamFn;
  maxTurns: number;
  /**
   * Off the leaf: its requests carry only its own messages, not the path to `parentId` (a subagent: its prompt and
   * the system prompt). The system prompt is still recorded against the path, so the branch replays as it ran.
   */
  freshContext?: boolean;
  /** Off the leaf: the level its requests ask for (default "off"); the leaf's is the path's. */
  thinkingLevel?: ThinkingLevel;
  /**
   * The system prompt: a fixed text or the provider of its options; recorded on the run's own path where it differs
   * from the one replayed there. None: at the leaf nothing is sent, off the leaf the prompt in force at `parentId`.
   */
  systemPrompt?: string | SystemPromptProvider;
  /** The prompt's skills each time it is built (the leaf's `read` may open their folders). */
  onSkills?: ConstructorParameters<typeof SystemPromptSync>[0]["onSkills"];
  /** The session's own prompt sections (plan mode's), asked at each build. */
  sections?: ConstructorParameters<typeof SystemPromptSync>[0]["sections"];
  checkpoints?: RunCheckpoints;
  /** Aborting it stops the run (as `stop()`); its reason is the run's signal's. */
  signal?: AbortSignal;
  /**
   * Off the leaf: user messages sent after its first, one at a time, each when the turn before it ended (the model
   * answered without tool calls), as the leaf's queued follow-ups are (a replayed path, replay.ts). A turn that fails
   * or is stopped sends none of the rest.
   */
  followUps?: readonly UserMessage["content"][];
  /** Every event of the run. */
  onEvent?: (event: RunEvent) => void;
  /**
   * After the first messages were appended, before the system prompt is recorded and the first request goes out
   * (a branch's run line and its copy's owner). A rejection fails the run.
   */
  onStarted?: (firstEntryId: string | undefined) => Promise<void>;
  /**
   * When the loop ended, before the run is unregistered and `agent_end` goes out: may change how it ended (a
   * branch's copy that could not be made, a stop for a reason the user must read) and write its last entries.
   */
  finish?: (result: RunResult, signal: AbortSignal) => Promise<RunResult>;
  /** The leaf's parts; given exactly when `parentId` is undefined. */
  leaf?: LeafParts;
}

function addUsage(total: Usage, u: Usage): void {
  total.input += u.input;
  total.output += u.output;
  total.cacheRead += u.cacheRead;
  total.cacheWrite += u.cacheWrite;
  total.totalTokens += u.totalTokens;
  total.cost.input += u.cost.input;
  total.cost.output += u.cost.output;
  total.cost.cacheRead += u.cost.cacheRead;
  total.cost.cacheWrite += u.cost.cacheWrite;
  total.cost.total += u.cost.total;
}

function textOf(message: AssistantMessage): string {
  return message.content
    .filter((c) => c.type === "text")
    .map((c) => (c as { text: string }).text)
    .join("");
}

/** See the file comment. Made by AgentSession (`prompt()`, `startRun()`); each instance runs once (`start`). */
export class AgentRun {
  readonly kind: RunKind;
  readonly label: string;
  readonly model: ModelInfo;
  readonly cwd: string;
  /** Undefined: at the leaf; otherwise the entry it appends under. */
  readonly parentId: string | null | undefined;

  private readonly controller = new AbortController();
  private readonly listeners = new Set<(e: RunEvent) => void>();
  private readonly own: AgentMessage[] = [];
  private readonly usageTotal = emptyUsage();
  private readonly sync: SystemPromptSync | undefined;
  /** The context at `parentId`, built once when the run starts (off the leaf). */
  private base: AgentMessage[] = [];
  private tip: string | null;
  private firstId: string | undefined;
  private contentTip: string | undefined;
  private messageTip: string | undefined;
  private lastText = "";
  private modelError: string | undefined;
  private current: RunState = "starting";
  private toolName: string | undefined;
  private tokensDone = 0;
  private tokensNow = 0;
  private filesMayHaveChanged = false;
  private runTools: readonly AgentTool[] = [];
  /** Off the leaf: the follow-ups not sent yet (AgentRunOptions.followUps). */
  private readonly followUps: UserMessage["content"][];
  private work: WorkHandle | undefined;
  private result: Promise<RunResult> | undefined;

  constructor(
    private readonly session: RunSession,
    private readonly options: AgentRunOptions,
  ) {
    this.kind = options.kind;
    this.label = options.label;
    this.model = options.model;
    this.cwd = options.cwd;
    this.parentId = options.parentId;
    this.tip = options.parentId ?? null;
    this.followUps = [...(options.followUps ?? [])];
    if ((options.parentId === undefined) !== (options.leaf !== undefined))
      throw new Error("AgentRun: a run at the leaf needs the leaf's parts, and only it");
    if (options.leaf && this.followUps.length > 0)
      throw new Error("AgentRun: a run at the leaf takes its follow-ups from the session's queue");
    const source = options.systemPrompt;
    this.sync =
      source === undefined || source === ""
        ? undefined
        : new SystemPromptSync({
            source,
            tools: () => this.runTools,
            hooks: session.hookRunner,
            contextMessages: () => this.pathContext().messages,
            append: (m) => {
              this.emit({ type: "message_start", message: m });
              this.append(m);
            },
            ...(options.onSkills ? { onSkills: options.onSkills } : {}),
            ...(options.sections ? { sections: options.sections } : {}),
            onError: (error) => this.emit({ type: "error", error, source: "hook" }),
            redact: (text) => session.redactor.redactText(text),
          });
  }

  /** True at the leaf (the leaf follows its entries). */
  get atLeaf(): boolean {
    return this.parentId === undefined;
  }

  /** True from `run()` until it ended. */
  get running(): boolean {
    return this.work !== undefined;
  }

  /** The first entry it wrote (off the leaf: its branch's first entry). */
  get firstEntryId(): string | undefined {
    return this.firstId;
  }

  /** Where its next entry goes: its newest entry off the leaf, the leaf at the leaf. */
  get tipId(): string | null {
    return this.atLeaf ? this.session.sessionManager.getLeafId() : this.tip;
  }

  /** The tools it offers (empty until it started). */
  get tools(): readonly AgentTool[] {
    return this.runTools;
  }

  /** Token use and cost so far. */
  get usage(): Usage {
    return structuredClone(this.usageTotal);
  }

  /** What a view shows while it runs. */
  progress(): RunProgress {
    return {
      state: this.current,
      ...(this.toolName !== undefined ? { tool: this.toolName } : {}),
      tokens: this.tokensNow,
      ...(this.messageTip !== undefined ? { tipId: this.messageTip } : {}),
    };
  }

  /** Receives every event of the run; returns the unsubscribe function. */
  subscribe(listener: (e: RunEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops the run: the stream and tools are aborted, what was said is kept. `reason` becomes its signal's. */
  stop(reason?: unknown): void {
    this.controller.abort(reason);
  }

  /** Its abort signal (aborted by `stop()` or the signal it was given). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /**
   * Runs to the end with `initial` as its first messages (a prompt's user message; none for a turn a hook's message
   * started); resolves with how it ended (also `done`). Never rejects for model, tool or hook failures: they end the
   * run as `failed` (at the leaf they are reported as `error` events as they happen). Registered with the session
   * from now until it ended. A run starts once.
   */
  start(initial: readonly AgentMessage[]): Promise<RunResult> {
    if (this.result) throw new Error("An AgentRun starts once");
    let settle: { resolve(r: RunResult): void; reject(e: unknown): void } | undefined;
    // Known before the run registers (synchronously, below): a listener told of it may wait for its end.
    this.result = new Promise<RunResult>((resolve, reject) => (settle = { resolve, reject }));
    this.execute(initial).then(settle?.resolve, settle?.reject);
    return this.result;
  }

  /** How it ended, once it did (rejects when it was never started). */
  get done(): Promise<RunResult> {
    return this.result ?? Promise.reject(new Error("The run was not started"));
  }

  private async execute(initial: readonly AgentMessage[]): Promise<RunResult> {
    const startedAt = Date.now();
    const signal = this.controller.signal;
    const external = this.options.signal;
    const onExternalAbort = (): void => this.controller.abort(external?.reason);
    if (external?.aborted) onExternalAbort();
    external?.addEventListener("abort", onExternalAbort, { once: true });
    this.work = this.session.runs.begin({
      kind: "run",
      place: this.atLeaf ? "leaf" : "off-leaf",
      label: this.label,
      ...(this.atLeaf ? {} : { parentId: this.parentId }),
      run: this,
    });
    const leaf = this.options.leaf;
    let failure: string | undefined;
    this.emit({ type: "agent_start" });
    try {
      if (!leaf) this.base = this.session.sessionManager.buildSessionContextAt(this.parentId ?? null).messages;
      // The host's keys are known before anything of this run is shown, recorded or sent.
      await this.session.learnHostKeys();
      const first = initial.map((m) =>
        m.role === "user" ? { ...m, content: this.session.redactor.redactContent(m.content) } : m,
      );
      if (leaf) {
        // User edits since the last turn are recorded before the prompt that may build on them.
        await this.checkpoint("prompt-start");
        // The user's message shows at once; it is recorded after the system prompt's patch, which waits for the tools.
        for (const m of first) this.emit({ type: "message_start", message: m });
        this.runTools = await leaf.tools(signal);
        // The prompt's changed sections go before the user's message, as pi writes them.
        const hookMessages = await this.sync?.startRun(this.promptText(first));
        for (const m of first) this.append(m);
        leaf.queueHookMessages(hookMessages ?? []);
      } else {
        this.runTools = this.options.tools ?? [];
        for (const m of first) {
          this.emit({ type: "message_start", message: m });
          this.append(m);
        }
        await this.options.onStarted?.(this.firstId);
        // After the run's first message, so a branch's first entry stays its prompt.
        const hookMessages = await this.sync?.startRun(this.promptText(first));
        for (const m of hookMessages ?? []) this.appendHookMessage(m);
      }
      await runAgentLoop(this.loopEnv(signal));
      if (!leaf && this.filesMayHaveChanged && !signal.aborted) await this.checkpoint("prompt-end");
    } catch (err) {
      failure = errorText(err);
      // At the leaf only a bug or a failing session store gets here: report it rather than leave the UI hanging.
      if (leaf) this.emit({ type: "error", error: failure, source: "model" });
    } finally {
      external?.removeEventListener("abort", onExternalAbort);
    }
    if (leaf) {
      leaf.onLoopEnd(this.own);
      if (this.filesMayHaveChanged) await this.checkpoint("prompt-end");
      this.settleCheckpoints();
    }
    this.sync?.endRun();
    const state: RunResult["state"] = signal.aborted
      ? "stopped"
      : failure !== undefined || this.modelError !== undefined
        ? "failed"
        : "done";
    let result: RunResult = {
      state,
      ...(this.firstId !== undefined ? { firstEntryId: this.firstId } : {}),
      ...(this.contentTip !== undefined ? { tipId: this.contentTip } : {}),
      ...(failure !== undefined || (state === "failed" && this.modelError !== undefined)
        ? { error: failure ?? this.modelError }
        : {}),
      usage: this.usage,
      durationMs: 0,
      finalText: this.lastText,
      messages: this.own,
    };
    if (this.options.finish) {
      try {
        result = await this.options.finish(result, signal);
      } catch (err) {
        result = { ...result, state: "failed", error: errorText(err) };
      }
    }
    result.durationMs = Date.now() - startedAt;
    this.current = result.state;
    // Off the leaf the run's failure is said once, when it ended (at the leaf the loop said it as it happened).
    if (!leaf && result.error !== undefined)
      this.emit({ type: "error", error: result.error, source: result.error === this.modelError ? "model" : "tool" });
    this.work.end();
    this.work = undefined;
    this.emit({ type: "agent_end", messages: this.own });
    return result;
  }

  // ---- internals --------------------------------------------------------------------------------

  private loopEnv(signal: AbortSignal): LoopEnv {
    const leaf = this.options.leaf;
    const model = this.model;
    const mutating = new Set(this.runTools.filter((t) => t.mutates || t.mayChangeFiles).map((t) => t.name));
    const hooks = this.session.hookRunner;
    return {
      signal,
      maxTurns: this.options.maxTurns,
      tools: this.runTools,
      approve: this.options.approve,
      cwd: this.cwd,
      stream: this.options.stream,
      emit: (e) => {
        if (e.type === "tool_execution_start" && mutating.has(e.toolName)) this.filesMayHaveChanged = true;
        this.emit(e);
      },
      redact: (r) => this.session.redactor.redact(r),
      beforeCall: async (call) => {
        if (!hooks.has("tool_call")) return undefined;
        const verdict = await hooks.emitToolCall(
          { type: "tool_call", toolCallId: call.id, toolName: call.name, input: call.arguments },
          { cwd: this.cwd },
        );
        if (!verdict?.block) return undefined;
        const reason = typeof verdict.reason === "string" ? verdict.reason.trim() : "";
        return reason ? `Blocked by a hook: ${reason}` : "Blocked by a hook";
      },
      append: (m) => this.append(m),
      flushQueued: () => leaf?.flushQueued(this.own),
      hasTriggeredMessages: () => leaf?.hasTriggeredMessages() ?? false,
      compactIfNeeded: () => leaf?.compactIfNeeded(model, signal) ?? Promise.resolve(),
      compactForOverflow: () => leaf?.compactForOverflow(signal) ?? Promise.resolve(false),
      canCompact: leaf?.canCompact ?? false,
      ...(leaf ? { isContextOverflow: (m: AssistantMessage) => leaf.isContextOverflow(m, model) } : {}),
      buildRequest: () => this.buildRequest(signal),
      beforeModelCall: () => (this.filesMayHaveChanged ? this.checkpoint("after-tools") : Promise.resolve()),
      ...(leaf
        ? { takeSteering: leaf.takeSteering, takeFollowUp: leaf.takeFollowUp }
        : { takeFollowUp: () => this.nextFollowUp() }),
      beforeDeliver: async () => await this.sync?.recordChanges(),
    };
  }

  /** Off the leaf: the next of its follow-ups as a user message, redacted as its first message is. */
  private nextFollowUp(): UserMessage | undefined {
    const content = this.followUps.shift();
    if (content === undefined) return undefined;
    return { role: "user", content: this.session.redactor.redactContent(content), timestamp: Date.now() };
  }

  /** The context on the run's path: the leaf's, or the path to `parentId` plus its own messages. */
  private pathContext(): { messages: AgentMessage[]; thinkingLevel: string } {
    const leaf = this.options.leaf;
    if (leaf) return leaf.context();
    return { messages: [...this.base, ...this.own], thinkingLevel: this.options.thinkingLevel ?? "off" };
  }

  /** The context its next request starts from: the path's, or only its own messages (`freshContext`). */
  private context(): { messages: AgentMessage[]; thinkingLevel: string } {
    if (this.options.freshContext && !this.options.leaf)
      return { messages: [...this.own], thinkingLevel: this.options.thinkingLevel ?? "off" };
    return this.pathContext();
  }

  private promptText(first: readonly AgentMessage[]): string | undefined {
    const m = first[0];
    if (m?.role !== "user") return undefined;
    return typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("");
  }

  private async buildRequest(signal: AbortSignal): Promise<StreamRequest> {
    // First: the prompt's changed sections are recorded, and the context read after includes them.
    const prompt = this.sync ? await this.sync.beforeRequest() : undefined;
    const context = this.context();
    let messages = context.messages;
    const hooks = this.session.hookRunner;
    if (hooks.has("context")) messages = await hooks.emitContext(messages);
    const model = this.model;
    const apiKey = await this.session.hostKeyFor(model);
    const request: StreamRequest = {
      model,
      messages: convertToLlm(messages),
      tools: this.runTools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
      ...(apiKey !== undefined ? { apiKey } : {}),
      signal,
      // Prompt-cache affinity, as pi passes it.
      sessionId: this.session.sessionManager.getSessionId(),
      thinkingLevel: clampThinkingLevel(model, levelOf(context.thinkingLevel)),
      onRetry: (info) => this.emit({ type: "retry", attempt: info.attempt, delayMs: info.delayMs, error: info.error }),
    };
    if (prompt) request.systemPrompt = prompt.text;
    else if (!this.sync && !this.atLeaf) {
      // Off the leaf without a prompt of its own: the one in force where it started.
      const replayed = promptTextOf(this.base);
      if (replayed !== "") request.systemPrompt = replayed;
    }
    return request;
  }

  /** Appends a message where the run appends; emits message_end (and off the leaf branch_entry). */
  private append(message: AgentMessage): string {
    const sm = this.session.sessionManager;
    const id = this.atLeaf ? sm.appendMessage(message) : sm.appendMessageAt(this.tip, message);
    this.wrote(id);
    this.own.push(message);
    this.emit({ type: "message_end", message, entryId: id });
    if (!this.atLeaf) this.emit({ type: "branch_entry", entryId: id });
    if (message.role === "system") return id;
    this.contentTip = id;
    if (message.role === "assistant") {
      addUsage(this.usageTotal, message.usage);
      this.lastText = textOf(message) || this.lastText;
      if (message.stopReason === "error") this.modelError = message.errorMessage ?? "The model call failed";
    }
    return id;
  }

  /** A before_agent_start handler's message, off the leaf: on the run's own path, as the leaf's queue adds it. */
  private appendHookMessage(message: HookMessage): void {
    const sm = this.session.sessionManager;
    const custom: AgentMessage = { role: "custom", ...message, timestamp: Date.now() };
    this.emit({ type: "message_start", message: custom });
    const id = sm.appendCustomMessageEntryAt(
      this.tip,
      message.customType,
      message.content,
      message.display,
      message.details,
    );
    this.wrote(id);
    this.own.push(custom);
    this.contentTip = id;
    this.emit({ type: "message_end", message: custom, entryId: id });
    this.emit({ type: "branch_entry", entryId: id });
  }

  private wrote(id: string): void {
    if (this.atLeaf) {
      this.firstId ??= id;
      return;
    }
    this.tip = id;
    if (this.firstId === undefined) {
      this.firstId = id;
      this.work?.setFirstEntry(id);
    }
  }

  private writer(): RunWriter {
    const sm = this.session.sessionManager;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the writer's getter reads the run's tip as it moves
    const run = this;
    return {
      sessionManager: sm,
      get tipId() {
        return run.tipId;
      },
      appendCustom: (customType, data) => {
        if (this.atLeaf) return sm.appendCustomEntry(customType, data);
        const id = sm.appendCustomEntryAt(this.tip, customType, data);
        this.wrote(id);
        this.emit({ type: "branch_entry", entryId: id });
        return id;
      },
    };
  }

  /** Records a checkpoint; at the leaf a failure is reported and the prompt goes on, off the leaf it fails the run. */
  private async checkpoint(moment: CheckpointMoment): Promise<void> {
    const hook = this.options.checkpoints;
    if (!hook) return;
    this.filesMayHaveChanged = false;
    // The leaf's last checkpoint is taken even after an abort: what the tools changed is recorded.
    const signal = this.atLeaf && moment === "prompt-end" ? undefined : this.controller.signal;
    try {
      await hook.record(moment, this.writer(), signal);
    } catch (err) {
      if (!this.atLeaf) throw err;
      if (!signal?.aborted) this.emit({ type: "error", error: errorText(err), source: "checkpoint" });
    }
  }

  private settleCheckpoints(): void {
    try {
      this.options.checkpoints?.settle?.(this.writer());
    } catch (err) {
      this.emit({ type: "error", error: errorText(err), source: "checkpoint" });
    }
  }

  private emit(event: RunEvent): void {
    this.track(event);
    try {
      this.options.onEvent?.(event);
    } catch {
      // A broken listener must not stop the run.
    }
    for (const l of [...this.listeners]) {
      try {
        l(event);
      } catch {
        // As above: the other listeners still get the event.
      }
    }
  }

  /** Keeps the progress a view shows (state, tool, tokens, newest message row). */
  private track(e: RunEvent): void {
    if (e.type === "message_end") {
      this.messageTip = e.entryId;
      if (e.message.role === "assistant") {
        this.tokensDone += e.message.usage.totalTokens;
        this.tokensNow = this.tokensDone;
      }
      if (e.message.role === "toolResult") this.toolName = undefined;
    } else if (e.type === "tool_execution_start") {
      this.current = "tool";
      this.toolName = e.toolName;
    } else if (e.type === "message_update" || (e.type === "branch_entry" && this.current === "starting")) {
      this.current = "streaming";
      if (e.type === "message_update") {
        const chars = e.message.content.reduce(
          (n, c) => n + (c.type === "text" ? c.text.length : c.type === "thinking" ? c.thinking.length : 0),
          0,
        );
        this.tokensNow = this.tokensDone + (e.message.usage.output || Math.ceil(chars / 4));
      }
    }
  }
}

/** A recorded level as a ThinkingLevel (pi 1.6's levels; anything unknown is "off"). */
export function levelOf(recorded: string): ThinkingLevel {
  return isThinkingLevel(recorded) ? recorded : "off";
}
