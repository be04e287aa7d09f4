/**
 * The chat input's built-in `/` commands, in one table: the completion list shows each with its description
 * and argument hint, and a message whose first word names one runs it instead of going to the model. Each names the
 * extension command it runs — an operation of the operations table runs through it (its guards, its refusals, as
 * from the palette), with the text after the name as its input; another command runs as the palette runs it. Another
 * feature adds its command here (one row); pi's prompt templates come after these (a template of the same name is
 * shadowed).
 */
import type { CommandId } from "../common/command-ids.js";
import type { Operations } from "../operations/operations.js";

/** What a built-in command may do. */
export interface SlashCommandContext {
  /** Runs an extension command by id; `input` goes to an operation of the table (`/compact <focus>`). */
  runCommand(id: CommandId, input?: string): Promise<void>;
  /** Shows and focuses the session tree. */
  focusTree(): Promise<void>;
}

/** One built-in command. */
export interface SlashCommand {
  /** Without its slash. */
  name: string;
  description: string;
  /** `<required>` / `[optional]`, as pi's templates write it. */
  argumentHint?: string;
  /** `args`: the text after the name, trimmed. */
  run(args: string, ctx: SlashCommandContext): Promise<void>;
}

/** The built-ins, in the order the list shows them. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: "new", description: "Start a new session", run: (_a, c) => c.runCommand("agentTree.newSession") },
  {
    name: "fork",
    description: "Fork the session into a new file at the current point",
    run: (_a, c) => c.runCommand("agentTree.forkSession"),
  },
  {
    name: "compact",
    description: "Summarize older history to free context",
    argumentHint: "[focus]",
    run: (a, c) => c.runCommand("agentTree.compact", a),
  },
  { name: "model", description: "Choose the model", run: (_a, c) => c.runCommand("agentTree.selectModel") },
  {
    name: "name",
    description: "Name this session",
    argumentHint: "<title>",
    run: (a, c) => c.runCommand("agentTree.renameSession", a),
  },
  { name: "tree", description: "Focus the session tree", run: (_a, c) => c.focusTree() },
  { name: "export", description: "Export the session to HTML", run: (_a, c) => c.runCommand("agentTree.exportHtml") },
  {
    name: "explore",
    description: "Explore in parallel: several branches from here at once",
    argumentHint: "[prompt]",
    run: (a, c) => c.runCommand("agentTree.exploreInParallel", a),
  },
  {
    name: "aside",
    description: "Ask aside: a read-only side question that does not move the leaf",
    argumentHint: "<question>",
    run: (a, c) => c.runCommand("agentTree.askAside", a),
  },
  {
    name: "plan",
    description: "Toggle plan mode: read-only tools, the agent proposes a plan for you to approve",
    argumentHint: "[task]",
    // With a task: plan mode on, and the task sent (src/host/chat/plan-mode-actions.ts).
    run: (a, c) => (a ? c.runCommand("agentTree.togglePlanMode", a) : c.runCommand("agentTree.togglePlanMode")),
  },
];

/**
 * The context the chat's slash commands run in: an operation of the table through the table (from the leaf: no
 * row), any other command as the palette runs it.
 */
export function slashCommandContext(d: {
  operations: Pick<Operations, "spec" | "run">;
  /** Runs a command that is no operation, as the palette does (`input`, when given, as its argument). */
  executeCommand(id: CommandId, input?: string): Promise<void>;
  focusTree(): Promise<void>;
}): SlashCommandContext {
  return {
    runCommand: (id, input) =>
      d.operations.spec(id) ? d.operations.run(id, undefined, input) : d.executeCommand(id, input),
    focusTree: () => d.focusTree(),
  };
}

/** The built-in `text` invokes (`/name args`), with its arguments; undefined when it names none. */
export function matchSlashCommand(
  text: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
): { command: SlashCommand; args: string } | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const command = commands.find((c) => c.name === m[1]);
  return command ? { command, args: (m[2] ?? "").trim() } : undefined;
}
