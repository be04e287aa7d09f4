/**
 * Chat view root: header (model picker, session commands), the messages of the current path,
 * approval prompts, token/cost line and the input box.
 */
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "preact/hooks";
import type { HostToWebview, WebviewCommand, WebviewToHost } from "../../src/shared/protocol.js";
import { StatusLine } from "../status-line.js";
import { Button, Dropdown } from "../ui/controls.js";
import { ChatAsides } from "./chat-asides.js";
import { ChatInput } from "./chat-input.js";
import { ChatList } from "./chat-list.js";
import { ChatLiveRegion } from "./chat-live-region.js";
import { ChatModel, type ChatUsage } from "./chat-model.js";

/** Props: persisted state and the host channel. */
export interface ChatAppProps {
  initialState: Record<string, unknown> | undefined;
  saveState: (state: Record<string, unknown>) => void;
  post: (msg: WebviewToHost) => void;
  subscribeHost: (fn: (msg: HostToWebview) => void) => () => void;
}

const COMMANDS: readonly { command: WebviewCommand; icon: string; label: string }[] = [
  { command: "newSession", icon: "add", label: "New Session" },
  { command: "openSession", icon: "folder-opened", label: "Open Session…" },
  { command: "compact", icon: "fold", label: "Compact" },
  { command: "exportHtml", icon: "export", label: "Export to HTML" },
  { command: "setApiKey", icon: "key", label: "Set API Key" },
];

/** The chat view application. */
export function ChatApp(props: ChatAppProps): JSX.Element {
  const model = useMemo(() => new ChatModel(), []);
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const [draft, setDraft] = useState(typeof props.initialState?.draft === "string" ? props.initialState.draft : "");
  // Bumped on send: the list follows the bottom again whatever the user scrolled to.
  const [followSeq, setFollowSeq] = useState(0);
  const lastInputSeq = useRef(0);

  // Layout effects run inside render(), so these exist before `ready` is posted.
  useLayoutEffect(() => props.subscribeHost((msg) => void model.apply(msg)), [model]);
  useLayoutEffect(() => model.subscribe(() => bump(0)), [model]);

  if (model.inputRequest.seq !== lastInputSeq.current) {
    lastInputSeq.current = model.inputRequest.seq;
    if (draft !== model.inputRequest.text) setDraft(model.inputRequest.text);
  }

  useEffect(() => {
    const t = window.setTimeout(() => props.saveState({ draft }), 300);
    return () => window.clearTimeout(t);
  }, [draft]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === "Escape" && model.streaming) {
        e.preventDefault();
        props.post({ type: "chat/abort" });
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [model]);

  const modelOptions = model.models.map((m) => ({ value: m.key, label: `${m.name} · ${m.provider}` }));
  // The host sets a reason whenever sending cannot work (no model, no key for it, read-only session).
  const noModel = model.noModelReason !== undefined;

  return (
    <div class="app chat-app">
      <div class="chat-header toolbar">
        {modelOptions.length > 0 ? (
          <Dropdown
            class="model-picker"
            ariaLabel="Model"
            value={model.currentModelKey ?? modelOptions[0].value}
            options={modelOptions}
            onChange={(key) => {
              model.currentModelKey = key;
              props.post({ type: "chat/selectModel", key });
              bump(0);
            }}
          />
        ) : (
          <span class="model-name">{model.model?.name ?? "No model"}</span>
        )}
        <span class="spacer" />
        {COMMANDS.map((c) => (
          <Button
            key={c.command}
            appearance="icon"
            icon={c.icon}
            ariaLabel={c.label}
            onClick={() => props.post({ type: "command", command: c.command })}
          />
        ))}
      </div>
      {model.streaming ? <div class="progress-bar" role="progressbar" aria-label="Agent is working" /> : null}
      <ChatList
        messages={model.messages}
        streaming={model.streaming}
        // Another conversation (new session, another branch far away) is shown from its end, like a new one.
        followSeq={followSeq + model.resetSeq}
        hasOlder={model.start > 0}
        onNeedOlder={() => {
          const request = model.requestOlder();
          if (request) props.post(request);
        }}
        header={
          model.loaded && model.messages.length === 0 ? (
            <div class="chat-empty">Start the conversation below.</div>
          ) : null
        }
        footer={
          <>
            <ChatAsides asides={model.asides} />
            {noModel ? (
              <div class="notice" role="note">
                <span class="codicon codicon-warning" aria-hidden="true" /> <span>{model.noModelReason}</span>{" "}
                <Button appearance="secondary" onClick={() => props.post({ type: "command", command: "setApiKey" })}>
                  Set API Key
                </Button>
              </div>
            ) : null}
          </>
        }
      />
      {model.approvals.map((a) => (
        <div class="approval" role="alertdialog" aria-label={`Approve ${a.toolName}`} key={a.toolCallId}>
          <div class="approval-text">
            <span class="codicon codicon-shield" aria-hidden="true" /> <strong>{a.toolName}</strong> wants to run:
            <pre class="plain">{a.summary}</pre>
          </div>
          <div class="approval-buttons">
            <Button onClick={() => answer(a.toolCallId, true, false)}>Allow</Button>
            <Button appearance="secondary" onClick={() => answer(a.toolCallId, true, true)}>
              Allow always
            </Button>
            <Button appearance="secondary" onClick={() => answer(a.toolCallId, false, false)}>
              Deny
            </Button>
          </div>
        </div>
      ))}
      <UsageLine usage={model.usage} />
      <ChatInput
        value={draft}
        onValue={setDraft}
        streaming={model.streaming}
        disabled={noModel}
        focusSeq={model.inputRequest.seq}
        onSend={(text) => {
          props.post({ type: "chat/submit", text });
          setDraft("");
          setFollowSeq((n) => n + 1);
        }}
        onAbort={() => props.post({ type: "chat/abort" })}
      />
      <StatusLine subscribeHost={props.subscribeHost} />
      <ChatLiveRegion subscribeHost={props.subscribeHost} />
    </div>
  );

  function answer(toolCallId: string, approved: boolean, always: boolean): void {
    props.post({ type: "chat/approve", toolCallId, approved, ...(always ? { always: true } : {}) });
    model.answered(toolCallId);
  }
}

/** Token and cost use, and how full the context window is. */
function UsageLine({ usage }: { usage: ChatUsage }): JSX.Element {
  const pct = usage.contextWindow > 0 ? Math.round((usage.contextTokens / usage.contextWindow) * 100) : undefined;
  return (
    <div class="usage-line" aria-label="Token use">
      <span title="Input tokens">↑{fmt(usage.input)}</span> <span title="Output tokens">↓{fmt(usage.output)}</span>{" "}
      <span title="Cost (USD)">${usage.cost.toFixed(usage.cost < 1 ? 4 : 2)}</span>
      {pct !== undefined ? (
        <span title="Context window use">
          {" "}
          · ctx {fmt(usage.contextTokens)}/{fmt(usage.contextWindow)} ({pct}%)
        </span>
      ) : null}
    </div>
  );
}

function fmt(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}
