/**
 * The conversation, windowed: only rows near the viewport are mounted (and their markdown parsed); the
 * rest are stood in for by spacers sized from measured heights, or estimates for rows never seen.
 * ChatScroller keeps the view at the bottom while following, and still when the user scrolled up.
 *
 * The messages are themselves a window of the path (the host pages older ones in): when the first one is
 * mounted, i.e. the user scrolled within a screen or so of it, the list asks for the page before it.
 *
 * Accessibility: a focusable, labelled region (keyboard scrolling) holding a list whose rows are listitems
 * with their position among the messages held (aria-posinset/setsize; the size is unknown, -1, while older
 * ones can be paged in), since most of them are not in the DOM.
 * Nothing here is live: rows mounted by scrolling back are old news. New content is announced by
 * ChatLiveRegion instead.
 */
import type { ComponentChildren, JSX } from "preact";
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef } from "preact/hooks";
import type { ChatMessageDto } from "../../src/shared/protocol.js";
import { MessageItem, OrphanToolResult } from "./chat-message.js";
import { ChatScroller, type ScrollAnchor } from "./chat-scroller.js";
import { chatRows, estimateRowHeight, RowOffsets, type ChatRow } from "./chat-window.js";

/** Props: the path's messages and what surrounds them inside the scrolled region. */
export interface ChatListProps {
  messages: readonly ChatMessageDto[];
  /** A message's row key (ChatModel.rowKeyOf): stable when a stored message replaces its streamed one. */
  rowKeyOf?: (id: string) => string;
  streaming: boolean;
  /** Changes when the user sends a message, or another conversation replaced the messages: follow the bottom. */
  followSeq: number;
  /** Older messages of the path can be paged in before the first one. */
  hasOlder: boolean;
  /** The first message is mounted while `hasOlder`: ask for the page before it (repeated calls are the caller's to drop). */
  onNeedOlder(): void;
  /** Shown before the list of rows, inside the scrolled region (the empty-chat hint). */
  header?: ComponentChildren;
  /** Shown after the list of rows, inside the scrolled region (the no-model notice). */
  footer?: ComponentChildren;
}

/** Rows mounted beyond each edge of the viewport, in pixels (at least one viewport). */
const MIN_MARGIN_PX = 400;

interface Derived {
  rows: ChatRow[];
  indexOf: Map<string, number>;
  results: Map<string, ChatMessageDto>;
  lastAssistant: ChatMessageDto | undefined;
}

function derive(messages: readonly ChatMessageDto[], keyOf?: (id: string) => string): Derived {
  const rows = chatRows(messages, keyOf);
  const indexOf = new Map<string, number>();
  rows.forEach((r, i) => indexOf.set(r.key, i));
  const results = new Map<string, ChatMessageDto>();
  let lastAssistant: ChatMessageDto | undefined;
  for (const m of messages) {
    if (m.role === "toolResult" && m.toolCallId !== undefined) results.set(m.toolCallId, m);
    if (m.role === "assistant") lastAssistant = m;
    // A prompt after it: that reply is done, the one streaming (if any) comes after the prompt.
    else if (m.role === "user") lastAssistant = undefined;
  }
  return { rows, indexOf, results, lastAssistant };
}

/** The windowed message list. */
export function ChatList(p: ChatListProps): JSX.Element {
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const ref = useRef<HTMLDivElement>(null);
  const rowsRef = useRef<HTMLDivElement>(null);
  const scroller = useMemo(() => new ChatScroller(() => bump(0)), []);
  const estimates = useRef({ width: -1, byMessage: new WeakMap<ChatMessageDto, number>() });
  const seenFollow = useRef(p.followSeq);

  useLayoutEffect(() => scroller.attach(ref.current as HTMLDivElement, rowsRef.current as HTMLDivElement), [scroller]);
  useLayoutEffect(() => scroller.afterRender());

  const d = useMemo(() => derive(p.messages, p.rowKeyOf), [p.messages, p.rowKeyOf]);
  const { rows, indexOf } = d;

  if (p.followSeq !== seenFollow.current) {
    scroller.follow();
    seenFollow.current = p.followSeq;
  }

  if (estimates.current.width !== scroller.width) {
    estimates.current = { width: scroller.width, byMessage: new WeakMap() };
  }
  const estimateOf = (r: ChatRow): number => {
    const cache = estimates.current.byMessage;
    let h = cache.get(r.message);
    if (h === undefined) {
      h = estimateRowHeight(r, scroller.width || 300);
      cache.set(r.message, h);
    }
    return h;
  };
  const offsets = useMemo(
    () => new RowOffsets(rows.map((r) => scroller.heights.get(r.key) ?? estimateOf(r))),
    [rows, scroller.heightsVersion, scroller.width],
  );

  const topOf = (a: ScrollAnchor): number | undefined => {
    const i = indexOf.get(a.key) ?? (a.index < rows.length ? a.index : undefined);
    return i === undefined ? undefined : offsets.offsets[i];
  };
  const viewH = scroller.viewHeight;
  const top = scroller.viewTop(offsets.total, topOf);
  const margin = Math.max(MIN_MARGIN_PX, viewH);
  const range = offsets.range(top - margin, top + viewH + margin);

  const children: JSX.Element[] = [];
  const spacer = (which: string, height: number): void => {
    children.push(
      <div key={`\u0000gap-${which}`} class="chat-gap" aria-hidden="true" style={{ height: `${height}px` }} />,
    );
  };
  // The top spacer also carries the scroller's adjustment (it may stand for nothing but that).
  const topGap = scroller.topGap(offsets.span(0, range.start));
  if (range.end > range.start && (range.start > 0 || topGap > 0)) spacer("top", topGap);
  for (let i = range.start; i < range.end; i++) {
    const r = rows[i];
    const m = r.message;
    children.push(
      <div
        key={r.key}
        class="chat-row"
        role="listitem"
        aria-posinset={i + 1}
        aria-setsize={p.hasOlder ? -1 : rows.length}
        data-row-key={r.key}
        data-row-index={i}
      >
        {r.orphan ? (
          <OrphanToolResult message={m} />
        ) : (
          <MessageItem message={m} results={d.results} live={p.streaming && m === d.lastAssistant} />
        )}
      </div>,
    );
  }
  if (range.end < rows.length) spacer("bottom", offsets.span(range.end, rows.length));
  const firstMounted = range.start === 0;
  useEffect(() => {
    if (firstMounted && p.hasOlder) p.onNeedOlder();
  });

  return (
    <div
      ref={ref}
      class="chat-messages"
      role="region"
      aria-busy={p.streaming}
      aria-label="Conversation"
      // Focusable so keyboard scrolling works from the list itself, also after a focused row left the window.
      tabIndex={0}
    >
      {p.header}
      {p.hasOlder ? (
        <div class="chat-older" aria-hidden="true">
          Loading earlier messages…
        </div>
      ) : null}
      <div ref={rowsRef} class="chat-rows" role="list" aria-label="Messages">
        {children}
      </div>
      {p.footer}
    </div>
  );
}
