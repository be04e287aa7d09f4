/**
 * The compare panel: both ends and the counts of differences, the common ancestor, then the aligned turns side by
 * side in a windowed list (only the turns near the viewport are in the DOM, and their pages are asked for as they
 * come near), then the files that differ when the host knows them.
 *
 * Keyboard: the turns form a feed. PageDown / PageUp go to the next / previous turn, Ctrl+Home / Ctrl+End to the
 * first / last, F7 / Shift+F7 to the next / previous difference (as in VS Code's diff editor), also from the
 * toolbar buttons. Every item has a button that shows it in the session tree.
 */
import type { JSX } from "preact";
import { useEffect, useLayoutEffect, useMemo, useReducer, useRef, useState } from "preact/hooks";
import type { CompareEnd, CompareStatus } from "../../src/core/compare/compare-types.js";
import type { CompareToHost, HostToCompare } from "../../src/shared/protocol.js";
import { StatusLine } from "../status-line.js";
import { ButtonRow, type RowButton } from "../ui/controls.js";
import { CompareModel } from "./compare-model.js";
import { ItemView, STATUS_WORDS, TurnView, type ItemActions } from "./compare-turn.js";

/** Pixels drawn above and below the viewport, so fast scrolling shows no gaps. */
const OVERSCAN_PX = 800;
/** How long scrolling settles before the position is persisted. */
const SAVE_DELAY_MS = 300;

/** The toolbar's two steps between differences (F7 and Shift+F7 do the same). */
const DIFFERENCE_STEPS: readonly RowButton<1 | -1>[] = [
  { value: -1, icon: "arrow-up", ariaLabel: "Previous difference (Shift+F7)", text: "Previous" },
  { value: 1, icon: "arrow-down", ariaLabel: "Next difference (F7)", text: "Next" },
];

/** Props: the host channel and persisted state. */
export interface CompareAppProps {
  post: (msg: CompareToHost) => void;
  subscribeHost: (fn: (msg: HostToCompare) => void) => () => void;
  initialState: Record<string, unknown> | undefined;
  saveState: (state: Record<string, unknown>) => void;
}

/** Which turn to come back to after the tab is reloaded, if the state is for this comparison. */
function restoredTurn(state: Record<string, unknown> | undefined, left: string, right: string): number {
  if (state?.left !== left || state?.right !== right) return -1;
  return typeof state.turn === "number" && Number.isSafeInteger(state.turn) ? state.turn : -1;
}

function EndTitle(props: { end: CompareEnd; side: "left" | "right" }): JSX.Element {
  return (
    <div class={`cmp-end ${props.side}`}>
      <span class="cmp-end-side">{props.side === "left" ? "Left" : "Right"}</span>
      {props.end.label !== undefined ? <span class="cmp-end-label">[{props.end.label}]</span> : null}
      <span class="cmp-end-title" title={props.end.title}>
        {props.end.title}
      </span>
    </div>
  );
}

