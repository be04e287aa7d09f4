/**
 * One branch of a session that runs beside the user's without moving the session's leaf (docs/parallel.md): an
 * AgentRun off the leaf (`AgentSession.startRun`) — the session's own loop, hooks, redaction, system-prompt record
 * and run registry — plus what makes it a parallel branch: the prompt as the branch's first entry under `parentId`,
 * its run lines (branch-run-lines.ts), and its copy of the workspace (the tools wait for the copy's files, its turns
 * are checkpointed in the copy). Several branches — and the user's own agent on the leaf — append to one session at
 * once, their lines interleaving in the file, each branch's context only its own path. A branch never compacts.
 */
import type { AgentSession, StartRunOptions } from "../agent/agent-session.js";
import type { AgentRun, RunCheckpoints, RunEvent, RunResult } from "../agent/agent-run.js";
import { errorText } from "../error-text.js";
import { CHECKPOINT_ENTRY_TYPE, findPathCheckpoint, MAX_LISTED_FILES } from "../checkpoints/session-link.js";
import type { CheckpointEntryData } from "../checkpoints/session-link.js";
import { emptyUsage, type Usage } from "../messages.js";
import type { SystemPromptProvider } from "../prompt/workspace-prompt.js";
import type { ModelInfo } from "../providers/types.js";
import type { AgentTool, ToolApprovalPolicy } from "../tools/types.js";
import { appendBranchRunLine, type BranchRunKind, type BranchRunState } from "./branch-run-lines.js";
import type { BranchCopy, FileLineStat } from "./branch-copy.js";

/** Default bound on model calls of one branch. */
export const DEFAULT_BRANCH_MAX_TURNS = 50;

/**
 * How to run one branch: what it shares with every run off the leaf (`StartRunOptions`: the entry it starts under,
 * its prompt, tools, thinking level, stream, turn bound, signal), and what makes it a branch. `systemPrompt`: a fixed
 * text, or the workspace's provider built for the branch's folder; each request records on the branch's own path
 * what differs from the prompt replayed there, as the agent's own requests do, so the branch replays — here and in
 * pi — the instructions and tools it ran under. `approve`: default, approve everything. `maxTurns`: default
 * DEFAULT_BRANCH_MAX_TURNS (per user message). `followUps`: the user messages sent after the prompt, each when the
 * turn before it ended (a replayed path); a branch that ends before it sent all of them did not finish (`failed`).
 */
export interface BranchRunOptions extends Pick<
  StartRunOptions,
  | "parentId"
  | "prompt"
  | "followUps"
  | "tools"
  | "approve"
  | "systemPrompt"
  | "thinkingLevel"
  | "stream"
  | "maxTurns"
  | "signal"
> {
  /**
   * The session the branch belongs to: its store, hooks (tool_call guards the branch's calls too), keys, and the run
   * registry it is registered with while it runs (`busyAt` answers for its entries).
   */
  session: Pick<AgentSession, "startRun" | "sessionManager">;
  model: ModelInfo;
  kind: BranchRunKind;
  /** How the user is told about it while it runs ("Branch 2 of 3"); default "A branch" / "The aside". */
  label?: string;
  /** Shared by the branches started together. */
  groupId: string;
  /** The folder the tools run in (the branch's copy, or the workspace for a read-only aside). */
  cwd: string;
  /**
   * The branch's copy: its files are recorded after tool calls that may change them. The branch starts while the
   * copy's files are still being written: every tool call waits for them (`BranchCopy.ready`), a copy that cannot
   * be made ends the branch as `failed` with its error, and a branch stopped before its copy is complete removes
   * the copy (nothing is left).
   */
  copy?: BranchCopy;
  /** Every event of the branch's loop, and `branch_entry` when an entry was written (the tip moved). */
  onEvent?: (event: BranchEvent) => void;
  /** The branch's run, once started (its progress, its registration with the session). */
  onRun?: (run: AgentRun) => void;
}

/** What a branch run reports while it runs (an AgentRun's events). */
export type BranchEvent = RunEvent;

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

/** The copy's checkpoints, linked on the branch as the agent's own are: the entry sits where its files were recorded. */
function copyCheckpoints(copy: BranchCopy): RunCheckpoints {
  return {
    record: async (moment, run, signal) => {
      if (run.tipId === null) return;
      const result = await copy.checkpoint(moment, signal);
      const folder = copy.info.folder;
      const previous = findPathCheckpoint(run.sessionManager, run.tipId, folder);
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
      run.appendCustom(CHECKPOINT_ENTRY_TYPE, data);
    },
  };
}

