/**
 * One chat message. Assistant text goes through MarkdownBlock (sanitized); everything else is text nodes. The words
 * (headings, failures, notes, what a tool call acts on) come with the message from its entry's view
 * (src/core/entries/entry-view.ts); this file lays them out by role.
 */
import { ImageThumbs } from "./image-thumbs.js";
import { AttachmentChips } from "./attachment-chips.js";
import { Component, type JSX } from "preact";
import type { ChatMessageDto } from "../../src/shared/protocol.js";
import { MarkdownBlock } from "./markdown-block.js";

/**
 * Which <details> the user opened, by message and part. Rows leave the DOM when scrolled out of the chat's
 * window; a tool call opened before must still be open when its row comes back.
 */
const openDetails = new Set<string>();

/** `open` and `onToggle` for a <details> whose state outlives its element. */
function detailsState(key: string): { open: boolean; onToggle: (e: Event) => void } {
  return {
    open: openDetails.has(key),
    onToggle: (e) => {
      if ((e.currentTarget as HTMLDetailsElement).open) openDetails.add(key);
      else openDetails.delete(key);
    },
  };
}

/** Props: the message and the tool results it may pair with its calls. */
export interface ChatMessageProps {
  message: ChatMessageDto;
  results: Map<string, ChatMessageDto>;
  /** The message is being streamed right now. */
  live: boolean;
}

/** Render one message. Tool results paired with a call are shown inside that call instead. */
export function ChatMessage({ message: m, results, live }: ChatMessageProps): JSX.Element | null {
  switch (m.role) {
    case "user":
      return (
        <div class="msg msg-user" data-message-id={m.id}>
          <RoleLine message={m} />
          <div class="msg-text plain">{m.text}</div>
          {m.images ? <ImageThumbs images={m.images} /> : null}
          {m.attachments?.some((a) => a.kind !== "image") ? (
            <AttachmentChips attachments={m.attachments.filter((a) => a.kind !== "image")} />
          ) : null}
        </div>
      );
    case "assistant":
      return (
        <div class={`msg msg-assistant${live ? " live" : ""}`} data-message-id={m.id}>
          <RoleLine message={m} detail={m.model} />
          {m.thinking ? (
            <details class="thinking" {...detailsState(`${m.id}/thinking`)}>
              <summary>Thinking</summary>
              <div class="plain">{m.thinking}</div>
            </details>
          ) : null}
          {m.text !== "" ? <MarkdownBlock text={m.text} cacheKey={m.id} /> : null}
          {(m.toolCalls ?? []).map((call) => (
            <ToolCallBlock
              key={call.id}
              stateKey={`${m.id}/${call.id}`}
              name={call.name}
              label={call.label}
              hint={call.hint}
              args={call.args}
              result={results.get(call.id)}
            />
          ))}
          {m.failure !== undefined ? (
            // No role="alert": this row is mounted again whenever it scrolls back into the window, and an
            // alert would be read each time. ChatLiveRegion announces the error once, when it happens.
            <div class="msg-error">
              <span class="codicon codicon-error" aria-hidden="true" /> {m.failure}
            </div>
          ) : null}
          {live ? <span class="cursor" aria-hidden="true" /> : null}
        </div>
      );
    case "toolResult":
      // Shown with its call; a result whose call is not on the path stands alone.
      return null;
    case "bashExecution":
      // A command the user typed (`!command`): its output, while it runs too; `!!` ones stay out of the context.
      return (
        <div class={`msg msg-bash${m.excludedFromContext === true ? " msg-bash-excluded" : ""}`} data-message-id={m.id}>
          <pre class="plain">{m.text}</pre>
          {m.running === true ? (
            <div class="msg-bash-note">
              <span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Running… (Escape stops
              it)
            </div>
          ) : null}
          {m.note !== undefined ? <div class="msg-bash-note">{m.note}</div> : null}
        </div>
      );
    case "custom":
      return (
        <div class="msg msg-custom" data-message-id={m.id}>
          <RoleLine message={m} detail={m.facts?.[0]} />
          <div class="msg-text plain">{m.text}</div>
        </div>
      );
    case "branchSummary":
    case "compactionSummary":
      return (
        <details class={`msg msg-summary msg-${m.role}`} data-message-id={m.id} {...detailsState(`${m.id}/summary`)}>
          <summary>
            <span class={`codicon codicon-${m.icon}`} aria-hidden="true" /> {m.title}
          </summary>
          <MarkdownBlock text={m.text} cacheKey={m.id} />
        </details>
      );
    default: {
      const never: never = m.role;
      return never;
    }
  }
}

/**
 * ChatMessage that re-renders only when its message, its tool results or its live flag changed:
 * a streamed token must not re-diff (and re-parse the markdown of) a long conversation.
 */
export class MessageItem extends Component<ChatMessageProps> {
  override shouldComponentUpdate(next: ChatMessageProps): boolean {
    const cur = this.props;
    if (next.message !== cur.message || next.live !== cur.live) return true;
    for (const call of next.message.toolCalls ?? []) {
      if (next.results.get(call.id) !== cur.results.get(call.id)) return true;
    }
    return false;
  }

  override render(): JSX.Element | null {
    return <ChatMessage {...this.props} />;
  }
}

/** A standalone tool result (its call is not in this chat). */
export function OrphanToolResult({ message: m }: { message: ChatMessageDto }): JSX.Element {
  return (
    <div class="msg msg-tool" data-message-id={m.id}>
      <ToolCallBlock
        stateKey={`${m.id}/result`}
        name={m.toolName ?? m.title}
        label={m.facts?.[0] ?? m.title}
        hint=""
        args=""
        result={m}
      />
    </div>
  );
}

/** A message's heading: its icon and title, and a detail after them (a reply's model, a hook message's type). */
function RoleLine({ message: m, detail }: { message: ChatMessageDto; detail?: string }): JSX.Element {
  return (
    <div class="msg-role">
      <span class={`codicon codicon-${m.icon}`} aria-hidden="true" /> {m.title}
      {detail !== undefined ? <span class="msg-model"> · {detail}</span> : null}
    </div>
  );
}

function ToolCallBlock(props: {
  stateKey: string;
  name: string;
  /** The tool as rows name it, and what the call acts on (its entry's view). */
  label: string;
  hint: string;
  args: string;
  result: ChatMessageDto | undefined;
}): JSX.Element {
  const r = props.result;
  const state = r === undefined ? "running" : r.isError === true ? "error" : "done";
  const icon =
    state === "running"
      ? "codicon-loading codicon-modifier-spin"
      : state === "error"
        ? "codicon-error"
        : "codicon-check";
  return (
    <details class={`tool-call tool-${state}`} {...detailsState(props.stateKey)}>
      <summary>
        <span class={`codicon ${icon}`} aria-hidden="true" />{" "}
        <span class="tool-name" title={props.name}>
          {props.label}
        </span>{" "}
        <span class="tool-args-short">{props.hint}</span>
      </summary>
      {props.args !== "" ? <pre class="tool-args plain">{props.args}</pre> : null}
      {r !== undefined ? <pre class="tool-result plain">{r.text}</pre> : null}
    </details>
  );
}
