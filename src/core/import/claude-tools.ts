/**
 * Claude Code tool names and arguments → pi's (read, write, edit, bash, grep, find, ls), so a continued session
 * replays tool calls the agent's own tools understand. Unknown tools are kept as they are.
 */

/** A tool call after mapping. */
export interface MappedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** A Claude Code tool's pi name, and the arguments pi's tool takes from its input (Claude Code's name → pi's). */
interface ToolMapping {
  name: string;
  args: Readonly<Record<string, string>>;
}

const TOOLS: Readonly<Record<string, ToolMapping>> = {
  Read: { name: "read", args: { file_path: "path", offset: "offset", limit: "limit" } },
  Write: { name: "write", args: { file_path: "path", content: "content" } },
  Edit: { name: "edit", args: { file_path: "path", old_string: "oldText", new_string: "newText" } },
  // Its timeout is converted too (mapClaudeToolCall).
  Bash: { name: "bash", args: { command: "command" } },
  Grep: {
    name: "grep",
    args: { pattern: "pattern", path: "path", glob: "glob", "-i": "ignoreCase", "-C": "context", head_limit: "limit" },
  },
  Glob: { name: "find", args: { pattern: "pattern", path: "path" } },
  LS: { name: "ls", args: { path: "path" } },
};

function toolMapping(name: string): ToolMapping | undefined {
  return Object.prototype.hasOwnProperty.call(TOOLS, name) ? TOOLS[name] : undefined;
}

/** pi's name for a Claude Code tool (unchanged when pi has no equivalent). */
export function mapClaudeToolName(name: string): string {
  return toolMapping(name)?.name ?? name;
}

/** Map a Claude Code tool call (name and input) to pi's shape. */
export function mapClaudeToolCall(name: string, input: Record<string, unknown>): MappedToolCall {
  const tool = toolMapping(name);
  if (!tool) return { name, arguments: input };
  const out: Record<string, unknown> = {};
  for (const [from, to] of Object.entries(tool.args)) if (input[from] !== undefined) out[to] = input[from];
  // Claude Code counts milliseconds, pi seconds.
  if (name === "Bash" && typeof input.timeout === "number") out.timeout = Math.max(1, Math.round(input.timeout / 1000));
  return { name: tool.name, arguments: out };
}
