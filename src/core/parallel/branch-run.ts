/**
 * One agent loop on a branch of a session that does not move the session's leaf (docs/parallel.md). The branch
 * starts under `parentId` with the prompt as a user message; every message and checkpoint entry is appended under
 * the branch's own tip with SessionManager's off-leaf appends, so several branches — and the user's own agent on
 * the leaf — append to one session at once, their lines interleaving in the file, each branch's context only its
 * own path. The loop is the agent's own (runAgentLoop); a branch never compacts.
 */
import { runAgentLoop } from "../agent/agent-loop.js";
import type { AgentEvent } from "../agent/events.js";
import { KeyRedactor } from "../agent/key-redactor.js";
import type { StreamFn } from "../agent/stream-turn.js";
import { SystemPromptSync, promptTextOf } from "../agent/system-prompt-sync.js";
import { CHECKPOINT_ENTRY_TYPE, findPathCheckpoint, MAX_LISTED_FILES } from "../checkpoints/session-link.js";
import type { CheckpointEntryData, CheckpointMoment } from "../checkpoints/session-link.js";
import { convertToLlm, emptyUsage, type AgentMessage, type AssistantMessage, type Usage } from "../messages.js";
import type { ModelRegistry } from "../providers/model-registry.js";
import type { SystemPromptProvider } from "../prompt/workspace-prompt.js";
import type { ModelInfo, StreamRequest, ThinkingLevel } from "../providers/types.js";
import type { SessionManager } from "../session/session-manager.js";
import type { AgentTool, ToolApprovalPolicy } from "../tools/types.js";
import { appendBranchRunLine, type BranchRunKind, type BranchRunState } from "./branch-run-lines.js";
import type { BranchCopy, FileLineStat } from "./branch-copy.js";
import { errorText } from "../error-text.js";

/** Default bound on model calls of one branch. */
export const DEFAULT_BRANCH_MAX_TURNS = 50;

/** How to run one branch. */
export interface BranchRunOptions {
  sessionManager: SessionManager;
  /** The entry the branch starts under (null: a new root). */
  parentId: string | null;
  prompt: string;
  model: ModelInfo;
  /** The registry the model comes from: requests go through it (unless `stream` is given). */
  modelRegistry?: Pick<ModelRegistry, "stream">;
  kind: BranchRunKind;
  /** Shared by the branches started together. */
  groupId: string;
  /** The tools the model is offered, confined to the branch's folder. */
  tools: readonly AgentTool[];
  /** The folder the tools run in (the branch's copy, or the workspace for a read-only aside). */
  cwd: string;
  /** Asked before every tool call; default: approve everything. */
  approve?: ToolApprovalPolicy;
  /** The host's key for a model; when it returns nothing, the provider resolves its own credentials. */
  getApiKey?: (model: ModelInfo) => Promise<string | undefined>;
  /** Values that must never reach the session or a view (keys of the environment); see KeyRedactor. */
  secretValues?: () => readonly string[];
  /**
   * The agent's system prompt: a fixed text, or the workspace's provider (built for the branch's folder). Each
   * request records on the branch's own path what differs from the prompt replayed there, as the agent's own
   * requests do, so the branch replays — here and in pi — the instructions and tools it ran under. Undefined: the
   * prompt in force at `parentId` is sent as it is.
   */
  systemPrompt?: string | SystemPromptProvider;
  thinkingLevel?: ThinkingLevel;
  stream?: StreamFn;
  maxTurns?: number;
  signal?: AbortSignal;
  /**
   * The branch's copy: its files are recorded after tool calls that may change them. The branch starts while the
   * copy's files are still being written: every tool call waits for them (`BranchCopy.ready`), a copy that cannot
   * be made ends the branch as `failed` with its error, and a branch stopped before its copy is complete removes
   * the copy (nothing is left).
   */
  copy?: BranchCopy;
  /** Every event of the branch's loop, and `branch_entry` when an entry was written (the tip moved). */
  onEvent?: (event: BranchEvent) => void;
}

/** The stream a branch's requests go through: `stream`, else its registry's. */
function streamOf(options: BranchRunOptions): StreamFn {
  const registry = options.modelRegistry;
  if (!registry) throw new Error("runBranch needs a modelRegistry (or a stream function) to call the model");
  return (request) => registry.stream(request);
}

/** What a branch run reports while it runs. */
export type BranchEvent = AgentEvent | { type: "branch_entry"; entryId: string };

