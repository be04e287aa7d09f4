/**
 * Chat view root: header (model picker, session commands), the messages of the current path,
 * approval prompts, token/cost line and the input box.
 */
import { textOnlyModelMessage } from "../../src/core/mentions/image-attachment.js";
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "preact/hooks";
import type { HostToWebview, WebviewCommand, WebviewToHost } from "../../src/shared/protocol.js";
import { StatusLine } from "../status-line.js";
import { Button, ButtonRow, Dropdown, type RowButton } from "../ui/controls.js";
import { ChatApproval, type ApprovalAnswer } from "./chat-approval.js";
import { ChatChanges } from "./chat-changes.js";
import { ChatAsides } from "./chat-asides.js";
import { ChatInput } from "./chat-input.js";
import { ChatInputAssist } from "./chat-input-assist.js";
import { ChatQueue } from "./chat-queue.js";
import { ChatTodos } from "./chat-todos.js";
import { ChatPlanActions, ChatPlanBadge, planToApprove } from "./chat-plan.js";
import { ChatList } from "./chat-list.js";
import { ChatLiveRegion } from "./chat-live-region.js";
import type { ChatUsage } from "../../src/shared/protocol.js";
import { ChatModel } from "./chat-model.js";
import { ChatWatchBanner } from "./chat-watch-banner.js";

/** Props: persisted state and the host channel. */
export interface ChatAppProps {
  initialState: Record<string, unknown> | undefined;
  saveState: (state: Record<string, unknown>) => void;
  post: (msg: WebviewToHost) => void;
  subscribeHost: (fn: (msg: HostToWebview) => void) => () => void;
}

const COMMANDS: readonly RowButton<WebviewCommand>[] = [
  { value: "newSession", icon: "add", ariaLabel: "New Session" },
  { value: "openSession", icon: "folder-opened", ariaLabel: "Open Session…" },
  { value: "compact", icon: "fold", ariaLabel: "Compact" },
  { value: "exportHtml", icon: "export", ariaLabel: "Export to HTML" },
  { value: "setApiKey", icon: "key", ariaLabel: "Set API Key" },
];

