/**
 * The chat input's built-in `/` commands, in one table: the completion list shows each with its description
 * and argument hint, and a message whose first word names one runs it instead of going to the model. Each names the
 * extension command it runs — an operation of the operations table runs through it (its guards, its refusals, as
 * from the palette), with the text after the name as its input; another command runs as the palette runs it. Another
 * feature adds its command here (one row). pi's built-ins are here too, mapped onto the extension's commands
 * (pi-commands.ts does what no command does); those Agent Tree lacks say so rather than go to the model. pi's prompt
 * templates come after these: a template of the same name is shadowed, except by a command Agent Tree lacks.
 */
import type { CommandId } from "../common/command-ids.js";
import type { Operations } from "../operations/operations.js";

/** What pi's commands do here that no command id does (pi-commands.ts). */
export interface PiCommandActions {
  /** `/copy`: the last reply's text on the path to the clipboard. */
  copyLastReply(): Promise<void>;
  /** `/session`: pi's session information and statistics. */
  showSessionInfo(): Promise<void>;
  /** `/clone`: the session at its leaf into a new file. */
  clone(): Promise<void>;
  /** `/fork`: a new session from an earlier user message of the path (picked). */
  forkFromUserMessage(): Promise<void>;
  /** `/export <path>`: `.jsonl` the branch as pi writes it, else the HTML page, to `path` (no save dialog). */
  exportTo(path: string): Promise<void>;
  /** `/import <path>`: a pi session file copied into this workspace's session folder, then opened. */
  importSession(path: string): Promise<void>;
  /** `/reload`: the instructions, skills and prompt templates read again. */
  reload(): Promise<void>;
  /** `/thinking <level>`. */
  setThinkingLevel(level: string): Promise<void>;
  /** `/login <provider>`. */
  logIn(provider: string): Promise<void>;
  /** `/settings`: the extension's settings. */
  openSettings(): Promise<void>;
  /** `/hotkeys`: the keyboard shortcuts of the extension. */
  openHotkeys(): Promise<void>;
  /** Tells the user something (the chat's status line). */
  say(text: string): void;
}

/** What a built-in command may do. */
export interface SlashCommandContext {
  /** Runs an extension command by id; `input` goes to an operation of the table (`/compact <focus>`). */
  runCommand(id: CommandId, input?: string): Promise<void>;
  /** Shows and focuses the session tree. */
  focusTree(): Promise<void>;
  pi: PiCommandActions;
}

/** One built-in command. */
export interface SlashCommand {
  /** Without its slash. */
  name: string;
  description: string;
  /** `<required>` / `[optional]`, as pi's templates write it. */
  argumentHint?: string;
  /**
   * A pi command Agent Tree does not have: it only says so, and a prompt template of the same name (the user's own)
   * runs instead.
   */
  absent?: true;
  /** `args`: the text after the name, trimmed. */
  run(args: string, ctx: SlashCommandContext): Promise<void>;
}

/**
 * The path argument of `/export` and `/import` as pi reads it: the first word, or a quoted string (so a path with
 * spaces is quoted). Undefined when there is none.
 */
export function pathArgument(args: string): string | undefined {
  const a = args.trim();
  if (a === "") return undefined;
  const q = a[0];
  if (q === '"' || q === "'") {
    const end = a.indexOf(q, 1);
    return end < 0 ? undefined : a.slice(1, end) || undefined;
  }
  return a.split(/\s/, 1)[0];
}

/** A pi command that has no counterpart here: says so, with the nearest thing when there is one. */
function absent(name: string, description: string, nearest?: string): SlashCommand {
  return {
    name,
    description: `pi's ${description.charAt(0).toLowerCase()}${description.slice(1)} — not in Agent Tree`,
    absent: true,
    run: async (_a, c) =>
      c.pi.say(`/${name} is a pi command that Agent Tree does not have${nearest ? `; ${nearest}` : "."}`),
  };
}

