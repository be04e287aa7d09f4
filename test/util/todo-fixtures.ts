/**
 * The todo list the todo tests share (the tool, the entry view, the chat's checklist, end to end): seven tasks,
 * three done and the fourth in progress, so its progress reads `3/7` and the task in progress "Run the tests".
 */
import type { TodoItem } from "../../src/core/tools/todo-list.js";

/** Seven tasks: three completed, one in progress ("Run the tests"), three pending. */
export const SEVEN_TODOS: TodoItem[] = [
  { content: "Read the config code", status: "completed" },
  { content: "Write the loader", status: "completed" },
  { content: "Add tests", status: "completed" },
  { content: "Run the tests", status: "in_progress" },
  { content: "Update the README", status: "pending" },
  { content: "Update the changelog", status: "pending" },
  { content: "Open the pull request", status: "pending" },
];
