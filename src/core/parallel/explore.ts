/**
 * Explore in Parallel (docs/parallel.md): 2–8 branches started together from one node, each in its own copy of
 * the workspace folder as the node's checkpoint recorded it, each an ordinary branch of the same session written
 * by this process. Models are used in turn across the branches. Each branch can be stopped alone; a branch that
 * fails does not affect the others.
 */
import { randomBytes } from "node:crypto";
import type { AgentRun } from "../agent/agent-run.js";
import type { ModelInfo } from "../providers/types.js";
import { createWorkspaceTools } from "../tools/workspace-tools.js";
import type { SandboxPolicy } from "../tools/sandbox.js";
import type { AgentTool } from "../tools/types.js";
import { assertCopiesFit, BranchCopy } from "./branch-copy.js";
import type { BranchRunKind } from "./branch-run-lines.js";
import { BranchStop, runBranch, type BranchEvent, type BranchOutcome, type BranchRunOptions } from "./branch-run.js";
import { CopiesMeter, guardCopiesCap } from "./copies-cap.js";

/** Fewest and most branches one exploration starts. */
export const MIN_PARALLEL_BRANCHES = 2;
export const MAX_PARALLEL_BRANCHES = 8;

/** Where the branches' copies come from and go. */
export interface ExploreIsolation {
  /** The workspace folder. */
  folder: string;
  /** Its checkpoint store (`FolderCheckpoints.storeDir`). */
  storeDir: string;
  /** The checkpoint holding the files at the node the branches start from. */
  checkpointId: string;
  /** Where copies live (outside the workspace). */
  copiesDir: string;
  /** The copies' total size cap, in bytes. */
  capBytes: number;
  env?: NodeJS.ProcessEnv;
}

/** The sandbox a branch's `bash` runs in (src/core/tools/sandbox.ts). */
export interface BranchSandbox {
  /** bwrap, as `findSandbox()` found it working. */
  bwrap: string;
  /** Whether commands may use the network. */
  network: boolean;
  /** More folders commands may read. */
  readOnly?: readonly string[];
}

/** The tools of every branch. */
export interface BranchTools {
  /** The environment of each bash command (default: the host's without the built-in providers' key variables). */
  commandEnv?: () => NodeJS.ProcessEnv;
  /**
   * Where the machine has a sandbox, each branch's `bash` runs in it: its copy writable, the workspace folder
   * hidden, the system read-only, network as set. Undefined: `bash` starts in the copy's folder but can reach
   * everything the extension host can (the host's approval says so).
   */
  sandbox?: BranchSandbox;
  /** Offered after the workspace tools (MCP servers' tools: they run in their servers' processes, not in a copy). */
  extraTools?: readonly AgentTool[];
}

/** The policy of a branch's sandbox: its copy writable, the workspace folder not visible. */
export function branchSandboxPolicy(sandbox: BranchSandbox, copyDir: string, folder: string): SandboxPolicy {
  return {
    writable: [copyDir],
    hidden: [folder],
    network: sandbox.network,
    ...(sandbox.readOnly ? { readOnly: sandbox.readOnly } : {}),
  };
}

/** A branch's `bash` as its model is told about it in the sandbox, so it does not try what cannot work there. */
function sandboxedBash(tool: AgentTool, sandbox: BranchSandbox): AgentTool {
  const network = sandbox.network ? "" : ", and there is no network access";
  return {
    ...tool,
    description:
      `${tool.description} Commands run in a sandbox: only this folder can be changed, the rest of the file ` +
      `system is read-only or absent${network}.`,
  };
}

/** How to explore. */
export type ExploreOptions = Omit<
  BranchRunOptions,
  | "parentId"
  | "prompt"
  | "followUps"
  | "kind"
  | "groupId"
  | "tools"
  | "cwd"
  | "copy"
  | "model"
  | "onEvent"
  | "signal"
  | "approve"
  | "label"
  | "onRun"
> & {
  /** The node the branches start under (null: new roots). */
  parentId: string | null;
  /** What every branch is asked. */
  prompt: string;
  /** How many branches (2–8). */
  count: number;
  /** Used in turn across the branches. */
  models: readonly ModelInfo[];
  isolation: ExploreIsolation;
  /**
   * The tools of a branch: read, write, edit, bash, grep, find and ls confined to its copy's folder (bash in the
   * sandbox when given), then the extra ones. Each call that may change files is measured against the copies' cap.
   */
  tools?: BranchTools;
  /** The approval policy of branch `index` (so a question can name the branch that asks). */
  approveFor?: (index: number) => BranchRunOptions["approve"];
  onEvent?: (index: number, event: BranchEvent) => void;
};

/** One running branch. */
export interface ExploreBranch {
  index: number;
  model: ModelInfo;
  copy: BranchCopy;
  /** The branch's first entry once written. */
  branchId?: string;
  /** The newest entry written. */
  tipId?: string;
  /** Its run, once started: where it is (`progress()`, `running`), registered with the session while it runs. */
  run?: AgentRun;
  stop(): void;
  outcome: Promise<BranchOutcome>;
}

/** A started exploration. */
export interface Exploration {
  groupId: string;
  branches: ExploreBranch[];
  stopAll(): void;
  /** Every branch's outcome, in branch order, when all have ended. */
  done: Promise<BranchOutcome[]>;
}

