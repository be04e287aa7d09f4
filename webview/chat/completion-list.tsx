/**
 * The chat input's completion list: a listbox the textarea (a combobox) controls through
 * `aria-activedescendant`, so focus stays in the textarea while arrows move the active row. Rows are picked
 * with Enter/Tab (handled by the input) or a click.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { CompletionItemDto } from "../../src/shared/protocol.js";

/** The listbox's id, for the textarea's aria-controls. */
export const COMPLETION_LIST_ID = "chat-completions";

/** The id of row `index`, for aria-activedescendant. */
export function completionOptionId(index: number): string {
  return `${COMPLETION_LIST_ID}-${index}`;
}

const ICONS: Record<CompletionItemDto["kind"], string> = {
  file: "file",
  folder: "folder",
  command: "terminal",
  template: "note",
  skill: "book",
};

/** Props of the list. */
export interface CompletionListProps {
  items: readonly CompletionItemDto[];
  active: number;
  trigger: "@" | "/";
  onPick: (index: number) => void;
  onHover: (index: number) => void;
}

/** See the file comment. */
export function CompletionList(p: CompletionListProps): JSX.Element {
  const ref = useRef<HTMLUListElement>(null);
  useLayoutEffect(() => {
    ref.current?.querySelector(`#${completionOptionId(p.active)}`)?.scrollIntoView({ block: "nearest" });
  }, [p.active, p.items]);
  return (
    <ul
      ref={ref}
      id={COMPLETION_LIST_ID}
      class="completion-list"
      role="listbox"
      aria-label={p.trigger === "@" ? "Files and folders" : "Commands and prompt templates"}
    >
      {p.items.map((item, i) => (
        <li
          key={`${item.kind}:${item.root ?? ""}:${item.value}`}
          id={completionOptionId(i)}
          role="option"
          aria-selected={i === p.active}
          class={i === p.active ? "completion-item active" : "completion-item"}
          // mousedown, not click: the textarea must keep its focus and caret.
          onMouseDown={(e) => {
            e.preventDefault();
            p.onPick(i);
          }}
          onMouseMove={() => p.onHover(i)}
        >
          <span class={`codicon codicon-${ICONS[item.kind]}`} aria-hidden="true" />
          <span class="completion-value">
            {p.trigger}
            {item.value}
          </span>
          {item.hint ? <span class="completion-hint">{item.hint}</span> : null}
          {item.detail ? <span class="completion-detail">{item.detail}</span> : null}
          {item.recent ? <span class="completion-detail">recently opened</span> : null}
        </li>
      ))}
    </ul>
  );
}
