/**
 * What a tool call or a tool result says in one line, decided once for the chat's collapsed calls, the tree's rows,
 * the exported page, the compare view and the summaries: the tool as rows name it (an MCP tool as `server/tool`,
 * src/core/mcp/mcp-display.ts) and what it acts on (its command, path, pattern, URL or query; for `todo`, the list's
 * progress, `todo 3/7`).
 *
 * Pure (no Node): the webviews and the exported page bundle it.
 */
import { toolLabel } from "../mcp/mcp-display.js";
import { parseTodos, progressText, TODO_TOOL_NAME, todoProgress, todoRowProgress } from "../tools/todo-list.js";

/** Longest hint a summary carries. */
const HINT_CHARS = 120;

/** The arguments that say best what a call acts on, in the order they are looked for. */
const HINT_ARGUMENTS = ["command", "path", "file_path", "pattern", "url", "query"] as const;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? flat.slice(0, max - 1) + "…" : flat;
}

/**
 * What a call acts on, one line: a `todo` call's progress (`3/7`); else its command, path, pattern, URL (`web_fetch`)
 * or query; else its first string argument; "" when it has none.
 */
export function toolCallHint(name: string, args: unknown): string {
  if (name === TODO_TOOL_NAME) {
    const parsed = parseTodos(args);
    if (parsed.ok) return progressText(todoProgress(parsed.todos));
  }
  if (!isRecord(args)) return "";
  const named = HINT_ARGUMENTS.map((k) => args[k]).find((v) => typeof v === "string" && v.trim() !== "");
  const first = named ?? Object.values(args).find((v) => typeof v === "string" && v.trim() !== "");
  return typeof first === "string" ? oneLine(first, HINT_CHARS) : "";
}

/** A call in one line: `read src/app.ts`, `bash npm test`, `todo 3/7`, `docs/search rust` (an MCP tool). */
export function toolCallSummary(name: string, args: unknown): string {
  const hint = toolCallHint(name, args);
  return hint === "" ? toolLabel(name) : `${toolLabel(name)} ${hint}`;
}

/**
 * A `todo` result's progress (`3/7`), read back from the start of its text (src/core/tools/todo-list.ts); undefined
 * for another tool, or an error. Works on a row's 200-character preview as on the whole text, so the tree (built
 * from the store's bytes) and every other view read the same progress.
 */
export function todoResultProgress(name: string, text: string): string | undefined {
  const todo = name === TODO_TOOL_NAME ? todoRowProgress(text) : undefined;
  return todo ? progressText(todo) : undefined;
}

/** What a tool result is about, in one line: `todo 3/7` for a todo list, else the tool as rows name it. */
export function toolResultSubject(name: string, text: string): string {
  const progress = todoResultProgress(name, text);
  return progress !== undefined ? `${TODO_TOOL_NAME} ${progress}` : toolLabel(name);
}
