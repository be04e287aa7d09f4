/**
 * How a branch that ran beside the user's is recorded (docs/parallel.md): `custom` entries of type
 * "agent-tree/branch-run" hung off the branch's first entry, one when it starts (`running`) and one when it ends
 * (`done`, `stopped` or `failed`). pi ignores them in the context, as it ignores every custom entry. A branch
 * whose last line says `running` when the file is opened by a process that does not run it was cut off (the
 * window was closed or killed): it reads as `stopped`, an ordinary branch with every entry that was written.
 */
import type { SessionManager } from "../session/session-manager.js";
import type { SessionEntry } from "../session/types.js";

/** The customType of run lines. */
export const BRANCH_RUN_TYPE = "agent-tree/branch-run";

/**
 * Why the branch ran: one of several explored in parallel, a path's user messages sent again with another model
 * (Replay with Model), or a read-only side question (Ask Aside).
 */
export type BranchRunKind = "explore" | "replay" | "aside";

/** Where a run is. */
export type BranchRunState = "running" | "done" | "stopped" | "failed";

/** The `data` of a run line. */
export interface BranchRunData {
  version: 1;
  kind: BranchRunKind;
  state: BranchRunState;
  /** Branches started together share it. */
  groupId: string;
  /** The model the branch ran with. */
  model?: { provider: string; modelId: string };
  /** Why it failed. */
  error?: string;
  /**
   * An aside the user continued as an ordinary branch (Continue as Branch, continue-aside.ts): from this line on
   * its rows are an ordinary path, not a branch run beside the user's (`branchRunOf` passes over it).
   */
  continued?: true;
}

/** A branch's run as the file records it. */
export interface BranchRunRecord extends BranchRunData {
  /** The branch's first entry (the one the line hangs off). */
  branchId: string;
}

const KINDS: readonly BranchRunKind[] = ["explore", "replay", "aside"];
const STATES: readonly BranchRunState[] = ["running", "done", "stopped", "failed"];

/** The run data of an entry, or undefined when it is not a (valid) run line. */
export function branchRunDataOf(entry: SessionEntry | undefined): BranchRunData | undefined {
  if (!entry || entry.type !== "custom" || entry.customType !== BRANCH_RUN_TYPE) return undefined;
  const d = entry.data as Partial<BranchRunData> | undefined;
  if (!d || d.version !== 1 || typeof d.groupId !== "string") return undefined;
  if (!KINDS.includes(d.kind as BranchRunKind) || !STATES.includes(d.state as BranchRunState)) return undefined;
  const out: BranchRunData = {
    version: 1,
    kind: d.kind as BranchRunKind,
    state: d.state as BranchRunState,
    groupId: d.groupId,
  };
  if (d.model && typeof d.model.provider === "string" && typeof d.model.modelId === "string")
    out.model = { provider: d.model.provider, modelId: d.model.modelId };
  if (typeof d.error === "string") out.error = d.error;
  if (d.continued === true) out.continued = true;
  return out;
}

/**
 * What a run line tells the tree about the branch it hangs off (the row menu's items that apply there): one of a
 * group started together (explore, replay), an aside, or an aside continued as an ordinary branch (passed over).
 */
export type BranchRunMark = "group" | "aside" | "continued";

/** The mark of a run line's envelope (read only when its preview says it is one), or undefined. */
export function branchRunMarkOf(
  env: { type: string; preview: string },
  entry: () => SessionEntry | undefined,
): BranchRunMark | undefined {
  if (env.type !== "custom" || env.preview !== BRANCH_RUN_TYPE) return undefined;
  const data = branchRunDataOf(entry());
  if (!data) return undefined;
  return data.continued === true ? "continued" : data.kind === "aside" ? "aside" : "group";
}

/** Appends a run line off the branch's first entry; the user's leaf stays. Returns its id. */
export function appendBranchRunLine(sm: SessionManager, branchId: string, data: BranchRunData): string {
  return sm.appendCustomEntryAt(branchId, BRANCH_RUN_TYPE, data);
}

/**
 * Every branch's latest run line, by the branch's first entry. `running` ones not in `live` (the branches this
 * process runs now) read as `stopped`: they were cut off.
 */
export function readBranchRuns(
  sm: SessionManager,
  live: ReadonlySet<string> = new Set(),
): Map<string, BranchRunRecord> {
  const out = new Map<string, BranchRunRecord>();
  for (const env of sm.getEnvelopes()) {
    // A custom entry's preview is its customType: no other body is read.
    if (env.type !== "custom" || env.preview !== BRANCH_RUN_TYPE || env.parentId === null) continue;
    const data = branchRunDataOf(sm.getEntry(env.id));
    if (!data) continue;
    const state = data.state === "running" && !live.has(env.parentId) ? "stopped" : data.state;
    out.set(env.parentId, { ...data, state, branchId: env.parentId });
  }
  return out;
}
