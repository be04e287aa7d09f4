/**
 * The chat input's built-in `/` commands, in one table: the completion list shows each with its description
 * and argument hint, and a message whose first word names one runs it instead of going to the model. Another
 * feature adds its command here (one row); pi's prompt templates come after these (a template of the same
 * name is shadowed).
 */

/** What a built-in command may do. */
export interface SlashCommandContext {
  /** Runs an extension command by id (New Session, Fork, Select Model, Export), with its arguments. */
  runCommand(id: string, ...args: unknown[]): Promise<void>;
  /** Compact with optional focus instructions. */
  compact(focus: string | undefined): Promise<void>;
  /** Names the session (pi's `session_info` entry); an empty name asks for one. */
  rename(name: string): Promise<void>;
  /** Shows and focuses the session tree. */
  focusTree(): Promise<void>;
  /** Explore in Parallel from the leaf; `prompt` prefills the prompt question. */
  explore(prompt: string | undefined): Promise<void>;
  /** Ask Aside: a read-only side branch from the leaf; without a question, one is asked for. */
  askAside(question: string | undefined): Promise<void>;
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
    run: (a, c) => c.compact(a || undefined),
  },
  { name: "model", description: "Choose the model", run: (_a, c) => c.runCommand("agentTree.selectModel") },
  { name: "name", description: "Name this session", argumentHint: "<title>", run: (a, c) => c.rename(a) },
  { name: "tree", description: "Focus the session tree", run: (_a, c) => c.focusTree() },
  { name: "export", description: "Export the session to HTML", run: (_a, c) => c.runCommand("agentTree.exportHtml") },
  {
    name: "explore",
    description: "Explore in parallel: several branches from here at once",
    argumentHint: "[prompt]",
    run: (a, c) => c.explore(a || undefined),
  },
  {
    name: "aside",
    description: "Ask aside: a read-only side question that does not move the leaf",
    argumentHint: "<question>",
    run: (a, c) => c.askAside(a || undefined),
  },
  {
    name: "plan",
    description: "Toggle plan mode: read-only tools, the agent proposes a plan for you to approve",
    argumentHint: "[task]",
    // With a task: plan mode on, and the task sent (src/host/plan-mode-actions.ts).
    run: (a, c) => (a ? c.runCommand("agentTree.togglePlanMode", a) : c.runCommand("agentTree.togglePlanMode")),
  },
];

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