/** The built-ins, in the order the list shows them: Agent Tree's, then pi's others, then pi's absent ones. */
export const SLASH_COMMANDS: readonly SlashCommand[] = [
  { name: "new", description: "Start a new session", run: (_a, c) => c.runCommand("agentTree.newSession") },
  {
    name: "fork",
    description: "Create a new session from an earlier user message",
    run: (_a, c) => c.pi.forkFromUserMessage(),
  },
  {
    name: "clone",
    description: "Duplicate the session at its current position",
    run: (_a, c) => c.pi.clone(),
  },
  {
    name: "compact",
    description: "Summarize older history to free context",
    argumentHint: "[focus]",
    run: (a, c) => c.runCommand("agentTree.compact", a),
  },
  { name: "model", description: "Choose the model", run: (_a, c) => c.runCommand("agentTree.selectModel") },
  {
    name: "thinking",
    description: "Set the thinking level",
    argumentHint: "[level]",
    run: (a, c) => (a ? c.pi.setThinkingLevel(a) : c.runCommand("agentTree.selectThinkingLevel")),
  },
  {
    name: "name",
    description: "Name this session",
    argumentHint: "<title>",
    run: (a, c) => c.runCommand("agentTree.renameSession", a),
  },
  { name: "tree", description: "Focus the session tree", run: (_a, c) => c.focusTree() },
  { name: "resume", description: "Open another session", run: (_a, c) => c.runCommand("agentTree.openSession") },
  {
    name: "session",
    description: "Show session information and statistics",
    run: (_a, c) => c.pi.showSessionInfo(),
  },
  { name: "copy", description: "Copy the last assistant message", run: (_a, c) => c.pi.copyLastReply() },
  {
    name: "export",
    description: "Export the session to HTML (a .jsonl path: the branch as JSONL)",
    argumentHint: "[path]",
    run: (a, c) => {
      const file = pathArgument(a);
      return file ? c.pi.exportTo(file) : c.runCommand("agentTree.exportHtml");
    },
  },
  {
    name: "import",
    description: "Import a pi JSONL session, keeping its id and working directory",
    argumentHint: "<path>",
    run: async (a, c) => {
      const file = pathArgument(a);
      return file ? c.pi.importSession(file) : c.pi.say("Usage: /import <path.jsonl>");
    },
  },
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
  { name: "settings", description: "Open Agent Tree's settings", run: (_a, c) => c.pi.openSettings() },
  {
    name: "login",
    description: "Log in to a provider",
    argumentHint: "[provider]",
    run: (a, c) => (a ? c.pi.logIn(a) : c.runCommand("agentTree.logIn")),
  },
  { name: "logout", description: "Log out of a provider", run: (_a, c) => c.runCommand("agentTree.logOut") },
  { name: "mcp", description: "Show the MCP servers", run: (_a, c) => c.runCommand("agentTree.showMcpServers") },
  {
    name: "reload",
    description: "Read the instructions, skills and prompt templates again",
    run: (_a, c) => c.pi.reload(),
  },
  { name: "hotkeys", description: "Show Agent Tree's keyboard shortcuts", run: (_a, c) => c.pi.openHotkeys() },
  absent("share", "Upload the session and return a viewer link", "/export writes an HTML page you can share"),
  absent("bug", "Prepare a bug report for the pi developers"),
  absent("trust", "Save a project trust decision", "VS Code's Workspace Trust decides (Manage Workspace Trust)"),
  absent(
    "scoped-models",
    "Configure the models used by cycling",
    "the agentTree.models.enabled setting lists the models Agent: Next Model cycles through",
  ),
  absent("llama", "Manage models on a llama.cpp router", "/model picks any model a provider offers"),
  absent("changelog", "Show changelog entries", "the extension's page in the Extensions view lists its changes"),
  absent("quit", "Quit pi", "close the chat view or the window"),
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
  pi: PiCommandActions;
}): SlashCommandContext {
  return {
    runCommand: (id, input) =>
      d.operations.spec(id) ? d.operations.run(id, undefined, input) : d.executeCommand(id, input),
    focusTree: () => d.focusTree(),
    pi: d.pi,
  };
}

/**
 * The built-in `text` invokes (`/name args`), with its arguments; undefined when it names none. A pi command Agent
 * Tree lacks gives way to a prompt template of its name (`templates`: the names of those in force).
 */
export function matchSlashCommand(
  text: string,
  commands: readonly SlashCommand[] = SLASH_COMMANDS,
  templates: ReadonlySet<string> = new Set(),
): { command: SlashCommand; args: string } | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return undefined;
  const command = shownCommands(commands, templates).find((c) => c.name === m[1]);
  return command ? { command, args: (m[2] ?? "").trim() } : undefined;
}

/** The built-ins in force beside the prompt templates named `templates` (see matchSlashCommand). */
export function shownCommands(commands: readonly SlashCommand[], templates: ReadonlySet<string>): SlashCommand[] {
  return commands.filter((c) => !(c.absent && templates.has(c.name)));
}
