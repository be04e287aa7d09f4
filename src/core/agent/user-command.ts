/**
 * Commands the user types into the chat (pi's `!command` and `!!command`): parsed here, run like the bash tool's
 * commands (command-run.ts: the key-free environment, not a child of the host, killed on abort, the output's tail
 * as bash keeps it), and turned into pi's `bashExecution` message. AgentSession records it (executeBash); the
 * message reaches the model as pi sends it (convertToLlm), unless `!!` excluded it from the context.
 */
import type { BashExecutionMessage } from "../messages.js";
import { runCommand } from "../tools/command-run.js";
import { errorText } from "../error-text.js";
import type { AgentEvent } from "./events.js";

/** A typed command: what to run, and whether its output stays out of the model's context (`!!`). */
export interface UserCommand {
  command: string;
  excludeFromContext: boolean;
}

/**
 * `!command` → the command, in the context; `!!command` → kept out of it (pi's interactive mode). Undefined for
 * any other text, and for a `!` with nothing after it (sent as typed, as pi does).
 */
export function parseUserCommand(text: string): UserCommand | undefined {
  if (!text.startsWith("!")) return undefined;
  const excludeFromContext = text.startsWith("!!");
  const command = text.slice(excludeFromContext ? 2 : 1).trim();
  return command === "" ? undefined : { command, excludeFromContext };
}

/** Said when a second command is typed while one runs (pi refuses it too). */
export const COMMAND_RUNNING_TEXT = "A command is already running: stop it first (Escape).";

/** What the runner needs from its session. */
export interface UserCommandEnv {
  cwd: string;
  /** The command's environment (without the models' key variables). */
  env: () => NodeJS.ProcessEnv;
  emit: (event: AgentEvent) => void;
  /** Removes known keys from the command and its output before anything shows or records them. */
  redact: (text: string) => string;
}

/** Runs one user command at a time. */
export class UserCommandRunner {
  private controller: AbortController | undefined;

  constructor(private readonly d: UserCommandEnv) {}

  /** True while a command runs. */
  get running(): boolean {
    return this.controller !== undefined;
  }

  /**
   * Runs the command to its end (or abort()) and returns pi's message of it, not recorded yet. Throws when one is
   * running already.
   */
  async run(input: UserCommand): Promise<BashExecutionMessage> {
    if (this.controller) throw new Error(COMMAND_RUNNING_TEXT);
    const controller = new AbortController();
    this.controller = controller;
    const command = this.d.redact(input.command);
    this.d.emit({ type: "bash_execution_start", command, excludeFromContext: input.excludeFromContext });
    try {
      const outcome = await runCommand(input.command, this.d.cwd, this.d.env(), {
        signal: controller.signal,
        onOutput: (output) => this.d.emit({ type: "bash_execution_update", command, output: this.d.redact(output) }),
      });
      const cancelled = outcome.aborted;
      // pi's fields, in pi's order (agent-session.js recordBashResult); no full-output file is written.
      const message: BashExecutionMessage = {
        role: "bashExecution",
        command,
        output: this.d.redact(outcome.output),
        exitCode: cancelled ? undefined : (outcome.exitCode ?? undefined),
        cancelled,
        truncated: outcome.truncated,
        timestamp: Date.now(),
        excludeFromContext: input.excludeFromContext,
      };
      this.d.emit({ type: "bash_execution_end", message });
      return message;
    } catch (e) {
      this.d.emit({ type: "bash_execution_end", error: errorText(e) });
      throw e;
    } finally {
      this.controller = undefined;
    }
  }

  /** Stops the running command, if any (its output so far is kept, `cancelled` set). */
  abort(): void {
    this.controller?.abort();
  }
}
