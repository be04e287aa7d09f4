/**
 * Claude Code tool names and arguments → pi's (read, write, edit, bash, grep, find, ls), so a continued session
 * replays tool calls the agent's own tools understand. Unknown tools are kept as they are.
 */

/** A tool call after mapping. */
export interface MappedToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

const NAME_MAP: Readonly<Record<string, string>> = {
  Read: "read",
  Write: "write",
  Edit: "edit",
  Bash: "bash",
  Grep: "grep",
  Glob: "find",
  LS: "ls",
};

/** pi's name for a Claude Code tool (unchanged when pi has no equivalent). */
export function mapClaudeToolName(name: string): string {
  return Object.prototype.hasOwnProperty.call(NAME_MAP, name) ? NAME_MAP[name] : name;
}

/** Copy `from[src]` to `to[dst]` when present. */
function move(from: Record<string, unknown>, to: Record<string, unknown>, src: string, dst: string): void {
  if (from[src] !== undefined) to[dst] = from[src];
}

/** Map a Claude Code tool call (name and input) to pi's shape. */
export function mapClaudeToolCall(name: string, input: Record<string, unknown>): MappedToolCall {
  const out: Record<string, unknown> = {};
  switch (name) {
    case "Read":
      move(input, out, "file_path", "path");
      move(input, out, "offset", "offset");
      move(input, out, "limit", "limit");
      break;
    case "Write":
      move(input, out, "file_path", "path");
      move(input, out, "content", "content");
      break;
    case "Edit":
      move(input, out, "file_path", "path");
      move(input, out, "old_string", "oldText");
      move(input, out, "new_string", "newText");
      break;
    case "Bash":
      move(input, out, "command", "command");
      // Claude Code counts milliseconds, pi seconds.
      if (typeof input.timeout === "number") out.timeout = Math.max(1, Math.round(input.timeout / 1000));
      break;
    case "Grep":
      move(input, out, "pattern", "pattern");
      move(input, out, "path", "path");
      move(input, out, "glob", "glob");
      move(input, out, "-i", "ignoreCase");
      move(input, out, "-C", "context");
      move(input, out, "head_limit", "limit");
      break;
    case "Glob":
      move(input, out, "pattern", "pattern");
      move(input, out, "path", "path");
      break;
    case "LS":
      move(input, out, "path", "path");
      break;
    default:
      return { name, arguments: input };
  }
  return { name: mapClaudeToolName(name), arguments: out };
}
