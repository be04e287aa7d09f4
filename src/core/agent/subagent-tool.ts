/**
 * `subagent` {prompt, readOnly?}: a fresh agent on the same session, run as a branch off the tool call's entry (the
 * assistant message holding the call), as Claude Code's subagents hang off their Task call in an imported session
 * (docs/subagents.md). It is an AgentRun off the leaf (AgentSession.startSubagent): the session's hooks, approvals,
 * redaction, usage and run registry, its turns checkpointed on its branch. Its context is its prompt and the system
 * prompt, not the parent's conversation; its tools are the workspace's (only those that change nothing when
 * `readOnly` or in plan mode), never `subagent` itself. Several calls in one reply run at once (`concurrent`), at most
 * `maxConcurrent` of the session at a time; the others wait for a slot. The final answer, capped, is the call's
 * result, with the branch's entry ids so the model can name them. The leaf never moves: the parent's tool result is
 * appended at the leaf when the subagent ended.
 */
import type { AgentRun, RunEvent, RunResult } from "./agent-run.js";
import { guarded, optBool, reqString, textResult, ToolArgError } from "../tools/tool-args.js";
import type { AgentTool, ToolResult } from "../tools/types.js";

/** The tool's name (the interface: keep it). */
export const SUBAGENT_TOOL_NAME = "subagent";

/** Subagents of one session that run at once by default (`agentTree.subagents.maxConcurrent`). */
export const DEFAULT_MAX_CONCURRENT_SUBAGENTS = 4;

/** The longest answer returned to the parent; the rest stays on the branch. */
export const SUBAGENT_ANSWER_MAX_CHARS = 20_000;

/** What the tool asks the session for: a subagent's run, started. */
export interface SubagentRequest {
  /** The entry its branch hangs off: the assistant message holding the call. */
  parentId: string;
  prompt: string;
  readOnly: boolean;
  /** How the user is told about it ("Subagent 2"). */
  label: string;
  /** The parent's signal: aborting the parent stops it. */
  signal?: AbortSignal;
}

/** What the tool needs from its session (AgentSession). */
export interface SubagentDeps {
  /** Starts the subagent's run (registered with the session from now until it ended). */
  start(request: SubagentRequest): AgentRun;
  /** How many of the session's subagents may run at once (read when a call waits for a slot); at least 1. */
  maxConcurrent?: () => number;
}

/** What the call's result carries besides its text (`details`). */
export interface SubagentDetails {
  state: RunResult["state"];
  /** The branch's first entry (the subagent's prompt). */
  branchId?: string;
  /** Its newest content entry (its final answer). */
  tipId?: string;
  readOnly: boolean;
  tokens: number;
  cost: number;
}

const DESCRIPTION = `Run a subagent: a fresh agent with its own context that works on one task and returns its final answer to you. It sees only your prompt and the system prompt, not this conversation, so say everything it needs (files, what to look for, what to return). It has the workspace's tools (only those that change nothing — read, grep, find, ls, web_fetch — when readOnly is true) and cannot start subagents itself.

Use it for:
- research that would fill your context (searching a large codebase, reading many files) when you only need the conclusion;
- independent tasks that can run at once: several subagent calls in one reply run in parallel.

Its work is kept as a branch of this session the user can open; the result names the branch's entry ids. Prefer readOnly: true unless the task must change files (writing subagents share the workspace with you and each other).`;

