/**
 * Runs a branch's check (docs/parallel.md, "A check per branch"): the user's command in the branch's copy, as
 * branch `bash` runs (command-process.ts: a key-free environment, not a child of the host; in the sandbox where
 * the machine has one — the copy writable, the workspace folder hidden), killed at the time limit, and recorded on
 * the branch: a `running` record off the checked row when it starts, the outcome when it ends (branch-check.ts).
 */
import { randomBytes } from "node:crypto";
import { KeyRedactor } from "../agent/key-redactor.js";
import { errorText } from "../error-text.js";
import type { SessionManager } from "../session/session-manager.js";
import { runCommand } from "../tools/command-run.js";
import { sandboxedCommandLine } from "../tools/sandbox.js";
import { truncateTail } from "../tools/truncate.js";
import { appendBranchCheck, type BranchCheckData, type BranchCheckRecord } from "./branch-check.js";
import { branchSandboxPolicy, type BranchSandbox } from "./explore.js";

/** The tail of a check's output kept in its record: lines, and bytes. */
export const CHECK_TAIL_LINES = 60;
export const CHECK_TAIL_BYTES = 8 * 1024;

/** Default time limit of a check, seconds (agentTree.parallel.checkTimeout). */
export const DEFAULT_CHECK_TIMEOUT_SECONDS = 300;

/** The `runId`s of the checks this process runs now (a `running` record not here was cut off). */
const live = new Set<string>();

/** The `runId`s of the checks running in this process (branch-check.ts reads `running` records against them). */
export function liveCheckIds(): ReadonlySet<string> {
  return live;
}

/** How to run a check. */
export interface BranchCheckOptions {
  sessionManager: SessionManager;
  /** The branch's first entry. */
  branchId: string;
  /** The entry checked (the branch's newest message): the records hang off it, and its row shows them. */
  rowId: string;
  command: string;
  /** The branch's copy (`BranchCopy.dir`): where it runs, and the only folder the sandbox lets it change. */
  cwd: string;
  /** The workspace folder: hidden in the sandbox. */
  folder: string;
  timeoutSeconds: number;
  /** The command's environment (the host's without key variables, as branch `bash` gets it). */
  env: NodeJS.ProcessEnv;
  /** The sandbox of branch `bash`; undefined: it runs unsandboxed in the copy. */
  sandbox?: BranchSandbox;
  /** Values redacted from the output kept (see KeyRedactor). */
  secretValues?: () => readonly string[];
  /** Lines the branch changed, recorded for the ranking. */
  changedLines?: number;
  signal?: AbortSignal;
  /** Called with the `running` record's id once it is written (the row shows it running). */
  onStart?: (recordId: string) => void;
}

/**
 * Runs the check and records it; never throws for the command's own failure (a failing, hanging or unstartable
 * command is a record). Rejects only when the session cannot be written, or for an empty command.
 */
export async function runBranchCheck(o: BranchCheckOptions): Promise<BranchCheckRecord> {
  const command = o.command.trim();
  if (command === "") throw new Error("A check needs a command");
  const base: BranchCheckData = {
    version: 1,
    state: "running",
    command,
    branchId: o.branchId,
    timeoutSeconds: o.timeoutSeconds,
    sandboxed: o.sandbox !== undefined,
    runId: randomBytes(6).toString("hex"),
    ...(o.changedLines !== undefined ? { changedLines: o.changedLines } : {}),
  };
  const runId = base.runId as string;
  // Live before the record is written: its readers (the tree) see it running from its first append.
  live.add(runId);
  let running: string;
  try {
    running = appendBranchCheck(o.sessionManager, o.rowId, base);
  } catch (e) {
    live.delete(runId);
    throw e;
  }
  const started = Date.now();
  let result: BranchCheckData;
  try {
    o.onStart?.(running);
    result = await execute(o, command, base);
  } catch (e) {
    result = { ...base, state: "error", error: errorText(e) };
  }
  result.durationMs = Date.now() - started;
  let entryId: string;
  try {
    entryId = appendBranchCheck(o.sessionManager, o.rowId, result);
  } finally {
    live.delete(runId);
  }
  return { ...result, entryId, rowId: o.rowId };
}

async function execute(o: BranchCheckOptions, command: string, base: BranchCheckData): Promise<BranchCheckData> {
  const line = o.sandbox
    ? sandboxedCommandLine(o.sandbox.bwrap, branchSandboxPolicy(o.sandbox, o.cwd, o.folder), o.env, o.cwd, command)
    : command;
  const outcome = await runCommand(line, o.cwd, o.env, {
    timeoutSec: o.timeoutSeconds,
    ...(o.signal ? { signal: o.signal } : {}),
  });
  const tail = truncateTail(outcome.output, CHECK_TAIL_LINES, CHECK_TAIL_BYTES);
  const redactor = new KeyRedactor(o.secretValues ?? (() => []));
  const out: BranchCheckData = { ...base, exitCode: outcome.exitCode, output: redactor.redactText(tail.text) };
  if (outcome.timedOut) return { ...out, state: "timedOut", error: `Killed at the limit of ${o.timeoutSeconds} s.` };
  if (outcome.aborted) return { ...out, state: "stopped", error: "Stopped." };
  return { ...out, state: outcome.exitCode === 0 ? "passed" : "failed" };
}

/** npm's placeholder test script (`npm init`): not a check. */
const NPM_PLACEHOLDER = /no test specified/;

/**
 * The check Explore in Parallel proposes: the setting `agentTree.parallel.check` when set, else `npm test` when the
 * workspace's `package.json` (its text, if any) has a `test` script that is not npm's placeholder, else "" (none).
 */
export function defaultCheckCommand(setting: string, packageJson: string | undefined): string {
  if (setting.trim() !== "") return setting.trim();
  if (packageJson === undefined) return "";
  try {
    const scripts = (JSON.parse(packageJson) as { scripts?: Record<string, unknown> } | null)?.scripts;
    const test = scripts?.test;
    return typeof test === "string" && test.trim() !== "" && !NPM_PLACEHOLDER.test(test) ? "npm test" : "";
  } catch {
    return "";
  }
}
