/**
 * One shell command run to its end, for the `bash` tool and the commands the user types (`!command`): started by
 * startCommand (command-process.ts: the given key-free environment, not a child of the host, its process group
 * killed on abort or timeout), stdout and stderr combined, the output's tail kept in memory and cut as the bash tool
 * cuts it (truncate.ts), the output so far reported while it runs.
 */
import { StringDecoder } from "node:string_decoder";
import { startCommand } from "./command-process.js";
import { MAX_BYTES, truncateTail } from "./truncate.js";

/** Output kept in memory while running; older output is dropped (only the tail is shown anyway). */
const ROLLING_BYTES = 4 * MAX_BYTES;
/** How often the output so far is reported, ms. */
const UPDATE_INTERVAL_MS = 250;

/** How a command ended, its output cut to the tail. */
export interface CommandOutcome {
  /** The output's tail (MAX_LINES / MAX_BYTES), a line saying so first when it was cut; "" when there was none. */
  output: string;
  /** The output was cut (or older output was dropped while it ran). */
  truncated: boolean;
  /** The exit status; null when none was reported (killed). */
  exitCode: number | null;
  timedOut: boolean;
  /** The signal aborted it. */
  aborted: boolean;
}

/** Options of runCommand. */
export interface RunCommandOptions {
  signal?: AbortSignal;
  /** Seconds before the command is killed; none: no limit. */
  timeoutSec?: number;
  /** The output so far (cut as the outcome's), at most every UPDATE_INTERVAL_MS. */
  onOutput?: (output: string) => void;
}

/** The output's tail as the model and the chat get it. */
function cutOutput(output: string, droppedBytes: number): { text: string; truncated: boolean } {
  const t = truncateTail(output.replace(/\n$/, ""));
  let text = t.text;
  const truncated = t.truncated || droppedBytes > 0;
  if (truncated) {
    const total = Buffer.byteLength(output, "utf8") + droppedBytes;
    text = `[Output truncated: showing the last ${t.keptLines} lines (${total} bytes in total).]\n` + text;
  }
  return { text, truncated };
}

/** Runs `command` in `cwd` with exactly `env` until it ends, times out or `signal` aborts it. */
export async function runCommand(
  command: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
  options: RunCommandOptions = {},
): Promise<CommandOutcome> {
  const { signal, timeoutSec, onOutput } = options;
  const proc = startCommand(command, cwd, env);
  let output = "";
  let droppedBytes = 0;
  let timedOut = false;
  let aborted = false;
  let lastUpdate = 0;
  // One decoder per stream, so a UTF-8 character split across chunks is not mangled.
  const decoders = { out: new StringDecoder("utf8"), err: new StringDecoder("utf8") };
  const onData = (chunk: Buffer, which: "out" | "err"): void => {
    output += decoders[which].write(chunk);
    if (output.length > ROLLING_BYTES) {
      const cut = output.length - ROLLING_BYTES;
      droppedBytes += Buffer.byteLength(output.slice(0, cut), "utf8");
      output = output.slice(cut);
    }
    const now = Date.now();
    if (onOutput && now - lastUpdate >= UPDATE_INTERVAL_MS) {
      lastUpdate = now;
      onOutput(cutOutput(output, droppedBytes).text);
    }
  };
  proc.stdout.on("data", (c: Buffer) => onData(c, "out"));
  proc.stderr.on("data", (c: Buffer) => onData(c, "err"));
  const timer =
    timeoutSec !== undefined
      ? setTimeout(() => {
          timedOut = true;
          proc.kill();
        }, timeoutSec * 1000)
      : undefined;
  const onAbort = (): void => {
    aborted = true;
    proc.kill();
  };
  if (signal?.aborted) onAbort();
  else signal?.addEventListener("abort", onAbort, { once: true });
  let exitCode: number | null;
  try {
    exitCode = await proc.exited;
  } finally {
    if (timer) clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  const { text, truncated } = cutOutput(output, droppedBytes);
  return { output: text, truncated, exitCode, timedOut, aborted };
}