/** Waits for one of `max()` slots; abortable. */
class Slots {
  private used = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: () => number) {}

  /** Resolves with the release function once a slot is free; rejects when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const take = (): void => {
        signal?.removeEventListener("abort", onAbort);
        this.used++;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.used--;
          this.next();
        });
      };
      const onAbort = (): void => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(new Error("Aborted"));
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiting.push(take);
      this.next();
    });
  }

  private next(): void {
    while (this.waiting.length > 0 && this.used < Math.max(1, Math.floor(this.max()))) this.waiting.shift()?.();
  }
}

/** `text` cut to `max` characters, saying where the rest is. */
export function capAnswer(text: string, max: number, where: string): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n\n[Answer cut at ${max} of ${text.length} characters; the whole answer is entry ${where}.]`;
}

/** The call's result: the answer (capped) and the branch's ids; a stop or failure says so. */
export function subagentResult(result: RunResult, readOnly: boolean, maxChars = SUBAGENT_ANSWER_MAX_CHARS): ToolResult {
  const branch = result.firstEntryId;
  const tip = result.tipId ?? branch;
  const ids =
    branch === undefined
      ? ""
      : `\n\n[Subagent branch ${branch}${tip !== undefined && tip !== branch ? `, final answer ${tip}` : ""}]`;
  const answer = capAnswer(result.finalText.trim(), maxChars, tip ?? "on its branch");
  let text: string;
  if (result.state === "done") text = answer === "" ? "The subagent ended without an answer." : answer;
  else if (result.state === "stopped")
    text = "The subagent was stopped before it finished." + (answer === "" ? "" : ` What it had said:\n\n${answer}`);
  else text = `The subagent failed: ${result.error ?? "unknown error"}` + (answer === "" ? "" : `\n\n${answer}`);
  const details: SubagentDetails = {
    state: result.state,
    ...(branch !== undefined ? { branchId: branch } : {}),
    ...(tip !== undefined ? { tipId: tip } : {}),
    readOnly,
    tokens: result.usage.totalTokens,
    cost: result.usage.cost.total,
  };
  return textResult(text + ids, result.state !== "done", details);
}

/** What the parent's chat shows while the subagent runs (the call's partial output). */
function progressText(label: string, event: RunEvent, branch: string | undefined): string | undefined {
  const where = branch === undefined ? label : `${label} (branch ${branch})`;
  if (event.type === "tool_execution_start") return `${where}: running ${event.toolName}…`;
  if (event.type === "turn_start") return `${where}: thinking…`;
  return undefined;
}

/** Creates the tool over its session (see the file comment). */
export function createSubagentTool(deps: SubagentDeps): AgentTool {
  const slots = new Slots(deps.maxConcurrent ?? (() => DEFAULT_MAX_CONCURRENT_SUBAGENTS));
  let count = 0;
  return {
    name: SUBAGENT_TOOL_NAME,
    description: DESCRIPTION,
    parameters: {
      type: "object",
      properties: {
        prompt: { type: "string", description: "The whole task for the subagent, with everything it needs to know" },
        readOnly: {
          type: "boolean",
          description: "Only the tools that change nothing (read, grep, find, ls, web_fetch); default false",
        },
      },
      required: ["prompt"],
    },
    // Its own calls are asked about as the agent's are; starting one changes nothing by itself.
    mutates: false,
    mayChangeFiles: true,
    concurrent: true,
    promptSnippet:
      "Delegate a self-contained task to a fresh agent that returns its answer (parallel when called several times)",
    promptGuidelines: [
      "Use subagent for broad searches or independent tasks whose details you do not need; give it the whole task, since it does not see this conversation.",
    ],
    execute: guarded(SUBAGENT_TOOL_NAME, async (args, ctx) => {
      const prompt = reqString(args, "prompt").trim();
      if (prompt === "") throw new ToolArgError(`"prompt" must not be empty.`);
      const readOnly = optBool(args, "readOnly") === true;
      if (ctx.callEntryId === undefined)
        return textResult(`${SUBAGENT_TOOL_NAME}: the call is not recorded in a session, so no branch can start`, true);
      const label = `Subagent ${++count}`;
      ctx.onUpdate?.(textResult(`${label}: waiting for a free slot…`));
      const release = await slots.acquire(ctx.signal);
      try {
        const run = deps.start({
          parentId: ctx.callEntryId,
          prompt,
          readOnly,
          label,
          ...(ctx.signal ? { signal: ctx.signal } : {}),
        });
        const off = run.subscribe((e) => {
          const text = progressText(label, e, run.firstEntryId);
          if (text !== undefined) ctx.onUpdate?.(textResult(text));
        });
        try {
          return subagentResult(await run.done, readOnly);
        } finally {
          off();
        }
      } finally {
        release();
      }
    }),
  };
}