/** The chat view application. */
export function ChatApp(props: ChatAppProps): JSX.Element {
  const model = useMemo(() => new ChatModel(), []);
  const rowKeyOf = useMemo(() => (id: string) => model.rowKeyOf(id), [model]);
  const assist = useMemo(() => new ChatInputAssist(props.post), []);
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const [draft, setDraft] = useState(typeof props.initialState?.draft === "string" ? props.initialState.draft : "");
  const draftRef = useRef(draft);
  draftRef.current = draft;
  // Bumped on send: the list follows the bottom again whatever the user scrolled to.
  const [followSeq, setFollowSeq] = useState(0);
  const lastInputSeq = useRef(0);
  // Keep Planning: the plan's buttons go (until the next plan) and the input takes the focus.
  const [keptPlan, setKeptPlan] = useState<string | undefined>(undefined);
  // Bumped when the message box should take the focus (Keep Planning, the last approval prompt answered).
  const [inputFocus, setInputFocus] = useState(0);
  // An approval prompt or a queued message had the focus (a keyboard user on its buttons). When it goes — answered,
  // removed, delivered, taken back by the host — its focused button goes with it and the focus would fall to the
  // page: it goes to the next prompt, or else to the message box (as the Abort button's does, chat-input.tsx).
  const promptHadFocus = useRef(false);
  useLayoutEffect(() => {
    if (!promptHadFocus.current) return;
    const active = document.activeElement;
    if (active !== null && active !== document.body) return;
    promptHadFocus.current = false;
    // Only while the view has the focus: a user who went to an editor meanwhile keeps it there.
    if (!document.hasFocus()) return;
    const next = document.querySelector<HTMLElement>(".approval vscode-button");
    if (next !== null) next.focus();
    else setInputFocus((n) => n + 1);
  });
  const lastRestoreSeq = useRef(0);

  // Layout effects run inside render(), so these exist before `ready` is posted.
  useLayoutEffect(() => props.subscribeHost((msg) => void model.apply(msg)), [model]);
  useLayoutEffect(
    () =>
      props.subscribeHost((msg) => {
        if (msg.type === "chat/addMention")
          void model.apply({ type: "chat/setInput", text: assist.addMention(draftRef.current, msg.mention) });
        else assist.apply(msg);
      }),
    [assist],
  );
  useLayoutEffect(() => model.subscribe(() => bump(0)), [model]);

  if (model.inputRequest.seq !== lastInputSeq.current) {
    lastInputSeq.current = model.inputRequest.seq;
    if (draft !== model.inputRequest.text) setDraft(model.inputRequest.text);
  }
  if (model.restoreRequest.seq !== lastRestoreSeq.current) {
    // Queued text an aborted run did not deliver goes back into the input, before what was typed since.
    lastRestoreSeq.current = model.restoreRequest.seq;
    setDraft((d) => [model.restoreRequest.text, d].filter((t) => t.trim() !== "").join("\n\n"));
  }

  useEffect(() => {
    const t = window.setTimeout(() => props.saveState({ draft }), 300);
    return () => window.clearTimeout(t);
  }, [draft]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      // While a branch is watched, Escape goes back to the main branch (never aborts the main agent's run).
      if (e.key === "Escape" && model.watch !== undefined) {
        e.preventDefault();
        props.post({ type: "chat/watchAction", action: "back" });
      } else if (e.key === "Escape" && model.streaming) {
        e.preventDefault();
        props.post({ type: "chat/abort" });
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [model]);

  const current = model.models.find((m) => m.key === model.currentModelKey) ?? model.model;
  // The host sets a reason whenever sending cannot work (no model, no key for it, read-only session).
  const noModel = model.noModelReason !== undefined;
  // A watched branch is read-only: the input is off, its Abort and queueing too (the banner stops the branch).
  const watching = model.watch !== undefined;
  const plan = watching ? undefined : planToApprove(model.planId, model.streaming, model.messages);
  // A request is out and nothing of its reply came yet (a slow first token, a retry's wait): say what the chat waits for.
  const lastRole = model.messages.at(-1)?.role;
  const waiting = model.streaming && !watching && (lastRole === "user" || lastRole === "toolResult");

  return (
    <div
      class="app chat-app"
      onFocusIn={(e) =>
        (promptHadFocus.current = e.target instanceof Element && e.target.closest(".approval, .chat-queue") !== null)
      }
      onFocusOut={(e) => {
        // Left for nowhere by a control still in the page afterwards (a click on no control, the workbench took
        // the focus): not taken away, so it stays where the user put it. (Removal also sends focusout, while the
        // control is still connected: hence the look once the render is over.)
        const from = e.target;
        if (e.relatedTarget === null && from instanceof Element)
          queueMicrotask(() => {
            if (from.isConnected) promptHadFocus.current = false;
          });
      }}
    >
      <div class="chat-header toolbar">
        {/* The picker of every model (grouped by provider, logins and keys included) is the host's QuickPick. */}
        <Button
          class="model-picker"
          appearance="secondary"
          icon="sparkle"
          // The name holds the words it shows (a voice user says what they see), and what the button does.
          ariaLabel={current ? `${current.name} · ${current.provider}: Select Model` : "Select Model"}
          title={current ? `Model: ${current.name} (${current.key}): select another` : "Select a model"}
          onClick={() => props.post({ type: "command", command: "selectModel" })}
        >
          <span class="model-picker-label">{current ? `${current.name} · ${current.provider}` : "Select Model"}</span>
        </Button>
        {model.thinkingLevels.length > 1 ? (
          <Dropdown
            class="thinking-picker"
            ariaLabel="Thinking level"
            value={model.thinkingLevel ?? "off"}
            options={model.thinkingLevels.map((level) => ({ value: level, label: `Thinking: ${level}` }))}
            onChange={(level) => {
              model.thinkingLevel = level;
              props.post({ type: "chat/selectThinkingLevel", level });
              bump(0);
            }}
          />
        ) : null}
        <span class="spacer" />
        <ButtonRow
          buttons={COMMANDS}
          appearance="icon"
          onClick={(command) => props.post({ type: "command", command })}
        />
      </div>
      {model.streaming ? <div class="progress-bar" role="progressbar" aria-label="Agent is working" /> : null}
      <ChatList
        messages={model.messages}
        rowKeyOf={rowKeyOf}
        streaming={model.streaming}
        // Another conversation (new session, another branch far away) is shown from its end, like a new one.
        followSeq={followSeq + model.resetSeq}
        hasOlder={model.start > 0}
        onNeedOlder={() => {
          const request = model.requestOlder();
          if (request) props.post(request);
        }}
        header={
          // Without a model the notice below says what to do first.
          model.loaded && model.messages.length === 0 && !noModel ? (
            <div class="chat-empty">Start the conversation below.</div>
          ) : null
        }
        footer={
          <>
            {waiting ? (
              <div class="chat-waiting">
                <span class="codicon codicon-loading codicon-modifier-spin" aria-hidden="true" /> Waiting for{" "}
                {current?.name ?? "the model"}… (Escape or Abort stops it)
              </div>
            ) : null}
            {plan && plan.id !== keptPlan && !noModel ? (
              <ChatPlanActions
                onApprove={() => {
                  setKeptPlan(plan.id);
                  props.post({ type: "command", command: "approvePlan" });
                }}
                onKeep={() => {
                  setKeptPlan(plan.id);
                  setInputFocus((n) => n + 1);
                }}
              />
            ) : null}
            <ChatAsides
              asides={model.asides}
              {...(watching
                ? {}
                : { onContinue: (asideId: string) => props.post({ type: "chat/continueAside", asideId }) })}
            />
            {noModel ? (
              <div class="notice" role="note">
                <span class="codicon codicon-warning" aria-hidden="true" /> <span>{model.noModelReason}</span>{" "}
                <Button appearance="secondary" onClick={() => props.post({ type: "command", command: "setApiKey" })}>
                  Set API Key
                </Button>{" "}
                <Button appearance="secondary" onClick={() => props.post({ type: "command", command: "logIn" })}>
                  Log In…
                </Button>
              </div>
            ) : null}
          </>
        }
      />
      {model.approvals.map((a) => (
        <ChatApproval
          key={a.toolCallId}
          approval={a}
          onAnswer={(answer) => answerApproval(a.toolCallId, answer)}
          onOpenDiff={() => props.post({ type: "chat/openDiff", toolCallId: a.toolCallId })}
        />
      ))}
      {/* The main branch's run: its changed files and queued messages are not the watched branch's. */}
      <ChatChanges
        files={watching ? [] : model.changedFiles}
        onOpen={(file) => props.post({ type: "chat/openDiff", file })}
      />
      <ChatTodos todos={model.todos} />
      <ChatQueue
        items={watching ? [] : model.queue}
        onEdit={(id, text) => props.post({ type: "chat/queueEdit", id, text })}
        onRemove={(id) => props.post({ type: "chat/queueRemove", id })}
      />
      <ChatPlanBadge
        planMode={model.planMode && !watching}
        onLeave={() => props.post({ type: "command", command: "togglePlanMode" })}
      />
      <UsageLine usage={model.usage} />
      <ChatWatchBanner branch={model.watch} onAction={(action) => props.post({ type: "chat/watchAction", action })} />
      <ChatInput
        value={draft}
        onValue={setDraft}
        streaming={model.streaming && !watching}
        enterQueues={model.enterWhileRunning}
        disabled={noModel || watching}
        locked={watching}
        focusSeq={model.inputRequest.seq + inputFocus}
        assist={assist}
        post={props.post}
        onSend={(text) => send(text)}
        onAbort={() => props.post({ type: "chat/abort" })}
        onQueue={(kind, text) => send(text, kind)}
      />
      <StatusLine subscribeHost={props.subscribeHost} />
      <ChatLiveRegion subscribeHost={props.subscribeHost} />
    </div>
  );

  /** Sends the input, or while the agent works queues it (`queue`), with its mentions and images either way. */
  function send(text: string, queue?: "steer" | "followUp"): void {
    const mentions = assist.mentionsIn(text);
    const images = assist.images;
    const current = model.models.find((m) => m.key === model.currentModelKey) ?? model.model;
    if (images.length > 0 && current && current.images !== true) {
      // Said before sending, not as a provider error; the text and the images stay.
      return assist.refuse(textOnlyModelMessage(current, images.length));
    }
    const attached = {
      ...(mentions.length > 0 ? { mentions } : {}),
      ...(images.length > 0 ? { images } : {}),
    };
    props.post(
      queue ? { type: "chat/queue", kind: queue, text, ...attached } : { type: "chat/submit", text, ...attached },
    );
    assist.reset();
    setDraft("");
    if (!queue) setFollowSeq((n) => n + 1);
  }

  function answerApproval(toolCallId: string, a: ApprovalAnswer): void {
    props.post({
      type: "chat/approve",
      toolCallId,
      approved: a.approved,
      ...(a.always ? { always: true } : {}),
      ...(a.allInRun ? { allInRun: true } : {}),
      ...(a.inWorkspace ? { inWorkspace: true } : {}),
    });
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
