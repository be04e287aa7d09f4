/**
 * How a branch's check is recorded (docs/parallel.md, "A check per branch"): `custom` entries of type
 * "agent-tree/branch-check" hung off the row that was checked (the branch's newest message), one when the check
 * starts (`running`) and one when it ends, with the command, exit code, duration and the tail of its output. pi
 * ignores them in the context, as it ignores every custom entry. Run Check Again appends a new pair: the newest
 * record of a branch wins. A `running` record that no check of this process ends was cut off (the window was
 * closed): it reads as `stopped`.
 */
import type { RowCheck } from "../rows/tree-row.js";
import type { SessionManager } from "../session/session-manager.js";
import type { EntryEnvelope, SessionEntry } from "../session/types.js";

/** The customType of check records. */
export const BRANCH_CHECK_TYPE = "agent-tree/branch-check";

/**
 * Where a check is: `passed` (exit code 0), `failed` (another code, or killed by a signal), `timedOut` (killed at
 * the limit), `stopped` (stopped, or cut off by a closed window), `error` (it could not be started).
 */
export type BranchCheckState = "running" | "passed" | "failed" | "timedOut" | "stopped" | "error";

/** The `data` of a check record. */
export interface BranchCheckData {
  version: 1;
  state: BranchCheckState;
  /** The shell command, as the user gave it. */
  command: string;
  /** The branch's first entry (its prompt). */
  branchId: string;
  /** The time limit it ran under, seconds. */
  timeoutSeconds: number;
  /** Whether it ran in the sandbox of branch `bash`. */
  sandboxed: boolean;
  /** The exit status; null when none was reported (killed). */
  exitCode?: number | null;
  durationMs?: number;
  /** The tail of stdout and stderr combined, capped and with known keys redacted. */
  output?: string;
  /** Lines added plus removed by the branch (from its start to the checkpoint checked), when known. */
  changedLines?: number;
  /** Why it could not run, or why it was stopped. */
  error?: string;
  /** Shared by a run's `running` record and its outcome: how a reader knows the run is live in this process. */
  runId?: string;
}

/** A check as the file records it. */
export interface BranchCheckRecord extends BranchCheckData {
  /** The record's own entry. */
  entryId: string;
  /** The row it hangs off: the entry that was checked. */
  rowId: string;
}

const STATES: readonly BranchCheckState[] = ["running", "passed", "failed", "timedOut", "stopped", "error"];

/** The check data of an entry, or undefined when it is not a (valid) check record. */
export function branchCheckDataOf(entry: SessionEntry | undefined): BranchCheckData | undefined {
  if (!entry || entry.type !== "custom" || entry.customType !== BRANCH_CHECK_TYPE) return undefined;
  const d = entry.data as Partial<BranchCheckData> | undefined;
  if (!d || d.version !== 1 || !STATES.includes(d.state as BranchCheckState)) return undefined;
  if (typeof d.command !== "string" || typeof d.branchId !== "string") return undefined;
  const out: BranchCheckData = {
    version: 1,
    state: d.state as BranchCheckState,
    command: d.command,
    branchId: d.branchId,
    timeoutSeconds: typeof d.timeoutSeconds === "number" ? d.timeoutSeconds : 0,
    sandboxed: d.sandboxed === true,
  };
  if (d.exitCode === null || typeof d.exitCode === "number") out.exitCode = d.exitCode;
  if (typeof d.durationMs === "number") out.durationMs = d.durationMs;
  if (typeof d.output === "string") out.output = d.output;
  if (typeof d.changedLines === "number") out.changedLines = d.changedLines;
  if (typeof d.error === "string") out.error = d.error;
  if (typeof d.runId === "string") out.runId = d.runId;
  return out;
}

/** Appends a check record off `rowId` (the checked entry); the user's leaf stays. Returns its id. */
export function appendBranchCheck(sm: SessionManager, rowId: string, data: BranchCheckData): string {
  return sm.appendCustomEntryAt(rowId, BRANCH_CHECK_TYPE, data);
}

/** What the readers need of a session. */
export type CheckSource = Pick<SessionManager, "getEnvelopes" | "getEntry">;

/**
 * The record of a check entry's envelope, or undefined for any other entry. A `running` record whose `runId` is not
 * in `live` (the checks this process runs now) reads as `stopped`: it was cut off.
 */
export function branchCheckOf(
  env: Pick<EntryEnvelope, "id" | "type" | "preview" | "parentId">,
  getEntry: (id: string) => SessionEntry | undefined,
  live: ReadonlySet<string> = new Set(),
): BranchCheckRecord | undefined {
  // A custom entry's preview is its customType: no other body is read.
  if (env.type !== "custom" || env.preview !== BRANCH_CHECK_TYPE || env.parentId === null) return undefined;
  const data = branchCheckDataOf(getEntry(env.id));
  if (!data) return undefined;
  const record: BranchCheckRecord = { ...data, entryId: env.id, rowId: env.parentId };
  if (data.state === "running" && !(data.runId !== undefined && live.has(data.runId))) {
    record.state = "stopped";
    record.error = "The check was cut off (the window was closed while it ran).";
  }
  return record;
}

/** Every branch's newest check record (in file order), by the branch's first entry. */
export function readBranchChecks(
  sm: CheckSource,
  live: ReadonlySet<string> = new Set(),
): Map<string, BranchCheckRecord> {
  const out = new Map<string, BranchCheckRecord>();
  for (const env of sm.getEnvelopes()) {
    const record = branchCheckOf(env, (id) => sm.getEntry(id), live);
    if (record) out.set(record.branchId, record);
  }
  return out;
}

/** "1.2 s", "2 min 5 s". */
function duration(ms: number): string {
  const s = ms / 1000;
  return s < 60 ? `${s.toFixed(1)} s` : `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
}

/** One line on how a check went: "passed (exit 0, 1.2 s)", "timed out after 300 s". */
export function checkSummary(c: BranchCheckData): string {
  const took = c.durationMs !== undefined ? duration(c.durationMs) : undefined;
  switch (c.state) {
    case "running":
      return "running";
    case "passed":
      return `passed (exit 0${took ? `, ${took}` : ""})`;
    case "failed":
      return c.exitCode === null || c.exitCode === undefined
        ? `failed (killed${took ? `, ${took}` : ""})`
        : `failed (exit ${c.exitCode}${took ? `, ${took}` : ""})`;
    case "timedOut":
      return `timed out after ${c.timeoutSeconds} s`;
    case "stopped":
      return "stopped";
    case "error":
      return `could not run: ${c.error ?? "unknown error"}`;
  }
}

/** Longest hover text of a row's check mark. */
export const CHECK_HOVER_CHARS = 1500;

/** The hover of a row's check mark: the command, how it went, and the end of its output. */
export function checkHoverText(c: BranchCheckData): string {
  const head = `Check \`${c.command}\`: ${checkSummary(c)}${c.sandboxed ? "" : " (not sandboxed)"}`;
  const lines = [head];
  if (c.error && c.state !== "error") lines.push(c.error);
  const output = c.output?.trimEnd() ?? "";
  if (output !== "") {
    const room = CHECK_HOVER_CHARS - head.length - 1;
    lines.push(output.length > room ? "…" + output.slice(output.length - room + 1) : output);
  }
  return lines.join("\n");
}

/** The mark a check record gives the row it hangs off. */
export function rowCheckOf(record: BranchCheckRecord): RowCheck {
  return { state: record.state, title: checkHoverText(record) };
}