/** The compare panel application. */
export function CompareApp(props: CompareAppProps): JSX.Element {
  const model = useMemo(() => new CompareModel(), []);
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLDivElement>(null);
  const columnsRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(600);
  const [width, setWidth] = useState(800);
  const [focused, setFocused] = useState(0);
  /**
   * The turn the view is anchored to and how far into it the top of the viewport is: when heights change (pages
   * arrive, turns are measured), the view is scrolled so that this spot stays at the top. Null at the very top.
   */
  const anchor = useRef<{ index: number; into: number } | null>(null);
  /** A turn to focus once the view is scrolled to it (keyboard and buttons). */
  const pendingFocus = useRef(-1);
  const elements = useRef(new Map<number, HTMLElement>());
  const observer = useRef<ResizeObserver | null>(null);
  const saveTimer = useRef<number | undefined>(undefined);
  const frame = useRef(0);

  // Layout effects run inside render(), so the subscription exists before `compare/ready` is posted.
  useLayoutEffect(
    () =>
      props.subscribeHost((msg) => {
        if (!model.apply(msg) || msg.type !== "compare/snapshot") return;
        const { left, right } = msg.overview;
        const turn = restoredTurn(props.initialState, left.entryId, right.entryId);
        const start = turn >= 0 && turn < model.count ? turn : 0;
        setFocused(start);
        anchor.current = start > 0 ? { index: start, into: 0 } : null;
      }),
    [model],
  );
  useLayoutEffect(() => model.subscribe(() => bump(0)), [model]);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el === null) return;
    const ro = new ResizeObserver(() => {
      setViewHeight(el.clientHeight);
      setWidth(el.clientWidth);
    });
    ro.observe(el);
    setViewHeight(el.clientHeight);
    setWidth(el.clientWidth);
    return () => ro.disconnect();
  }, []);

  // Drawn turns report their height. The re-render waits for the next frame: rendering inside the observer's
  // callback would add turns to observe within the same loop.
  useLayoutEffect(() => {
    observer.current = new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const index = Number((e.target as HTMLElement).dataset.index);
        if (Number.isInteger(index)) changed = model.measure(index, e.borderBoxSize[0]?.blockSize ?? 0) || changed;
      }
      if (changed && frame.current === 0)
        frame.current = requestAnimationFrame(() => {
          frame.current = 0;
          bump(0);
        });
    });
    return () => {
      observer.current?.disconnect();
      cancelAnimationFrame(frame.current);
    };
  }, [model]);

  const measureRef = (index: number, el: HTMLElement | null): void => {
    const known = elements.current.get(index);
    if (known === el) return;
    if (known) observer.current?.unobserve(known);
    if (el) {
      elements.current.set(index, el);
      observer.current?.observe(el);
    } else elements.current.delete(index);
  };

  const offsets = model.offsets(width);
  /** Where the turns start, from the top of the scrolled content, less the column headings that stick over it. */
  const listTop = (): number => (listRef.current?.offsetTop ?? 0) - (columnsRef.current?.offsetHeight ?? 0);
  const y0 = scrollTop - listTop();
  const range = offsets.range(Math.max(0, y0 - OVERSCAN_PX), Math.max(0, y0 + viewHeight + OVERSCAN_PX));

  // Ask for the pages of the drawn turns.
  useEffect(() => {
    for (const page of model.pagesToRequest(range.start, range.end))
      props.post({ type: "compare/requestTurns", start: page.start, count: page.count });
  });

  // Keep the anchor at the top of the view; then focus a turn that was asked for.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el === null || listRef.current === null) return;
    const a = anchor.current;
    if (a !== null && a.index < offsets.count) {
      const wanted = Math.min(listTop() + offsets.offsets[a.index] + a.into, el.scrollHeight - el.clientHeight);
      if (Math.abs(wanted - el.scrollTop) >= 1) {
        el.scrollTop = wanted;
        if (el.scrollTop !== scrollTop) return setScrollTop(el.scrollTop);
      }
    }
    const index = pendingFocus.current;
    const target = index >= 0 ? elements.current.get(index) : undefined;
    if (target === undefined) return;
    pendingFocus.current = -1;
    target.focus({ preventScroll: true });
  });

  const goTo = (index: number, focus = true): void => {
    if (index < 0 || index >= model.count) return;
    setFocused(index);
    anchor.current = { index, into: 0 };
    if (focus) pendingFocus.current = index;
    saveTurn(index);
    bump(0);
  };
  const saveTurn = (turn: number): void =>
    props.saveState({ left: model.overview?.left.entryId, right: model.overview?.right.entryId, turn });
  /** The turn keys move from: the focused one while it is in view, else the one at the top of the view. */
  const current = (): number => {
    if (focused >= range.start && focused < range.end) {
      const top = offsets.offsets[focused] - y0;
      if (top > -offsets.span(focused, focused + 1) && top < viewHeight) return focused;
    }
    return Math.min(model.count - 1, offsets.indexAt(Math.max(0, y0)));
  };
  const difference = (dir: 1 | -1): void => {
    const next = model.nextDifference(current(), dir);
    if (next >= 0) goTo(next);
  };

  const actions: ItemActions = { reveal: (entryId) => props.post({ type: "compare/reveal", entryId }) };
  const statusFeed = useMemo(
    () =>
      (fn: (msg: Extract<HostToCompare, { type: "status" }>) => void): (() => void) =>
        props.subscribeHost((msg) => {
          if (msg.type === "status") fn(msg);
        }),
    [props.subscribeHost],
  );
  const onKeyDown = (e: KeyboardEvent): void => {
    let handled = true;
    if (e.key === "F7") difference(e.shiftKey ? -1 : 1);
    else if (e.key === "PageDown" && !e.ctrlKey) goTo(Math.min(model.count - 1, current() + 1));
    else if (e.key === "PageUp" && !e.ctrlKey) goTo(Math.max(0, current() - 1));
    else if (e.key === "Home" && e.ctrlKey) goTo(0);
    else if (e.key === "End" && e.ctrlKey) goTo(model.count - 1);
    else handled = false;
    if (handled) e.preventDefault();
  };

  const overview = model.overview;
  const counts = model.counts();
  const turns: JSX.Element[] = [];
  for (let i = range.start; i < range.end && i < model.count; i++) {
    turns.push(
      <TurnView
        key={i}
        index={i}
        status={model.statuses[i]}
        total={model.count}
        turn={model.turns.get(i)}
        top={offsets.offsets[i]}
        focused={i === focused}
        actions={actions}
        measureRef={measureRef}
      />,
    );
  }
  const summary = (["changed", "left", "right", "same"] as CompareStatus[])
    .filter((s) => counts[s] > 0)
    .map((s) => `${counts[s]} ${STATUS_WORDS[s]}`)
    .join(" · ");

  return (
    <div class="app compare-app" onKeyDown={onKeyDown}>
      <header class="cmp-header">
        <h1 class="cmp-heading">Compare branches{model.sessionName !== undefined ? ` — ${model.sessionName}` : ""}</h1>
        <div class="cmp-toolbar">
          <span class="cmp-counts" role="status">
            {overview === undefined ? "Loading…" : model.count === 0 ? "No turns after the common ancestor" : summary}
          </span>
          <ButtonRow
            buttons={DIFFERENCE_STEPS}
            appearance="secondary"
            disabled={model.count === 0}
            onClick={difference}
          />
        </div>
      </header>
      <div
        ref={scrollRef}
        class="cmp-scroll"
        tabIndex={0}
        aria-label="Comparison of the two branches"
        onScroll={(e) => {
          const top = (e.currentTarget as HTMLDivElement).scrollTop;
          setScrollTop(top);
          const y = top - listTop();
          const at = model.count > 0 && y > 0 ? offsets.indexAt(y) : -1;
          anchor.current = at >= 0 ? { index: at, into: y - offsets.offsets[at] } : null;
          window.clearTimeout(saveTimer.current);
          saveTimer.current = window.setTimeout(() => saveTurn(Math.max(0, at)), SAVE_DELAY_MS);
        }}
      >
        {overview !== undefined ? (
          <div class="cmp-columns" ref={columnsRef}>
            <EndTitle end={overview.left} side="left" />
            <EndTitle end={overview.right} side="right" />
          </div>
        ) : null}
        {overview?.ancestor !== undefined ? (
          <section class="cmp-ancestor" aria-label="Common ancestor">
            <h2 class="cmp-section-title">
              Common ancestor
              {overview.ancestor.label !== undefined ? ` [${overview.ancestor.label}]` : ""}
              <span class="cmp-shared">
                {" "}
                · {overview.ancestor.sharedTurns} shared {overview.ancestor.sharedTurns === 1 ? "turn" : "turns"}
              </span>
            </h2>
            {overview.ancestor.items.map((item, i) => (
              <ItemView key={i} cell={{ item }} side="both" actions={actions} />
            ))}
          </section>
        ) : overview !== undefined ? (
          <section class="cmp-ancestor" aria-label="Common ancestor">
            <h2 class="cmp-section-title">No common ancestor: the two paths start at different roots.</h2>
          </section>
        ) : null}
        <div
          ref={listRef}
          class="cmp-list"
          role="feed"
          aria-label="Turns after the common ancestor"
          aria-busy={range.end > range.start && !model.turns.has(range.start)}
          style={{ height: `${offsets.total}px` }}
        >
          {turns}
        </div>
        {model.files !== undefined ? (
          <section class="cmp-files" aria-label="Files that differ">
            <h2 class="cmp-section-title">Files that differ</h2>
            {model.files.length === 0 ? (
              <div class="cmp-empty">No file differs between the two points.</div>
            ) : (
              <ul>
                {model.files.map((f) => (
                  <li key={f.path}>
                    <button
                      type="button"
                      class="cmp-file"
                      onClick={() => props.post({ type: "compare/openFile", path: f.path })}
                    >
                      <span class={`cmp-file-change ${f.change}`}>{f.change}</span>{" "}
                      {f.oldPath !== undefined ? `${f.oldPath} → ${f.path}` : f.path}
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </section>
        ) : null}
      </div>
      <StatusLine subscribeHost={statusFeed} />
    </div>
  );
}