/**
 * Checks the size cap, starts the copies (all of them first: when one cannot be started, none is left and nothing
 * is written), then starts every branch at once: the copies' files are written in the background while the
 * branches' first requests go out (`BranchCopy.ready`; a copy that fails ends its branch as failed). Rejects for a
 * bad count or model list, a copy over the size cap (CopySizeCapError) or a copy that cannot be started.
 */
export async function exploreInParallel(options: ExploreOptions): Promise<Exploration> {
  const { count, models } = options;
  if (!Number.isInteger(count) || count < MIN_PARALLEL_BRANCHES || count > MAX_PARALLEL_BRANCHES)
    throw new Error(
      `Explore in Parallel starts ${MIN_PARALLEL_BRANCHES} to ${MAX_PARALLEL_BRANCHES} branches, not ${count}`,
    );
  if (models.length === 0) throw new Error("Explore in Parallel needs at least one model");
  if (options.prompt.trim() === "") throw new Error("Explore in Parallel needs a prompt");
  return startBranchGroup({ ...options, kind: "explore", label: (i) => `Branch ${i + 1} of ${count}` });
}

/**
 * How to start a group of parallel branches (Explore in Parallel's, a replayed path's): as ExploreOptions, with the
 * kind its run lines record, each branch's name, and what every branch is sent (a prompt, maybe follow-ups).
 */
export type BranchGroupOptions = Omit<ExploreOptions, "prompt"> & {
  kind: Extract<BranchRunKind, "explore" | "replay">;
  /** How branch `index` is named while it runs ("Branch 2 of 3"). */
  label: (index: number) => string;
  prompt: BranchRunOptions["prompt"];
  followUps?: BranchRunOptions["followUps"];
};

/**
 * Starts `count` branches from one node (see exploreInParallel, which checks what a user asked for; the callers
 * check their own): the cap, every copy first, then every branch at once, models in turn.
 */
export async function startBranchGroup(options: BranchGroupOptions): Promise<Exploration> {
  const { count, models, isolation } = options;
  await assertCopiesFit({ ...isolation, count });
  const copies: BranchCopy[] = [];
  try {
    for (let i = 0; i < count; i++)
      copies.push(
        await BranchCopy.materialize({
          folder: isolation.folder,
          storeDir: isolation.storeDir,
          checkpointId: isolation.checkpointId,
          copiesDir: isolation.copiesDir,
          sessionFile: options.session.sessionManager.getSessionFile(),
          ...(isolation.env ? { env: isolation.env } : {}),
          // One after another: the first branches get their files soonest (docs/parallel.md).
          ...(i > 0 ? { after: copies[i - 1].ready } : {}),
        }),
      );
  } catch (error) {
    await Promise.all(copies.map((c) => c.remove().catch(() => undefined)));
    throw error;
  }
  const groupId = `${options.kind}-${randomBytes(4).toString("hex")}`;
  const {
    tools: toolOptions,
    approveFor,
    onEvent,
    isolation: _iso,
    count: _count,
    models: _models,
    kind,
    label,
    ...common
  } = options;
  void _iso;
  void _count;
  void _models;
  const meter = new CopiesMeter(isolation.copiesDir);
  const sandbox = toolOptions?.sandbox;
  const branches = copies.map((copy, index): ExploreBranch => {
    const controller = new AbortController();
    const own = createWorkspaceTools(copy.dir, {
      ...(toolOptions?.commandEnv ? { commandEnv: toolOptions.commandEnv } : {}),
      ...(sandbox
        ? {
            commandSandbox: () => ({
              kind: "bubblewrap" as const,
              bwrap: sandbox.bwrap,
              policy: branchSandboxPolicy(sandbox, copy.dir, isolation.folder),
            }),
          }
        : {}),
    });
    const described = sandbox ? own.map((tool) => (tool.name === "bash" ? sandboxedBash(tool, sandbox) : tool)) : own;
    const tools = guardCopiesCap([...described, ...(toolOptions?.extraTools ?? [])], {
      root: copy.root,
      meter,
      capBytes: isolation.capBytes,
      stop: (message) => controller.abort(new BranchStop(message)),
    });
    const model = models[index % models.length];
    const branch: ExploreBranch = {
      index,
      model,
      copy,
      stop: () => controller.abort(),
      outcome: Promise.resolve(undefined as unknown as BranchOutcome),
    };
    const approve = approveFor?.(index);
    branch.outcome = runBranch({
      ...common,
      ...(approve ? { approve } : {}),
      label: label(index),
      model,
      kind,
      groupId,
      tools,
      cwd: copy.dir,
      copy,
      signal: controller.signal,
      onRun: (run) => (branch.run = run),
      onEvent: (e) => {
        if (e.type === "branch_entry") {
          branch.branchId ??= e.entryId;
          branch.tipId = e.entryId;
        }
        onEvent?.(index, e);
      },
    }).finally(() => {
      // The branch ended: a clean-up may now judge its copy by its owner (branch-copy.ts).
      copy.release();
    });
    return branch;
  });
  return {
    groupId,
    branches,
    stopAll: () => branches.forEach((b) => b.stop()),
    done: Promise.all(branches.map((b) => b.outcome)),
  };
}
