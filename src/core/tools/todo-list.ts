/**
 * The agent's todo list (Claude Code's TodoWrite shape): what a `todo` call holds, its checks, its progress, and the
 * list in force on a path. The list is no state of its own: it is the newest valid `todo` call on the path, so a
 * branch shows its own list and a switch shows the other branch's. Pure (no Node), for the host and the webview.
 */

import { searchEnvelopes, type PathSearch, type PathTest } from "../session/path-search.js";

/** The name of the tool (and of the calls the list is read from). */
export const TODO_TOOL_NAME = "todo";

/** Where a task stands. */
export const TODO_STATUSES = ["pending", "in_progress", "completed"] as const;

/** Where a task stands. */
export type TodoStatus = (typeof TODO_STATUSES)[number];

/** One task of the list. */
export interface TodoItem {
  content: string;
  status: TodoStatus;
}

/** Tasks one list may hold (a model that sends more gets a clear error, not a checklist the chat cannot show). */
export const MAX_TODOS = 100;
/** Characters one task's text may hold. */
export const MAX_TODO_CHARS = 500;

/** The list as a call holds it, or why it is not one (the words the model reads). */
export type TodoParse = { ok: true; todos: TodoItem[] } | { ok: false; error: string };

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Checks a call's arguments: `{ todos: [{ content, status }] }`, every content a non-empty string, every status one
 * of TODO_STATUSES. Unknown fields of a task (Claude Code's `activeForm`, `id`) are dropped, not refused.
 */
export function parseTodos(args: unknown): TodoParse {
  if (!isRecord(args)) return { ok: false, error: "the arguments must be an object" };
  const list = args.todos;
  if (!Array.isArray(list)) return { ok: false, error: 'Missing or invalid "todos": expected an array of tasks.' };
  if (list.length > MAX_TODOS) return { ok: false, error: `"todos" holds ${list.length} tasks; at most ${MAX_TODOS}.` };
  const todos: TodoItem[] = [];
  for (const [i, item] of list.entries()) {
    const at = `todos[${i}]`;
    if (!isRecord(item)) return { ok: false, error: `${at} must be an object with "content" and "status".` };
    const { content, status } = item;
    if (typeof content !== "string" || content.trim() === "")
      return { ok: false, error: `${at}.content must be a non-empty string.` };
    if (content.length > MAX_TODO_CHARS)
      return { ok: false, error: `${at}.content is ${content.length} characters; at most ${MAX_TODO_CHARS}.` };
    if (typeof status !== "string" || !(TODO_STATUSES as readonly string[]).includes(status))
      return { ok: false, error: `${at}.status must be one of ${TODO_STATUSES.map((s) => `"${s}"`).join(", ")}.` };
    todos.push({ content: content.trim(), status: status as TodoStatus });
  }
  return { ok: true, todos };
}

/** Tasks done and tasks in all. */
export interface TodoProgress {
  done: number;
  total: number;
}

/** How far the list is. */
export function todoProgress(todos: readonly TodoItem[]): TodoProgress {
  return { done: todos.filter((t) => t.status === "completed").length, total: todos.length };
}

/** `3/7`: the progress as rows and the checklist show it. */
export function progressText(p: TodoProgress): string {
  return `${p.done}/${p.total}`;
}

/**
 * The tool's result: the progress first (the tree's row reads it back, see todoRowProgress), then a reminder the
 * model reads. The list itself is in the call; it is not repeated.
 */
export function todoResultText(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return "0/0 completed. The todo list is now empty.";
  const p = todoProgress(todos);
  const next = todos.find((t) => t.status === "in_progress");
  const now = next ? ` In progress: ${next.content}.` : "";
  return (
    `${progressText(p)} completed.${now} The todo list is updated; keep it current: one task in_progress at a ` +
    "time, each marked completed as soon as it is done."
  );
}

const RESULT_PROGRESS = /^(\d+)\/(\d+) completed\./;

/**
 * The progress a `todo` result's preview starts with (todoResultText), or undefined for another text (an error, or
 * a tool of that name from elsewhere).
 */
export function todoRowProgress(preview: string): TodoProgress | undefined {
  const m = RESULT_PROGRESS.exec(preview);
  if (!m) return undefined;
  const done = Number(m[1]);
  const total = Number(m[2]);
  return done <= total ? { done, total } : undefined;
}

/** The newest valid `todo` call of an assistant message's content, or undefined when it makes none. */
export function todosOfContent(content: unknown): TodoItem[] | undefined {
  if (!Array.isArray(content)) return undefined;
  for (let i = content.length - 1; i >= 0; i--) {
    const block: unknown = content[i];
    if (!isRecord(block) || block.type !== "toolCall" || block.name !== TODO_TOOL_NAME) continue;
    const parsed = parseTodos(block.arguments);
    if (parsed.ok) return parsed.todos;
  }
  return undefined;
}

/** The fields of an envelope the todo list reads. */
export interface TodoEnvelope {
  id: string;
  type: string;
  role?: string;
  toolName?: string;
}

/** What todoListOnPath reads: a path's envelopes and an entry's body. */
export interface TodoPathSource {
  /** Envelopes root → leaf (no bodies read). */
  envelopes: readonly TodoEnvelope[];
  /** The entry's body (read only for the few entries whose envelope names a `todo` call). */
  entry(id: string): unknown;
}

/** True when an assistant envelope's tool names (`read, todo`) include the todo tool. */
function callsTodo(toolName: string | undefined): boolean {
  // Most envelopes name no todo call: a substring test first, so a long path is walked without allocating.
  if (toolName === undefined || !toolName.includes(TODO_TOOL_NAME)) return false;
  return toolName === TODO_TOOL_NAME || toolName.split(", ").includes(TODO_TOOL_NAME);
}

/** An assistant message whose newest valid `todo` call holds a list (only bodies whose envelope names one are read). */
const holdsTodoList: PathTest<TodoEnvelope> = (env, entry) =>
  env.type === "message" && env.role === "assistant" && callsTodo(env.toolName) && todosOfEntry(entry()) !== undefined;

/** The todos of an assistant message entry's body, if its content makes a valid `todo` call. */
function todosOfEntry(entry: unknown): TodoItem[] | undefined {
  const message = isRecord(entry) && isRecord(entry.message) ? entry.message : undefined;
  return message ? todosOfContent(message.content) : undefined;
}

/**
 * The todo list in force at the end of a path: the newest valid `todo` call on it; undefined when it has none.
 * Envelopes say which assistant messages call `todo` (their tool names), so only those bodies are read, newest
 * first, until one holds a valid list.
 */
export function todoListOnPath(source: TodoPathSource): TodoItem[] | undefined {
  return todoListIn(searchEnvelopes(source.envelopes, (id) => source.entry(id)));
}

/**
 * todoListOnPath at the end of the path `search` searches (a SessionManager: its leaf, from the answers its index
 * keeps, so a move or an append costs only the part of the path it changed).
 */
export function todoListIn(search: PathSearch<TodoEnvelope>): TodoItem[] | undefined {
  const env = search.newestOnPath(holdsTodoList);
  if (!env) return undefined;
  try {
    return todosOfEntry(search.getEntry(env.id));
  } catch {
    return undefined;
  }
}
