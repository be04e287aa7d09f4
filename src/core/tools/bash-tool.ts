/** `bash` {command, timeout?}: run a shell command in the workspace root; output tail kept. */
import { withoutKeys } from "../providers/api-key.js";
import { runCommand } from "./command-run.js";
import { sandboxedCommandLine, type CommandSandbox } from "./sandbox.js";
import { guarded, optInt, reqString, textResult } from "./tool-args.js";
import { MAX_BYTES, MAX_LINES } from "./truncate.js";
import type { AgentTool, ToolResult } from "./types.js";
import { toolParameters } from "./tool-parameters.js";

/**
 * The environment of a command: the host's without any key variable, so `env` or a prompt-injected
 * `echo $OPENAI_API_KEY` cannot copy a key into the session file. Without a model registry, the variables of
 * pi-ai's credentials and every `*_API_KEY` go (an `AgentSession` passes its registry, whose providers name theirs).
 */
function defaultCommandEnv(): NodeJS.ProcessEnv {
  return withoutKeys(process.env);
}

/**
 * Create the bash tool. `commandEnv` gives each command's environment (default: `defaultCommandEnv`); `sandbox`,
 * asked before each command, where it runs (sandbox.ts): undefined runs it as it is, a refusal refuses it.
 */
export function createBashTool(
  cwd: string,
  commandEnv: () => NodeJS.ProcessEnv = defaultCommandEnv,
  sandbox?: () => CommandSandbox | undefined | Promise<CommandSandbox | undefined>,
): AgentTool {
  return {
    name: "bash",
    description: `Run a bash command in the workspace root. stdout and stderr are combined; only the last ${MAX_LINES} lines / ${MAX_BYTES / 1024}KB are returned. Optional timeout in seconds.`,
    parameters: toolParameters(
      { command: ["string", "The command to run"], timeout: ["number", "Timeout in seconds (optional)"] },
      ["command"],
    ),
    mutates: true,
    promptSnippet: "Execute bash commands in the workspace folder",
    execute: guarded("bash", async (args, ctx): Promise<ToolResult> => {
      const command = reqString(args, "command");
      const timeoutSec = optInt(args, "timeout", 1);
      const env = commandEnv();
      const place = await sandbox?.();
      if (place?.kind === "refused") return textResult(`Command not run: ${place.reason}`, true);
      const line = place ? sandboxedCommandLine(place.bwrap, place.policy, env, cwd, command) : command;
      const shown = (output: string): string => output || "(no output)";
      const outcome = await runCommand(line, cwd, env, {
        signal: ctx.signal,
        timeoutSec,
        ...(ctx.onUpdate ? { onOutput: (output: string) => ctx.onUpdate?.(textResult(shown(output))) } : {}),
      });
      const text = shown(outcome.output);
      const details = {
        exitCode: outcome.exitCode,
        truncated: outcome.truncated,
        timedOut: outcome.timedOut,
        aborted: outcome.aborted,
      };
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
