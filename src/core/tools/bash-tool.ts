/** `bash` {command, timeout?}: run a shell command in the workspace root; output tail kept. */
import { StringDecoder } from "node:string_decoder";
import { withoutKeys } from "../providers/api-key.js";
import { startCommand } from "./command-process.js";
import { guarded, optInt, reqString, textResult } from "./tool-args.js";
import { MAX_BYTES, MAX_LINES, truncateTail } from "./truncate.js";
import type { AgentTool, ToolResult } from "./types.js";

/** Output kept in memory while running; older output is dropped (only the tail is shown anyway). */
const ROLLING_BYTES = 4 * MAX_BYTES;
/** How often partial output is reported, ms. */
const UPDATE_INTERVAL_MS = 250;

/**
 * The environment of a command: the host's without any key variable, so `env` or a prompt-injected
 * `echo $OPENAI_API_KEY` cannot copy a key into the session file. Without a model registry, the variables of
 * pi-ai's credentials and every `*_API_KEY` go (an `AgentSession` passes its registry, whose providers name theirs).
 */
function defaultCommandEnv(): NodeJS.ProcessEnv {
  return withoutKeys(process.env);
}

/** Outcome of one run, before formatting. */
interface RunOutcome {
  output: string;
  droppedBytes: number;
  exitCode: number | null;
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

/** Create the bash tool. `commandEnv` gives each command's environment (default: `defaultCommandEnv`). */
export function createBashTool(cwd: string, commandEnv: () => NodeJS.ProcessEnv = defaultCommandEnv): AgentTool {
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
    promptSnippet: "Execute bash commands in the workspace folder",
    execute: guarded("bash", async (args, ctx): Promise<ToolResult> => {
      const command = reqString(args, "command");
      const timeoutSec = optInt(args, "timeout", 1);
      const proc = startCommand(command, cwd, commandEnv());
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
          ctx.onUpdate(textResult(formatOutput({ output, droppedBytes, exitCode: null, timedOut, aborted }).text));
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
      ctx.signal?.addEventListener("abort", onAbort, { once: true });
      let exitCode: number | null;
      try {
        exitCode = await proc.exited;
      } finally {
        if (timer) clearTimeout(timer);
        ctx.signal?.removeEventListener("abort", onAbort);
      }
      const outcome: RunOutcome = { output, droppedBytes, exitCode, timedOut, aborted };
      const { text, truncated } = formatOutput(outcome);
      const details = { exitCode: outcome.exitCode, truncated, timedOut: outcome.timedOut, aborted: outcome.aborted };
      if (outcome.aborted) return textResult(`${text}\n\nCommand aborted.`, true, details);
      if (outcome.timedOut)
        return textResult(`${text}\n\nCommand timed out after ${timeoutSec} seconds.`, true, details);
      if (outcome.exitCode !== 0) {
        const why =
          outcome.exitCode === null
            ? "was killed before it reported an exit status"
            : `exited with code ${outcome.exitCode}`;
        return textResult(`${text}\n\nCommand ${why}.`, true, details);
      }
      return textResult(text, false, details);
    }),
  };
}