/**
 * A branch that ended `done` before it sent every follow-up (a turn ran out of model calls: the loop ends there)
 * did not replay its path: it ends `failed`, saying how far it got.
 */
function unsentFollowUps(result: RunResult, options: BranchRunOptions): RunResult {
  const total = 1 + (options.followUps?.length ?? 0);
  const sent = result.messages.filter((m) => m.role === "user").length;
  if (sent >= total) return result;
  const calls = options.maxTurns ?? DEFAULT_BRANCH_MAX_TURNS;
  return {
    ...result,
    state: "failed",
    error: `Only ${sent} of ${total} user messages were sent: the turn of message ${sent} stopped after ${calls} model calls`,
  };
}

/**
 * Runs the branch to its end (see the file comment). Never rejects for model, tool or checkpoint failures: they
 * end the branch as `failed` with the reason, and the other branches are not affected. An abort of `signal` ends
 * it as `stopped`, keeping what was said.
 */
export async function runBranch(options: BranchRunOptions): Promise<BranchOutcome> {
  const started = Date.now();
  const sm = options.session.sessionManager;
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

  const model = { provider: options.model.provider, modelId: options.model.id };
  const line = (state: BranchRunState, branchId: string, error?: string): void =>
    void appendBranchRunLine(sm, branchId, {
      version: 1,
      kind: options.kind,
      state,
      groupId: options.groupId,
      model,
      ...(error !== undefined ? { error } : {}),
    });
  // The workspace's provider builds the prompt for the branch's own folder.
  const source = options.systemPrompt;
  const systemPrompt: string | SystemPromptProvider | undefined =
    typeof source === "function"
      ? async (tools) => ({ ...(await source(tools)), cwd: options.cwd, workspaceFolders: [options.cwd] })
      : source;
  let run: AgentRun;
  try {
    run = options.session.startRun({
      kind: options.kind,
      label: options.label ?? (options.kind === "aside" ? "The aside" : "A branch"),
      parentId: options.parentId,
      prompt: options.prompt,
      ...(options.followUps?.length ? { followUps: options.followUps } : {}),
      model: options.model,
      tools: afterCopy(options.tools, copy),
      cwd: options.cwd,
      approve: options.approve ?? approveAll,
      ...(systemPrompt !== undefined ? { systemPrompt } : {}),
      thinkingLevel: options.thinkingLevel ?? "off",
      ...(options.stream ? { stream: options.stream } : {}),
      maxTurns: options.maxTurns ?? DEFAULT_BRANCH_MAX_TURNS,
      signal,
      ...(copy ? { checkpoints: copyCheckpoints(copy) } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      onStarted: async (branchId) => {
        if (branchId === undefined) return;
        line("running", branchId);
        await copy?.setOwner(sm.getSessionFile(), branchId);
      },
      finish: async (result) => {
        options.signal?.removeEventListener("abort", onAbort);
        await copyRemoval;
        let ended = result;
        if (copyFailure !== undefined) ended = { ...result, state: "failed", error: copyFailure };
        else {
          const reason: unknown = options.signal?.aborted ? options.signal.reason : undefined;
          if (reason instanceof BranchStop) ended = { ...result, error: reason.message };
          else if (result.state === "done") ended = unsentFollowUps(result, options);
        }
        if (ended.firstEntryId !== undefined) {
          try {
            line(ended.state, ended.firstEntryId, ended.error);
          } catch {
            // The session closed under the run (the window went): the branch reads as stopped when reopened.
          }
        }
        return ended;
      },
    });
  } catch (err) {
    options.signal?.removeEventListener("abort", onAbort);
    controller.abort();
    await copyRemoval;
    return {
      state: "failed",
      error: errorText(err),
      usage: emptyUsage(),
      durationMs: Date.now() - started,
      finalText: "",
      files: [],
    };
  }
  options.onRun?.(run);
  const result = await run.done;
  const files = copy ? await copy.lineStats().catch(() => []) : [];
  return {
    state: result.state,
    ...(result.firstEntryId !== undefined ? { branchId: result.firstEntryId } : {}),
    ...(result.tipId !== undefined ? { tipId: result.tipId } : {}),
    ...(result.error !== undefined ? { error: result.error } : {}),
    usage: result.usage,
    durationMs: Date.now() - started,
    finalText: result.finalText,
    files,
  };
}
