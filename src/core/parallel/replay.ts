/**
 * Replay with Model (docs/parallel.md, "Replay a path"): the user messages of the current path, from a row's turn to
 * the leaf, sent again — one turn at a time, each full agent turn (tool calls included) ending before the next
 * message goes — by one or more models, each on its own parallel branch that starts where that turn started, in its
 * own copy of the workspace as the node's checkpoint recorded it. The branches are Explore in Parallel's
 * (`startBranchGroup`: copies, tools, run lines with the kind "replay", stop, crash-safety); each is one AgentRun
 * whose later user messages are its follow-ups (AgentRunOptions.followUps).
 */
import type { UserMessage } from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";
import { MAX_PARALLEL_BRANCHES, startBranchGroup, type Exploration, type ExploreOptions } from "./explore.js";

/** What a replay sends, and from where. */
export interface ReplayPlan {
  /** Where the branches start: the parent of the first replayed user message (null: new roots). */
  parentId: string | null;
  /** The user messages replayed, in path order. */
  userIds: string[];
  /** Their contents, as recorded. */
  messages: UserMessage["content"][];
}

/** Why a row cannot be replayed: its words are the user's error message. */
export class ReplayPlanError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ReplayPlanError";
  }
}

/**
 * The plan of replaying from `entryId`: the row's turn starts at the nearest user message at or above it on the
 * current path (or, for a row above the path's first user message, at the first one below it); every user message
 * from there to the leaf is replayed. Throws ReplayPlanError for a row that is not on the current path, or when no
 * user message is there to replay.
 */
export function replayPlan(sm: SessionManager, entryId: string): ReplayPlan {
  const path = sm.getPathEnvelopes();
  const at = path.findIndex((e) => e.id === entryId);
  if (at < 0)
    throw new ReplayPlanError(
      "That row is not on the current path: Replay with Model sends the user messages from a row to the current leaf. Switch to its branch first.",
    );
  const isUser = (i: number): boolean => path[i].type === "message" && path[i].role === "user";
  let start = at;
  while (start >= 0 && !isUser(start)) start--;
  if (start < 0) {
    start = at;
    while (start < path.length && !isUser(start)) start++;
  }
  const userIds: string[] = [];
  const messages: UserMessage["content"][] = [];
  for (let i = start; i < path.length; i++) {
    if (!isUser(i)) continue;
    const entry = sm.getEntry(path[i].id);
    if (entry?.type !== "message" || entry.message.role !== "user") continue;
    userIds.push(path[i].id);
    messages.push(entry.message.content);
  }
  if (messages.length === 0)
    throw new ReplayPlanError(
      "There is no user message on the path from that row to the current leaf: nothing to replay.",
    );
  return { parentId: path[start].parentId, userIds, messages };
}

/** How to replay: as Explore in Parallel, with one branch per model and the plan's messages instead of a prompt. */
export type ReplayOptions = Omit<ExploreOptions, "parentId" | "prompt" | "count" | "models"> & {
  plan: ReplayPlan;
  /** One branch each, in this order (1–8). */
  models: ExploreOptions["models"];
};

/**
 * Starts one branch per model under the plan's parent; each is sent the plan's first message and then, each time
 * its turn ended, the next (see the file comment). Rejects without models, with more than MAX_PARALLEL_BRANCHES,
 * without a message, and as Explore in Parallel does (the copies' cap, a copy that cannot be started). A branch whose
 * model fails mid-replay ends `failed` and keeps what was said; a stopped one ends `stopped`.
 */
export async function replayWithModels(options: ReplayOptions): Promise<Exploration> {
  const { plan, models, ...rest } = options;
  if (models.length === 0) throw new Error("Replay with Model needs at least one model: none was picked");
  if (models.length > MAX_PARALLEL_BRANCHES)
    throw new Error(`Replay with Model runs at most ${MAX_PARALLEL_BRANCHES} models at once, not ${models.length}`);
  const [first, ...followUps] = plan.messages;
  if (first === undefined) throw new Error("Replay with Model needs a user message to replay");
  const count = models.length;
  return startBranchGroup({
    ...rest,
    kind: "replay",
    parentId: plan.parentId,
    prompt: first,
    followUps,
    count,
    models,
    label: (i) => `Replay ${i + 1} of ${count}`,
  });
}
