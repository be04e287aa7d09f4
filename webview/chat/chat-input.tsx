/**
 * The prompt box: a native textarea (Enter sends, Shift+Enter breaks the line) with Send / Abort. While the
 * agent works it stays usable: Enter queues a follow-up, Alt+Enter steers (see chat-queue.tsx).
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import { Button } from "../ui/controls.js";

/** Props of the input area. */
export interface ChatInputProps {
  value: string;
  onValue: (text: string) => void;
  streaming: boolean;
  disabled: boolean;
  onSend: (text: string) => void;
  onAbort: () => void;
  /** While streaming: queue the text as a follow-up (Enter) or a steering message (Alt+Enter). */
  onQueue: (kind: "followUp" | "steer", text: string) => void;
  /** Changes whenever the host asks to fill and focus the box. */
  focusSeq: number;
}

/** Prompt input with its buttons. */
export function ChatInput(p: ChatInputProps): JSX.Element {
  const ref = useRef<HTMLTextAreaElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (el === null || p.focusSeq === 0) return;
    el.focus();
    el.setSelectionRange(el.value.length, el.value.length);
  }, [p.focusSeq]);
  const send = (steer = false): void => {
    if (p.disabled || p.value.trim() === "") return;
    if (p.streaming) p.onQueue(steer ? "steer" : "followUp", p.value);
    else p.onSend(p.value);
  };
  return (
    <div class="chat-input">
      <textarea
        ref={ref}
        aria-label="Message"
        placeholder={
          p.disabled
            ? "Sending is unavailable (see above)"
            : p.streaming
              ? "Enter queues a follow-up, Alt+Enter steers"
              : "Ask the agent… (Enter to send, Shift+Enter for a new line)"
        }
        rows={3}
        value={p.value}
        onInput={(e) => p.onValue((e.currentTarget as HTMLTextAreaElement).value)}
        onKeyDown={(e) => {
          if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
            e.preventDefault();
            send(e.altKey);
          }
          // Escape while streaming is handled once, at the document (chat-app), wherever focus is.
        }}
      />
      <div class="chat-input-buttons">
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
          title={p.streaming ? "Queue a follow-up (Enter); Alt+Enter steers" : "Send (Enter)"}
          disabled={p.disabled || p.value.trim() === ""}
          onClick={() => send()}
        />
      </div>
    </div>
  );
}
