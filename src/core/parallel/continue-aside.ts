/**
 * Continue as Branch (docs/parallel.md): an aside that ended becomes an ordinary branch. The leaf moves to its
 * answer as any move does (AgentSession.navigateTree, with a summary of the branch left when asked for); then the
 * path records the prompt and tools of the leaf's own agent (AgentSession.recordSystemPrompt: the aside ran with
 * read-only tools, and its path declares them, so without this pi resuming the file would activate only those), and
 * a last run line marks the aside `continued`, so its rows read as an ordinary path from then on (`branchRunOf`
 * passes over it). The next message at the leaf is sent with every tool of the agent.
 */
import type { AgentSession } from "../agent/agent-session.js";
import type { NavigateTreeOptions, NavigateTreeResult } from "../agent/navigate-types.js";
import type { SessionManager } from "../session/session-manager.js";
import { branchRunOf } from "./branch-lookup.js";
import { appendBranchRunLine, BRANCH_RUN_TYPE, type BranchRunRecord } from "./branch-run-lines.js";

/** An aside that can be continued: its first entry (its question), its answer and its latest run line. */
export interface ContinuableAside {
  branchId: string;
  /** The aside's last message, an assistant reply: where the leaf goes. */
  answerId: string;
  run: BranchRunRecord;
}

/** What continuing reads from the session. */
export type AsideSource = Pick<SessionManager, "getEnvelopes" | "getEntry" | "getPathEnvelopes" | "getEnvelope">;

/**
 * The aside's own last message: the newest message below its first entry written before its latest run line (the
 * line its run wrote when it ended). Messages the user added below it later (after moving there) are not its own.
 */
function asideTip(sm: AsideSource, branchId: string): string | undefined {
  const envelopes = sm.getEnvelopes();
  let end = envelopes.length;
  for (let i = envelopes.length - 1; i >= 0; i--) {
    const env = envelopes[i];
    if (env.type === "custom" && env.preview === BRANCH_RUN_TYPE && env.parentId === branchId) {
      end = i;
      break;
    }
  }
  const below = new Set([branchId]);
  let tip: string | undefined;
  for (let i = 0; i < end; i++) {
    const env = envelopes[i];
    if (env.parentId === null || !below.has(env.parentId)) continue;
    below.add(env.id);
    if (env.type === "message") tip = env.id;
  }
  return tip;
}

/**
 * The aside holding `entryId` (any of its rows) and its answer, or why it cannot be continued: the row is on no
 * aside, the aside was continued already, it still runs (`live`: the first entries of the runs alive now), or it
 * ended before it answered.
 */
export function asideToContinue(
  sm: AsideSource,
  entryId: string,
  live: ReadonlySet<string> = new Set(),
): ContinuableAside | { refusal: string } {
  const run = branchRunOf(sm, entryId, live, { continued: true });
  if (run?.continued === true) return { refusal: "That aside was continued as a branch already." };
  if (run?.kind !== "aside") return { refusal: "That row is not on an aside (Agent: Ask Aside…)." };
  if (run.state === "running")
    return { refusal: "The aside is still answering: wait for it or stop it (Agent: Stop Branch) first." };
  const tip = asideTip(sm, run.branchId);
  const entry = tip === undefined ? undefined : sm.getEntry(tip);
  if (tip === undefined || entry?.type !== "message" || entry.message.role !== "assistant")
    return { refusal: `The aside ended (${run.state}) before it answered: there is no answer to continue from.` };
  return { branchId: run.branchId, answerId: tip, run };
}

/** What continuing needs of the session. */
export type ContinueSession = Pick<AgentSession, "sessionManager" | "navigateTree" | "recordSystemPrompt" | "runs">;

/** The first entries of the runs off the leaf alive now (a running aside's among them). */
function liveRuns(session: Pick<AgentSession, "runs">): Set<string> {
  const ids = new Set<string>();
  for (const work of session.runs.offLeaf()) if (work.firstEntryId !== undefined) ids.add(work.firstEntryId);
  return ids;
}

/**
 * After the leaf moved to the aside's answer (the host's move, with its questions): records the agent's prompt and
 * tools at the leaf and marks the aside continued. Throws, recording nothing, when the leaf is not on the answer or
 * at or below it.
 */
export async function settleContinuedAside(session: ContinueSession, aside: ContinuableAside): Promise<void> {
  const sm = session.sessionManager;
  if (!sm.getPathEnvelopes().some((e) => e.id === aside.answerId))
    throw new Error("The leaf is not on the aside's answer: the aside was not continued.");
  await session.recordSystemPrompt();
  const { branchId, ...data } = aside.run;
  appendBranchRunLine(sm, branchId, { ...data, continued: true });
}

/** How Continue as Branch ended: the move's result, or why it did not start (nothing changed). */
export type ContinueAsideResult = NavigateTreeResult | { kind: "refused"; reason: string };

/**
 * Continue as Branch on `entryId` (any row of the aside): moves the leaf to the aside's answer (`options`: the
 * summary of the branch left, as navigateTree takes them), then settles it (settleContinuedAside). Anything but
 * `moved` / `noop` changed nothing.
 */
export async function continueAside(
  session: ContinueSession,
  entryId: string,
  options: NavigateTreeOptions = {},
): Promise<ContinueAsideResult> {
  const found = asideToContinue(session.sessionManager, entryId, liveRuns(session));
  if ("refusal" in found) return { kind: "refused", reason: found.refusal };
  const moved = await session.navigateTree(found.answerId, options);
  if (moved.kind !== "moved" && moved.kind !== "noop") return moved;
  await settleContinuedAside(session, found);
  return moved;
}
