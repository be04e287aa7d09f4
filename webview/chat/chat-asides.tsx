/**
 * Ask Aside answers in the chat: each marked as an aside (its question, then the answer), below the path's
 * messages and apart from them — the aside runs on a side branch, so it is neither the leaf nor in the context. An
 * answered aside offers **Continue as Branch** (the host's operation decides whether it may run).
 */
import type { JSX } from "preact";
import type { AsideDto } from "../../src/shared/protocol.js";
import { Button } from "../ui/controls.js";
import { MarkdownBlock } from "./markdown-block.js";

const STATE_TEXT: Record<AsideDto["state"], string> = {
  running: "answering…",
  done: "answered",
  failed: "failed",
  stopped: "stopped",
};

/** The asides of the conversation shown, oldest first; nothing when there are none. */
export function ChatAsides({
  asides,
  onContinue,
}: {
  asides: readonly AsideDto[];
  /** Continue as Branch on the aside (its id); none: not offered (a watched branch is shown). */
  onContinue?: (asideId: string) => void;
}): JSX.Element | null {
  if (asides.length === 0) return null;
  return (
    <div class="chat-asides">
      {asides.map((a) => (
        <section class="msg msg-aside" data-aside-id={a.id} key={a.id} aria-label={`Aside: ${a.question}`}>
          <div class="msg-role">
            <span class="codicon codicon-comment-discussion" aria-hidden="true" /> Aside
            {a.model !== undefined ? <span class="msg-model"> · {a.model}</span> : null}
            <span class="aside-state"> · {STATE_TEXT[a.state]}</span>
          </div>
          <div class="aside-question plain">{a.question}</div>
          {a.text !== "" ? <MarkdownBlock text={a.text} class="aside-answer" /> : null}
          {a.error !== undefined ? <div class="msg-error">{a.error}</div> : null}
          {onContinue && a.state === "done" ? (
            <div class="aside-actions">
              <Button
                appearance="secondary"
                icon="git-branch"
                title="Move the leaf to this answer and go on from it with every tool"
                onClick={() => onContinue(a.id)}
              >
                Continue as Branch
              </Button>
            </div>
          ) : null}
        </section>
      ))}
    </div>
  );
}