/** How a branch run ended. */
export interface BranchOutcome {
  state: Exclude<BranchRunState, "running">;
  /** The branch's first entry (its user message); undefined when it could not start. */
  branchId?: string;
  /** The branch's newest content entry (what Adopt This Branch moves the leaf to). */
  tipId?: string;
  error?: string;
  /** Token use and cost of every model call of the branch. */
  usage: Usage;
  durationMs: number;
  /** The text of the branch's last assistant reply. */
  finalText: string;
  /** Files the branch changed in its copy (from the checkpoint it started from), with added and removed lines. */
  files: FileLineStat[];
}

const approveAll: ToolApprovalPolicy = async () => ({ approved: true });

/**
 * The reason to abort a branch's `signal` with when it is stopped for a reason the user must read (its copies went
 * over their size cap): the branch ends as `stopped` with this message as its error, in its outcome and run line.
 */
export class BranchStop extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BranchStop";
  }
}

/** `tools`, each waiting for the copy's files before it runs (a failed copy fails the call with its error). */
function afterCopy(tools: readonly AgentTool[], copy: BranchCopy | undefined): readonly AgentTool[] {
  if (!copy) return tools;
  return tools.map((tool): AgentTool => ({
    ...tool,
    execute: async (args, ctx) => {
      await copy.ready;
      return tool.execute(args, ctx);
    },
  }));
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

/**
 * Runs the branch to its end (see the file comment). Never rejects for model, tool or checkpoint failures: they
 * end the branch as `failed` with the reason, and the other branches are not affected. An abort of `signal` ends
 * it as `stopped`, keeping what was said.
 */
export async function runBranch(options: BranchRunOptions): Promise<BranchOutcome> {
  const started = Date.now();
  const sm = options.sessionManager;
  const usage = emptyUsage();
  const emit = (e: BranchEvent): void => {
    try {
      options.onEvent?.(e);
    } catch {
      // a broken listener must not stop the branch
    }
  };
  const redactor = new KeyRedactor(options.secretValues ?? (() => []));
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  if (options.signal?.aborted) controller.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  const signal = controller.signal;

  // The copy's files arrive while the first request goes out; see BranchRunOptions.copy.
  const copy = options.copy;
  let copyFailure: string | undefined;
  let copyRemoval: Promise<void> | undefined;
  copy?.ready.catch((e: unknown) => {
    if (signal.aborted) return;
    copyFailure = errorText(e);
    controller.abort();
  });
  const dropIncompleteCopy = (): void => {
    if (copy && !copy.complete) copyRemoval ??= copy.remove().catch(() => undefined);
  };
  if (signal.aborted) dropIncompleteCopy();
  signal.addEventListener("abort", dropIncompleteCopy, { once: true });
  const tools = afterCopy(options.tools, copy);

  // The context is the parent's, built once, plus the branch's own messages: nothing else enters it.
  const base = sm.buildSessionContextAt(options.parentId).messages;
  const own: AgentMessage[] = [];
  let tip: string | null = options.parentId;
  let contentTip: string | undefined;
  let branchId: string | undefined;
  let finalText = "";
  let modelError: string | undefined;
  let filesMayHaveChanged = false;
  const mutating = new Set(options.tools.filter((t) => t.mutates).map((t) => t.name));

  const append = (message: AgentMessage): void => {
    const id = sm.appendMessageAt(tip, message);
    tip = id;
    own.push(message);
    emit({ type: "message_end", message, entryId: id });
    emit({ type: "branch_entry", entryId: id });
    if (message.role === "system") return;
    contentTip = id;
    if (message.role === "assistant") {
      addUsage(usage, message.usage);
      finalText = textOf(message) || finalText;
      if (message.stopReason === "error") modelError = message.errorMessage ?? "The model call failed";
    }
  };

  const checkpoint = async (moment: CheckpointMoment): Promise<void> => {
    if (!copy || tip === null) return;
    filesMayHaveChanged = false;
    const result = await copy.checkpoint(moment, signal);
    const folder = copy.info.folder;
    const previous = findPathCheckpoint(sm, tip, folder);
    if (previous?.ref.tree === result.tree) return;
    const data: CheckpointEntryData = {
      version: 1,
      moment,
      folders: [
        {
          folder,
          checkpointId: result.id,
          tree: result.tree,
          ...(previous ? { baseId: previous.ref.checkpointId } : {}),
          changed: result.changes.length,
          files: result.changes.slice(0, MAX_LISTED_FILES),
        },
      ],
    };
    // As the agent's own checkpoints: the entry sits where the files were recorded and the next message follows it.
    tip = sm.appendCustomEntryAt(tip, CHECKPOINT_ENTRY_TYPE, data);
    emit({ type: "branch_entry", entryId: tip });
  };

  // The prompt's changed sections and tools are recorded under the branch's tip before each model call (after the
  // branch's user message, so the branch's first entry stays its prompt: the run lines, its copy's owner, adopt and
  // archive all name that one entry).
  const source = options.systemPrompt;
  const provider = typeof source === "function" ? source : undefined;
  const sync =
    source === undefined || source === ""
      ? undefined
      : new SystemPromptSync({
          source: provider
            ? async (tools) => ({ ...(await provider(tools)), cwd: options.cwd, workspaceFolders: [options.cwd] })
            : (source as string),
          tools: () => options.tools,
          contextMessages: () => [...base, ...own],
          append: (m) => append(m),
          onError: (error) => emit({ type: "error", error, source: "hook" }),
          redact: (text) => redactor.redactText(text),
        });

  const buildRequest = async (): Promise<StreamRequest> => {
    let fromHost: string | undefined;
    try {
      fromHost = await options.getApiKey?.(options.model);
    } catch {
      // The host could not read its secret store; the environment may still have a key.
    }
    redactor.learn(fromHost);
    const request: StreamRequest = {
      model: options.model,
      messages: convertToLlm([...base, ...own]),
      tools: options.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
      ...(fromHost?.trim() ? { apiKey: fromHost.trim() } : {}),
      signal,
      thinkingLevel: options.thinkingLevel ?? "off",
      onRetry: (info) => emit({ type: "retry", attempt: info.attempt, delayMs: info.delayMs, error: info.error }),
    };
    if (sync) {
      const prompt = await sync.beforeRequest();
      if (prompt) request.systemPrompt = prompt.text;
    } else {
      const replayed = promptTextOf(base);
      if (replayed !== "") request.systemPrompt = replayed;
    }
    request.messages = convertToLlm([...base, ...own]);
    return request;
  };

  let failure: string | undefined;
  emit({ type: "agent_start" });
  try {
    // The host's key is known before the branch's prompt is recorded: a key in it is redacted as in a tool result.
    redactor.learn(await options.getApiKey?.(options.model).catch(() => undefined));
    const user: AgentMessage = { role: "user", content: redactor.redactText(options.prompt), timestamp: Date.now() };
    emit({ type: "message_start", message: user });
    append(user);
    branchId = contentTip;
    appendBranchRunLine(sm, branchId as string, {
      version: 1,
      kind: options.kind,
      state: "running",
      groupId: options.groupId,
      model: { provider: options.model.provider, modelId: options.model.id },
    });
    await options.copy?.setOwner(sm.getSessionFile(), branchId as string);
    await runAgentLoop({
      signal,
      maxTurns: options.maxTurns ?? DEFAULT_BRANCH_MAX_TURNS,
      tools,
      approve: options.approve ?? approveAll,
      cwd: options.cwd,
      stream: options.stream ?? streamOf(options),
      emit: (e) => {
        if (e.type === "tool_execution_start" && mutating.has(e.toolName)) filesMayHaveChanged = true;
        emit(e);
      },
      redact: (r) => redactor.redact(r),
      append,
      flushQueued: () => undefined,
      hasTriggeredMessages: () => false,
      compactIfNeeded: async () => undefined,
      compactForOverflow: async () => false,
      canCompact: false,
      buildRequest,
      beforeModelCall: () => (filesMayHaveChanged ? checkpoint("after-tools") : Promise.resolve()),
    });
    if (filesMayHaveChanged && !signal.aborted) await checkpoint("prompt-end");
  } catch (err) {
    failure = errorText(err);
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
  await copyRemoval;
  failure = copyFailure ?? failure;
  const state: BranchOutcome["state"] =
    copyFailure !== undefined
      ? "failed"
      : signal.aborted
        ? "stopped"
        : failure !== undefined || modelError !== undefined
          ? "failed"
          : "done";
  const reason: unknown = options.signal?.aborted ? options.signal.reason : undefined;
  const stopMessage = copyFailure === undefined && reason instanceof BranchStop ? reason.message : undefined;
  const error = stopMessage ?? failure ?? (state === "failed" ? modelError : undefined);
  if (branchId !== undefined) {
    try {
      appendBranchRunLine(sm, branchId, {
        version: 1,
        kind: options.kind,
        state,
        groupId: options.groupId,
        model: { provider: options.model.provider, modelId: options.model.id },
        ...(error !== undefined ? { error } : {}),
      });
    } catch {
      // The session closed under the run (the window went): the branch reads as stopped when reopened.
    }
  }
  const files = copy ? await copy.lineStats().catch(() => []) : [];
  if (error !== undefined) emit({ type: "error", error, source: failure !== undefined ? "tool" : "model" });
  emit({ type: "agent_end", messages: own });
  return {
    state,
    ...(branchId !== undefined ? { branchId } : {}),
    ...(contentTip !== undefined ? { tipId: contentTip } : {}),
    ...(error !== undefined ? { error } : {}),
    usage,
    durationMs: Date.now() - started,
    finalText,
    files,
  };
}
