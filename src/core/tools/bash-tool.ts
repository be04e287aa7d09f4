/** `bash` {command, timeout?}: run a shell command in the workspace root; output tail kept. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";
import { guarded, optInt, reqString, textResult } from "./tool-args.js";
import { MAX_BYTES, MAX_LINES, truncateTail } from "./truncate.js";
import type { AgentTool, ToolResult } from "./types.js";

/** Output kept in memory while running; older output is dropped (only the tail is shown anyway). */
const ROLLING_BYTES = 4 * MAX_BYTES;
/** How often partial output is reported, ms. */
const UPDATE_INTERVAL_MS = 250;

/**
 * Variables holding the model keys this extension uses. They are removed from the command's
 * environment so `env` or a prompt-injected `echo $OPENAI_API_KEY` cannot copy a key into the session file.
 */
export const SCRUBBED_ENV = ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN"] as const;

function commandEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const k of SCRUBBED_ENV) delete env[k];
  return env;
}

function shell(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "/bin/sh";
}

/** Kill the whole process group (the command and everything it started). */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // already gone
  }
}

/** Outcome of one run, before formatting. */
interface RunOutcome {
  output: string;
  droppedBytes: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
}

function formatOutput(o: RunOutcome): { text: string; truncated: boolean } {
  const t = truncateTail(o.output.replace(/\n$/, ""));
  let text = t.text || "(no output)";
  const truncated = t.truncated || o.droppedBytes > 0;
  if (truncated) {
    const total = Buffer.byteLength(o.output, "utf8") + o.droppedBytes;
    text = `[Output truncated: showing the last ${t.keptLines} lines (${total} bytes in total).]\n` + text;
  }
  return { text, truncated };
}

/** Create the bash tool. */
export function createBashTool(cwd: string): AgentTool {
  return {
    name: "bash",
    description: `Run a bash command in the workspace root. stdout and stderr are combined; only the last ${MAX_LINES} lines / ${MAX_BYTES / 1024}KB are returned. Optional timeout in seconds.`,
    parameters: {
      type: "object",
      properties: {
        command: { type: "string", description: "The command to run" },
        timeout: { type: "number", description: "Timeout in seconds (optional)" },
      },
      required: ["command"],
    },
    mutates: true,
    execute: guarded("bash", async (args, ctx): Promise<ToolResult> => {
      const command = reqString(args, "command");
      const timeoutSec = optInt(args, "timeout", 1);
      const outcome = await new Promise<RunOutcome>((resolve, reject) => {
        const child = spawn(shell(), ["-c", command], {
          cwd,
          detached: true, // own process group, so abort/timeout can kill grandchildren too
          stdio: ["ignore", "pipe", "pipe"],
          env: commandEnv(),
        });
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
          if (ctx.onUpdate && now - lastUpdate >= UPDATE_INTERVAL_MS) {
            lastUpdate = now;
            ctx.onUpdate(
              textResult(formatOutput({ output, droppedBytes, exitCode: null, signal: null, timedOut, aborted }).text),
            );
          }
        };
        child.stdout.on("data", (c: Buffer) => onData(c, "out"));
        child.stderr.on("data", (c: Buffer) => onData(c, "err"));
        const timer =
          timeoutSec !== undefined
            ? setTimeout(() => {
                timedOut = true;
                killGroup(child.pid);
              }, timeoutSec * 1000)
            : undefined;
        const onAbort = (): void => {
          aborted = true;
          killGroup(child.pid);
        };
        ctx.signal?.addEventListener("abort", onAbort, { once: true });
        child.on("error", (e) => {
          if (timer) clearTimeout(timer);
          ctx.signal?.removeEventListener("abort", onAbort);
          reject(e);
        });
        child.on("close", (exitCode, signal) => {
          if (timer) clearTimeout(timer);
          ctx.signal?.removeEventListener("abort", onAbort);
          resolve({ output, droppedBytes, exitCode, signal, timedOut, aborted });
        });
      });
      const { text, truncated } = formatOutput(outcome);
      const details = { exitCode: outcome.exitCode, truncated, timedOut: outcome.timedOut, aborted: outcome.aborted };
      if (outcome.aborted) return textResult(`${text}\n\nCommand aborted.`, true, details);
      if (outcome.timedOut)
        return textResult(`${text}\n\nCommand timed out after ${timeoutSec} seconds.`, true, details);
      if (outcome.exitCode !== 0) {
        const why =
          outcome.exitCode === null
            ? `was killed by ${outcome.signal ?? "a signal"}`
            : `exited with code ${outcome.exitCode}`;
        return textResult(`${text}\n\nCommand ${why}.`, true, details);
      }
      return textResult(text, false, details);
    }),
  };
}
