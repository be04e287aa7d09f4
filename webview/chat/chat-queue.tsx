/**
 * The messages typed while the agent works, listed above the input: each says whether it steers (delivered once
 * the current reply's tool calls have finished) or follows up (sent when the run ends), and can be edited in place (Enter saves, Escape
 * cancels) or removed. The host owns the queue; this list shows it and asks for changes.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef, useState } from "preact/hooks";
import type { QueuedMessage } from "../../src/core/agent/prompt-queue.js";
import { Button } from "../ui/controls.js";

/** Props of the queue list. */
export interface ChatQueueProps {
  items: readonly QueuedMessage[];
  onEdit: (id: string, text: string) => void;
  onRemove: (id: string) => void;
}

const KIND_LABEL: Record<QueuedMessage["kind"], string> = { steer: "Steer", followUp: "Follow-up" };
const KIND_TITLE: Record<QueuedMessage["kind"], string> = {
  steer: "Delivered once all the tool calls of the current reply have finished, before the next model request",
  followUp: "Sent as its own request when the run ends",
};

/** See the file comment. */
export function ChatQueue(p: ChatQueueProps): JSX.Element | null {
  const [editing, setEditingState] = useState<{ id: string; text: string } | undefined>(undefined);
  // Enter closes the editor, whose blur then fires with the old closure: the ref says it is already closed.
  const current = useRef(editing);
  const setEditing = (next: { id: string; text: string } | undefined): void => {
    current.current = next;
    setEditingState(next);
  };
  const editRef = useRef<HTMLTextAreaElement>(null);
  // The item whose editor Enter or Escape closed: the focus the editor had goes back to its Edit button (it would
  // fall to the page with the editor).
  const returnTo = useRef<string | undefined>(undefined);
  useLayoutEffect(() => {
    if (editRef.current !== null) return editRef.current.focus();
    const id = returnTo.current;
    returnTo.current = undefined;
    const active = document.activeElement;
    if (id === undefined || (active !== null && active !== document.body)) return;
    document.querySelector<HTMLElement>(`.chat-queue [data-queue-id="${CSS.escape(id)}"] vscode-button`)?.focus();
  }, [editing?.id]);
  if (p.items.length === 0) return null;
  // An item delivered while being edited is gone: its editor goes with it.
  const edited = editing && p.items.some((i) => i.id === editing.id) ? editing : undefined;
  // Leaving the editor saves; unchanged text (Escape, or a blur as the editor closes) asks the host for nothing.
  const save = (): void => {
    const open = current.current;
    if (!open) return;
    if (p.items.find((i) => i.id === open.id)?.text !== open.text) p.onEdit(open.id, open.text);
    setEditing(undefined);
  };
  return (
    <ul class="chat-queue" aria-label="Queued messages">
      {p.items.map((item) => (
        <li class={`queued queued-${item.kind}`} key={item.id} data-queue-id={item.id}>
          <span class="queued-kind" title={KIND_TITLE[item.kind]}>
            {KIND_LABEL[item.kind]}
          </span>
          {edited?.id === item.id ? (
            <textarea
              ref={editRef}
              class="queued-editor"
              aria-label="Edit queued message"
              rows={2}
              value={edited.text}
              onInput={(e) => setEditing({ id: item.id, text: (e.currentTarget as HTMLTextAreaElement).value })}
              onKeyDown={(e) => {
                if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
                  e.preventDefault();
                  returnTo.current = item.id;
                  save();
                } else if (e.key === "Escape") {
                  // Cancels the edit only; the run goes on.
                  e.preventDefault();
                  e.stopPropagation();
                  returnTo.current = item.id;
                  setEditing(undefined);
                }
              }}
              onBlur={save}
            />
          ) : (
            <span class="queued-text">
              {item.text}
              {item.attachmentCount ? (
                <span class="queued-kind">
                  {" "}
                  (+{item.attachmentCount} attachment{item.attachmentCount === 1 ? "" : "s"})
                </span>
              ) : null}
            </span>
          )}
          <Button
            appearance="icon"
            icon="edit"
            ariaLabel={`Edit queued message: ${item.text.slice(0, 40)}`}
            onClick={() => setEditing({ id: item.id, text: item.text })}
          />
          <Button
            appearance="icon"
            icon="close"
            ariaLabel={`Remove queued message: ${item.text.slice(0, 40)}`}
            onClick={() => p.onRemove(item.id)}
          />
        </li>
      ))}
    </ul>
  );
}
