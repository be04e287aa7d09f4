/**
 * The prompt box: a native textarea (Enter sends, Shift+Enter breaks the line) with Send / Abort. While the
 * agent works it stays usable: Enter queues a follow-up and Alt+Enter steers, or the other way round as the setting
 * `agentTree.chat.enterWhileRunning` says (the placeholder tells which; see chat-queue.tsx).
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import type { QueuedKind } from "../../src/core/agent/prompt-queue.js";
import type { WebviewToHost } from "../../src/shared/protocol.js";
import { Button } from "../ui/controls.js";
import { useFocusOnArrival } from "../ui/focus-on-arrival.js";
import { useAssistedInput } from "./assisted-input.js";
import type { ChatInputAssist } from "./chat-input-assist.js";

/** Props of the input area. */
export interface ChatInputProps {
  value: string;
  onValue: (text: string) => void;
  streaming: boolean;
  disabled: boolean;
  /** The chat shows a watched parallel branch: the box itself is off (what is typed stays for the main branch). */
  locked?: boolean;
  onSend: (text: string) => void;
  onAbort: () => void;
  /** What Enter queues while streaming; Alt+Enter queues the other kind. */
  enterQueues: QueuedKind;
  /** While streaming: queue the text as a follow-up or a steering message. */
  onQueue: (kind: QueuedKind, text: string) => void;
  /** Changes whenever the host asks to fill and focus the box. */
  focusSeq: number;
  /** `@` mentions, `/` commands and dropped files (chat-input-assist.ts). */
  assist: ChatInputAssist;
  post: (msg: WebviewToHost) => void;
}

/** What a key does with the text while the agent works, as the placeholder says it. */
const VERB: Record<QueuedKind, string> = { followUp: "queues a follow-up", steer: "steers" };

/** Prompt input with its buttons. */
export function ChatInput(p: ChatInputProps): JSX.Element {
  const ref = useRef<HTMLTextAreaElement>(null);
  const assisted = useAssistedInput(p.assist, ref, p.onValue, p.post);
  // Focus on Chat View: the message box (a box that is off, while a branch is watched, takes no focus).
  useFocusOnArrival(() => ref.current);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null || p.focusSeq === 0) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [p.focusSeq]);
  // The Abort button goes away when the run ends; if it held the focus, the focus would fall to the page, and a
  // keyboard user would have to find the chat again. It goes to the message box instead.
  const abortHadFocus = useRef(false);
  useLayoutEffect(() => {
    if (p.streaming || !abortHadFocus.current) return;
    abortHadFocus.current = false;
    const active = document.activeElement;
    // Only while the view has the focus: a user who went to an editor meanwhile keeps it there.
    if (document.hasFocus() && (active === null || active === document.body)) ref.current?.focus();
  }, [p.streaming]);
  const other: QueuedKind = p.enterQueues === "steer" ? "followUp" : "steer";
  const send = (alt = false): void => {
    if (p.disabled || p.value.trim() === "") return;
    if (p.streaming) p.onQueue(alt ? other : p.enterQueues, p.value);
    else p.onSend(p.value);
  };
  const queueHint = `Enter ${VERB[p.enterQueues]}, Alt+Enter ${VERB[other]}`;
  return (
    <div class="chat-input">
      {assisted.extras}
      {assisted.list}
      <textarea
        ref={ref}
        {...assisted.aria}
        onKeyUp={assisted.onCaret}
        onClick={assisted.onCaret}
        onDragOver={assisted.onDragOver}
        onDrop={assisted.onDrop}
        onPaste={assisted.onPaste}
        aria-label="Message"
        disabled={p.locked === true}
        placeholder={
          p.locked === true
            ? "Read-only while you watch a branch (Escape goes back)"
            : p.disabled
              ? "Sending is unavailable (see above)"
              : p.streaming
                ? queueHint
                : "Ask the agent… (@ to mention a file, / for commands, ! to run a command; Enter to send)"
        }
        rows={3}
        value={p.value}
        onInput={(e) => {
          p.onValue((e.currentTarget as HTMLTextAreaElement).value);
          assisted.onCaret();
        }}
        onKeyDown={(e) => {
          if (assisted.onKeyDown(e)) return;
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send(e.altKey);
          }
          // Escape while streaming is handled once, at the document (chat-app), wherever focus is.
        }}
      />
      <div
        class="chat-input-buttons"
        onFocusIn={(e) => {
          abortHadFocus.current = (e.target as Element).getAttribute("aria-label") === "Abort";
        }}
        onFocusOut={(e) => {
          // Focus leaving for somewhere else in the view (not the removal of the button) clears the mark.
          if (e.relatedTarget !== null) abortHadFocus.current = false;
        }}
      >
        {p.streaming ? (
          <Button
            appearance="secondary"
            icon="debug-stop"
            ariaLabel="Abort"
            title="Abort (Escape)"
            onClick={p.onAbort}
          />
        ) : null}
        <Button
          icon={p.streaming ? "list-ordered" : "send"}
          ariaLabel={p.streaming ? "Queue" : "Send"}
          title={
            p.streaming ? `${p.enterQueues === "steer" ? "Steer" : "Queue a follow-up"} (${queueHint})` : "Send (Enter)"
          }
          disabled={p.disabled || p.value.trim() === ""}
          onClick={() => {
            send();
            // The box is emptied and the button disabled, which would drop the focus to the page: the next
            // message is typed in the box.
            ref.current?.focus();
          }}
        />
      </div>
    </div>
  );
}
