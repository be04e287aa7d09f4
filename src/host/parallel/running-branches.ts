/**
 * The views' side of the branches that run beside the user's (docs/parallel.md), read from the one place that knows
 * which runs are alive: the session's run registry (AgentSession.runs, src/core/agent/session-runs.ts). It shows the
 * running branches' newest rows in the tree (`tree/running`, at most every RUNNING_POST_MS), tells the title bar how
 * many run, feeds the chat's watch of a branch with its run's events and how it ended, and answers which branch a
 * row is on. It keeps no list of its own. Pure: no `vscode` import.
 */
import type { AgentSession } from "../../core/agent/agent-session.js";
import type { SessionRuns, SessionWork, WorkChange } from "../../core/agent/session-runs.js";
import type { HostToWebview } from "../../shared/protocol.js";
import type { BranchWatch, RunningBranch } from "./branch-watch.js";

/** The tree's running rows are sent at most this often while branches stream. */
const RUNNING_POST_MS = 250;

/** What the views are told. */
export interface RunningBranchesDeps {
  /** The tree view: running branches show on their newest rows. */
  postTree?(msg: Extract<HostToWebview, { type: "tree/running" }>): void;
  /** How many branches run now (the tree's title bar shows Stop All Branches while some do). */
  onRunningChanged?(count: number): void;
  /** The chat's watch of a running branch: every branch's events, and how each ended. */
  watcher?: Pick<BranchWatch, "event" | "ended">;
}

/** The agent runs off the leaf that `runs` holds now (a branch's check is work there too, but no run). */
function branchRuns(runs: SessionRuns | undefined): readonly SessionWork[] {
  return (runs?.offLeaf() ?? []).filter((w) => w.run !== undefined);
}

/** The first entries of the runs off the leaf that `runs` holds now. */
export function liveBranchIds(runs: SessionRuns | undefined): ReadonlySet<string> {
  const ids = new Set<string>();
  for (const w of branchRuns(runs)) if (w.firstEntryId !== undefined) ids.add(w.firstEntryId);
  return ids;
}

/** The run off the leaf whose branch holds `entryId` (its own entries: `busyAt`), if one does. */
export function runningBranchAt(agent: AgentSession | undefined, entryId: string): SessionWork | undefined {
  const work = agent?.busyAt(entryId);
  return work?.place === "off-leaf" && work.run !== undefined && work.firstEntryId !== undefined ? work : undefined;
}

/** See the file comment. One per window; `attach` follows the current session's agent. */
export class RunningBranches {
  private runs: SessionRuns | undefined;
  private agent: AgentSession | undefined;
  private unsubscribe: (() => void) | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly d: RunningBranchesDeps) {}

  /** Follows `agent`'s runs from now (a session opened, or its agent rebuilt); undefined: none. */
  attach(agent: AgentSession | undefined): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.agent = agent;
    this.runs = agent?.runs;
    if (!this.runs) return;
    const runs = this.runs;
    const offs = new Map<SessionWork, () => void>();
    const offRegistry = runs.subscribe((change) => this.changed(change, offs));
    this.unsubscribe = () => {
      offRegistry();
      for (const off of offs.values()) off();
    };
    this.d.onRunningChanged?.(branchRuns(runs).length);
    this.schedulePost();
  }

  /** The running branch holding `entryId`, as the chat's watch names it. */
  runningBranchOf(entryId: string): RunningBranch | undefined {
    const work = runningBranchAt(this.agent, entryId);
    return work ? { branchId: work.firstEntryId as string, label: work.label } : undefined;
  }

  /** Stops following (the window closes). */
  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private changed(change: WorkChange, offs: Map<SessionWork, () => void>): void {
    const { work } = change;
    const run = work.run;
    if (work.place !== "off-leaf" || !run) return;
    if (change.type === "begin") {
      offs.set(
        work,
        run.subscribe((e) => {
          if (work.firstEntryId !== undefined) this.d.watcher?.event(work.firstEntryId, e);
          if (e.type === "message_update" || e.type === "message_end" || e.type === "tool_execution_start")
            this.schedulePost();
        }),
      );
      run.done.then(
        (result) => {
          if (result.firstEntryId !== undefined) this.d.watcher?.ended(result.firstEntryId, result.state, result.error);
        },
        () => undefined,
      );
    } else if (change.type === "end") {
      offs.get(work)?.();
      offs.delete(work);
    }
    if (change.type !== "first-entry") this.d.onRunningChanged?.(branchRuns(this.runs).length);
    this.schedulePost();
  }

  /** Sends the running rows to the tree, at most every RUNNING_POST_MS (and once more when none runs). */
  private schedulePost(): void {
    if (this.timer || !this.d.postTree) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      const branches = branchRuns(this.runs).flatMap((w) => {
        const p = w.run?.progress();
        return p?.tipId === undefined
          ? []
          : [{ tipId: p.tipId, tokens: p.tokens, ...(p.tool ? { tool: p.tool } : {}) }];
      });
      this.d.postTree?.({ type: "tree/running", branches });
    }, RUNNING_POST_MS);
  }
}
