/**
 * The agent's todo list, pinned above the input: one line with its progress (`3/7`) and the task in progress,
 * expanded to the whole checklist by its button (a disclosure: Enter or Space, `aria-expanded`). The list is the
 * current path's (its newest valid `todo` call, src/core/tools/todo-list.ts): a switch of branch shows that branch's.
 */
import type { JSX } from "preact";
import { useState } from "preact/hooks";
import { progressText, todoProgress, type TodoItem, type TodoStatus } from "../../src/core/tools/todo-list.js";

/** Props of the checklist. */
export interface ChatTodosProps {
  /** The path's list; none (or empty): nothing shows. */
  todos: readonly TodoItem[] | undefined;
}

const ICON: Record<TodoStatus, string> = {
  pending: "circle-large-outline",
  in_progress: "arrow-circle-right",
  completed: "pass-filled",
};

/** How a screen reader names a status (the icon alone says nothing). */
const STATUS_WORD: Record<TodoStatus, string> = { pending: "to do", in_progress: "in progress", completed: "done" };

const LIST_ID = "chat-todos-list";

/** See the file comment. */
export function ChatTodos({ todos }: ChatTodosProps): JSX.Element | null {
  const [expanded, setExpanded] = useState(false);
  if (!todos || todos.length === 0) return null;
  const progress = progressText(todoProgress(todos));
  const current = todos.find((t) => t.status === "in_progress") ?? todos.find((t) => t.status === "pending");
  return (
    <section class={`chat-todos${expanded ? " expanded" : ""}`} aria-label="Todo list">
      <button
        type="button"
        class="chat-todos-summary"
        aria-expanded={expanded}
        aria-controls={LIST_ID}
        title={expanded ? "Collapse the todo list" : "Show the whole todo list"}
        onClick={() => setExpanded((e) => !e)}
      >
        <span class={`codicon codicon-chevron-${expanded ? "down" : "right"}`} aria-hidden="true" />
        <span class="chat-todos-title">Todo</span>
        <span class="chat-todos-progress">{progress}</span>
        <span class="visually-hidden"> done</span>
        {current && !expanded ? <span class="chat-todos-current">{current.content}</span> : null}
      </button>
      {expanded ? (
        <ul id={LIST_ID} class="chat-todos-list">
          {todos.map((t, i) => (
            <li key={i} class={`todo todo-${t.status}`}>
              <span class={`codicon codicon-${ICON[t.status]}`} aria-hidden="true" />
              <span class="todo-text">{t.content}</span>
              <span class="visually-hidden"> ({STATUS_WORD[t.status]})</span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
