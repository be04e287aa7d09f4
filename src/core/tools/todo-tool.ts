/**
 * `todo` {todos: [{content, status}]}: the agent's plan as a checklist (Claude Code's TodoWrite shape). Each call
 * replaces the whole list; the chat pins the newest list of the current branch above the input (todo-list.ts). It
 * changes nothing in the workspace, so it runs without asking.
 */
import { guarded, textResult } from "./tool-args.js";
import { MAX_TODOS, parseTodos, TODO_STATUSES, TODO_TOOL_NAME, todoProgress, todoResultText } from "./todo-list.js";
import type { AgentTool } from "./types.js";

/** What the model reads about the tool: when to keep a list, and how. */
const DESCRIPTION = `Keep a todo list for the current task: the user sees it as a checklist next to the chat, so it shows your plan and how far you are. Each call replaces the whole list (send every task, not only the changed ones).

Use it when:
- the task needs three or more distinct steps, or careful planning (a feature across several files, a refactor, a bug hunt);
- the user gives several tasks at once (a numbered or comma-separated list), or asks for a todo list;
- new instructions arrive mid-task: add them as tasks before you go on.

Do not use it for a single small step, a question you can answer directly, or purely conversational replies: the list then only adds noise.

How to keep it:
- Write each task as a short imperative ("Add the config loader", "Run the tests").
- Statuses: "pending" (not started), "in_progress" (working on it now), "completed" (done).
- Mark a task in_progress before you start on it, and have exactly one in_progress while you work.
- Mark a task completed as soon as it is done; do not batch several completions into one later call.
- Only mark a task completed when it is fully done: not when tests fail, the work is partial, or an error is unresolved. Keep it in_progress, and add a task for what blocks it.
- Remove tasks that are no longer relevant; add the follow-up tasks you discover.`;

/** Create the todo tool. */
export function createTodoTool(): AgentTool {
  return {
    name: TODO_TOOL_NAME,
    description: DESCRIPTION,
    parameters: {
      type: "object",
      properties: {
        todos: {
          type: "array",
          description: `The whole updated list (at most ${MAX_TODOS} tasks)`,
          items: {
            type: "object",
            properties: {
              content: { type: "string", description: "The task, as a short imperative" },
              status: { type: "string", enum: [...TODO_STATUSES] },
            },
            required: ["content", "status"],
          },
        },
      },
      required: ["todos"],
    },
    mutates: false,
    promptSnippet: "Keep a todo list of the task's steps (shown to the user as a checklist)",
    promptGuidelines: [
      "Use todo to plan tasks of three or more steps; mark each step in_progress when you start it and completed as soon as it is done.",
    ],
    execute: guarded(TODO_TOOL_NAME, async (args) => {
      const parsed = parseTodos(args);
      if (!parsed.ok) return textResult(`${TODO_TOOL_NAME}: ${parsed.error}`, true);
      return textResult(todoResultText(parsed.todos), false, { progress: todoProgress(parsed.todos) });
    }),
  };
}
