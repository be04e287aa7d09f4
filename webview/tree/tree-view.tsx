/**
 * The tree view: toolbar (search, filter), busy bar, and a windowed list of rows.
 * Only rows inside the viewport plus OVERSCAN are in the DOM, whatever the tree size.
 * As the leaf moves the list keeps the active row in view (tree-follow.ts says when); while the active row is out
 * of view a small "active" control (and Shift+A) brings it back.
 */
import type { JSX } from "preact";
import { useLayoutEffect, useMemo, useReducer, useRef, useState } from "preact/hooks";
import type { HostToWebview, TreeFilter, WebviewToHost } from "../../src/shared/protocol.js";
import { rowWords } from "../../src/core/entries/row-words.js";
import type { TreeRow as TreeRowData } from "../../src/core/rows/tree-row.js";
import { TREE_FILTER_LABELS, TREE_FILTERS } from "../../src/core/rows/row-filter.js";
import { Dropdown, TextField } from "../ui/controls.js";
import { useFocusOnArrival } from "../ui/focus-on-arrival.js";
import { EXPANDED } from "./tree-flatten.js";
import { ActiveFollow } from "./tree-follow.js";
import { handleTreeKey } from "./tree-keys.js";
import type { TreeModel } from "./tree-model.js";
import { ROW_HEIGHT, TreeRow } from "./tree-row.js";

/** Rows rendered above and below the viewport so fast scrolling shows no gaps. */
const OVERSCAN = 10;
/** Hover time before the whole text is requested from the host. */
const HOVER_DELAY_MS = 250;
/** Whole texts kept for hover titles. */
const TEXT_CACHE_LIMIT = 200;

const FILTER_OPTIONS: readonly { value: TreeFilter; label: string }[] = TREE_FILTERS.map((value) => ({
  value,
  label: TREE_FILTER_LABELS[value],
}));

/** Props: the model plus the channel to the host. */
export interface TreeViewProps {
  model: TreeModel;
  post: (msg: WebviewToHost) => void;
  subscribeHost: (fn: (msg: HostToWebview) => void) => () => void;
}

/** Scroll `el` just far enough to show row `r` whole (nothing for -1). */
function scrollRowIntoView(el: HTMLElement, r: number): void {
  if (r < 0) return;
  const top = r * ROW_HEIGHT;
  if (top < el.scrollTop) el.scrollTop = top;
  else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
}

/** Whether row `r` is wholly inside a viewport at `top`, `height` px tall (no row, -1, is nowhere to go). */
function rowInView(r: number, top: number, height: number): boolean {
  return r < 0 || (r * ROW_HEIGHT >= top - 0.5 && (r + 1) * ROW_HEIGHT <= top + height + 0.5);
}

/**
 * Open the row menu of `row` from the keyboard. VS Code's webview shell opens the menu of a `contextmenu` event
 * with the `data-vscode-context` of its target, and a keyboard's event targets the focused list, which has none:
 * the event is sent to the row instead, placed under the start of its text.
 */
function openRowMenuAt(row: HTMLElement): void {
  const r = row.getBoundingClientRect();
  const x = row.querySelector(".entry")?.getBoundingClientRect().left ?? r.left;
  row.dispatchEvent(
    new MouseEvent("contextmenu", {
      bubbles: true,
      cancelable: true,
      clientX: Math.round(x),
      clientY: Math.round(r.bottom),
    }),
  );
}

/** How a summary's source node is named on the summary's row. */
function sourceText(d: TreeRowData): string {
  const { role, text } = rowWords(d);
  return text !== "" ? text : role;
}

/** The whole tree view. */
export function TreeView({ model, post, subscribeHost }: TreeViewProps): JSX.Element {
  const [, bump] = useReducer((x: number) => x + 1, 0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewHeight, setViewHeight] = useState(400);
  const revealPending = useRef(false);
  /** Shift+F10 or the context-menu key asked for the selected row's menu: opened once the row is drawn in view. */
  const menuPending = useRef(false);
  const follow = useMemo(() => new ActiveFollow(), []);
  /** The "active" control has the keyboard focus (it goes away once the row is in view; the tree takes it then). */
  const controlFocused = useRef(false);
  const controlRef = useRef<HTMLButtonElement>(null);
  const seenLeafMoves = useRef(model.leafMoves);
  const archivedAnswerSeq = useRef(0);
  const texts = useRef(new Map<string, string>());
  // Focus on Session Tree View, `/tree`, the end of the summary question: the list, where the keys work.
  useFocusOnArrival(() => scrollRef.current);
  const hover = useRef<{ idx: number; timer: number | undefined; requestId: number }>({
    idx: -1,
    timer: undefined,
    requestId: 0,
  });

  useLayoutEffect(() => model.subscribe(() => bump(0)), [model]);
  useLayoutEffect(
    () =>
      subscribeHost((msg) => {
        if (msg.type === "tree/snapshot" || msg.type === "tree/reveal") revealPending.current = true;
        if (msg.type === "tree/entryText") {
          const cache = texts.current;
          if (cache.size >= TEXT_CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
          cache.set(msg.entryId, msg.text);
          bump(0);
        }
      }),
    [subscribeHost],
  );

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el === null) return;
    const ro = new ResizeObserver(() => setViewHeight(el.clientHeight));
    ro.observe(el);
    setViewHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);

  /** The display row of the active row, or -1. */
  const activeRow = (): number => {
    const a = model.activeNode();
    return a < 0 ? -1 : model.rows.rowOf[a];
  };

  // After every render, in this order: notice a scroll of the user's that no event reported yet; keep the top row
  // in place when an update inserted rows above it; follow the active row after a leaf move; scroll the selection
  // into view after a snapshot/reveal or a keyboard move.
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el === null) return;
    follow.observe(
      el.scrollTop,
      el.scrollHeight - el.clientHeight,
      rowInView(activeRow(), el.scrollTop, el.clientHeight),
    );
    if (model.scrollAdjustRows !== 0) {
      el.scrollTop += model.scrollAdjustRows * ROW_HEIGHT;
      model.scrollAdjustRows = 0;
    }
    if (model.leafMoves !== seenLeafMoves.current) {
      seenLeafMoves.current = model.leafMoves;
      follow.leafMoved();
    }
    // A view with no height yet (being laid out) has nowhere to show the row: the move waits for a size.
    if (el.clientHeight > 0 && follow.shouldReveal()) scrollRowIntoView(el, activeRow());
    if (revealPending.current) {
      revealPending.current = false;
      scrollRowIntoView(el, model.selected >= 0 ? model.rows.rowOf[model.selected] : -1);
      // Where the user's action took the view: away from the active row, leaf moves leave it there for a while.
      follow.userMoved(rowInView(activeRow(), el.scrollTop, el.clientHeight));
    }
    follow.scrolledTo(el.scrollTop);
    if (controlFocused.current && document.activeElement !== controlRef.current) {
      // The control had the focus and went (its row came into view without it: a leaf move, a scroll by hand):
      // the tree takes the focus rather than the page.
      controlFocused.current = false;
      if (document.activeElement === null || document.activeElement === document.body)
        el.focus({ preventScroll: true });
    }
    if (menuPending.current) {
      const sel = model.selected;
      const rowEl = sel >= 0 ? document.getElementById(`tree-row-${sel}`) : null;
      // Asked once: a selection that went (or has no row) drops it; a row not drawn yet waits for its render.
      if (rowEl !== null || sel < 0 || model.rows.rowOf[sel] < 0) menuPending.current = false;
      if (rowEl !== null) openRowMenuAt(rowEl);
    }
    model.viewTopRow = Math.floor(el.scrollTop / ROW_HEIGHT);
    if (el.scrollTop !== scrollTop) setScrollTop(el.scrollTop);
  });

  // The host answered the toolbar toggle (or a reveal into a hidden archived branch): keep the selection in view.
  if (model.archivedAnswerSeq !== archivedAnswerSeq.current) {
    archivedAnswerSeq.current = model.archivedAnswerSeq;
    revealPending.current = true;
  }

  const rows = model.rows;
  const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(rows.count, Math.ceil((scrollTop + viewHeight) / ROW_HEIGHT) + OVERSCAN);
  const vis = model.visibility;
  const index = model.index;
  const onPath = index.onPath;
  // The row marked as the leaf: the leaf's, or its nearest shown ancestor's when the filter hides the leaf (a model
  // change, or the loadout a continued aside records, can be the leaf).
  const activeAt = model.activeNode();
  const items: JSX.Element[] = [];
  for (let r = first; r < last; r++) {
    const i = rows.node[r];
    const d = index.node(i);
    const source = d.kind === "branch_summary" ? index.summarySource(i) : -1;
    items.push(
      <TreeRow
        key={i}
        rows={rows}
        row={r}
        node={d}
        nodeIdx={i}
        selected={i === model.selected}
        onPath={onPath[i] === 1}
        isLeaf={i === activeAt}
        visibility={vis[i]}
        archived={model.isArchived(i)}
        branchItems={index.branchItems(i)}
        running={model.running.get(d.id)}
        archivedRoot={model.isArchived(i) && (index.parent[i] < 0 || !model.isArchived(index.parent[i]))}
        title={texts.current.get(d.id) ?? (d.label ? `[${d.label}] ${d.preview}` : d.preview)}
        sourceText={source >= 0 ? sourceText(index.node(source)) : undefined}
        onSourceClick={(idx) => {
          const src = index.summarySource(idx);
          if (src < 0) return;
          model.apply({ type: "tree/reveal", entryId: index.id(src) });
          scrollRef.current?.focus({ preventScroll: true });
          revealSelection();
        }}
        onRowClick={(idx) => {
          model.select(idx);
          // The clicked row is in view already: focusing must not scroll anything under the pointer.
          scrollRef.current?.focus({ preventScroll: true });
          // The host's operations table decides whether the move may start (a move in progress refuses it).
          post({ type: "tree/navigate", entryId: index.id(idx), mode: "ask" });
        }}
        onTwistyClick={(idx) => {
          if (model.searching) return;
          const row = rows.rowOf[idx];
          model.select(idx);
          model.setFolded(idx, (rows.flags[row] & EXPANDED) !== 0);
        }}
        onHover={(idx) => {
          const h = hover.current;
          window.clearTimeout(h.timer);
          h.idx = idx;
          const id = index.id(idx);
          if (texts.current.has(id)) return;
          h.timer = window.setTimeout(() => {
            if (h.idx !== idx) return;
            post({ type: "tree/requestText", requestId: ++h.requestId, entryId: id });
          }, HOVER_DELAY_MS);
        }}
      />,
    );
  }

  function revealSelection(): void {
    revealPending.current = true;
    bump(0);
  }

  /** The control and Shift+A: select the active row and bring it into view, the tree focused. */
  function goToActive(): void {
    const a = model.activeNode();
    if (a < 0) return;
    model.select(a);
    scrollRef.current?.focus({ preventScroll: true });
    revealSelection();
  }

  /** The cue's button: the All filter shows the hidden active row; it is selected, the tree focused (the button goes). */
  function showAll(): void {
    model.setFilter("all");
    goToActive();
  }

  /** Shift+F10 and the context-menu key: the selected row's menu, the row first brought into view. */
  function openRowMenu(): void {
    if (model.selected < 0) return;
    menuPending.current = true;
    revealSelection();
  }

  const focusSearch = (initial?: string): void => {
    if (initial !== undefined) model.setQuery(model.query + initial);
    searchRef.current?.focus();
  };

  const selectedRow = model.selected >= 0 ? rows.rowOf[model.selected] : -1;
  const activeDescendant = selectedRow >= first && selectedRow < last ? `tree-row-${model.selected}` : undefined;
  const active = activeRow();
  const activeAway = !rowInView(active, scrollTop, viewHeight);

  return (
    <div class={`tree-view${model.busy ? " busy" : ""}`}>
      <div class="toolbar">
        <TextField
          class="search"
          inputRef={searchRef}
          value={model.query}
          placeholder="Search"
          title="Search the tree: rows with all the words"
          ariaLabel="Search tree"
          onInput={(v) => model.setQuery(v)}
          onKeyDown={(e) => {
            if (e.key === "Escape") {
              model.setQuery("");
              scrollRef.current?.focus();
              revealSelection();
              e.preventDefault();
            } else if (e.key === "ArrowDown" || e.key === "Enter") {
              scrollRef.current?.focus();
              revealSelection();
              e.preventDefault();
            }
          }}
        />
        {model.readOnly ? (
          <span
            class="read-only codicon codicon-lock"
            role="img"
            aria-label="Read-only session"
            title="Read-only session"
          />
        ) : null}
        <button
          type="button"
          class={`archived-toggle codicon codicon-archive${model.showArchived ? " on" : ""}`}
          aria-pressed={model.showArchived}
          aria-label="Show archived branches"
          title={
            model.showArchived ? "Archived branches are shown (dimmed): click to hide them" : "Show archived branches"
          }
          onClick={() => model.requestShowArchived(!model.showArchived)}
        />
        <Dropdown
          class="filter"
          value={model.filter}
          options={FILTER_OPTIONS}
          ariaLabel="Filter"
          onChange={(f) => {
            model.setFilter(f);
            revealSelection();
          }}
        />
      </div>
      {model.busy ? <div class="progress-bar" role="progressbar" aria-label={model.busyMessage ?? "Working"} /> : null}
      {model.busy && model.busyMessage ? <div class="busy-message">{model.busyMessage}</div> : null}
      {model.activeHidden ? (
        // No shown row is on the path (next to no row can `← active` stand): where the next message goes, in words,
        // and a button that shows the hidden rows (as Ctrl+O does), so the cue needs no known key.
        <div class="active-hidden" role="status">
          <span
            class="active-hidden-text"
            title="The next message starts the conversation. The rows before it (a session name, settings) show with the All filter."
          >
            ← active: the start of the conversation, before the first row
          </span>
          <button
            type="button"
            class="show-all"
            aria-label="Show all rows"
            aria-keyshortcuts="Control+O"
            title="Show all rows: the All filter (Ctrl+O)"
            onClick={showAll}
          >
            Show all
          </button>
        </div>
      ) : null}
      <div class="tree-body">
        <div
          ref={scrollRef}
          class="tree-scroll"
          role="tree"
          aria-label={model.sessionName ? `Session tree: ${model.sessionName}` : "Session tree"}
          aria-busy={model.busy}
          aria-activedescendant={activeDescendant}
          // A list with no rows says why as its description: the words themselves are hidden (a tree holds only
          // tree items), so focusing it reads "Session tree, No entries yet."
          aria-describedby={!model.loaded || rows.count === 0 ? "tree-empty" : undefined}
          tabIndex={0}
          onScroll={(e) => {
            const el = e.currentTarget as HTMLDivElement;
            follow.observe(
              el.scrollTop,
              el.scrollHeight - el.clientHeight,
              rowInView(activeRow(), el.scrollTop, el.clientHeight),
            );
            setScrollTop(el.scrollTop);
          }}
          onPointerEnter={() => follow.pointer(true)}
          onPointerLeave={() => {
            if (follow.pointer(false)) bump(0);
          }}
          onKeyDown={(e) => {
            const pageRows = Math.max(1, Math.floor(viewHeight / ROW_HEIGHT));
            const ctx = { model, pageRows, post, focusSearch, revealSelection, goToActive, openRowMenu };
            if (handleTreeKey(e, ctx)) e.preventDefault();
          }}
          onContextMenu={(e) => {
            // A menu asked for outside a row (the keyboard's targets the focused list; the space below the rows) has
            // no entry to act on: none, rather than the workbench's Cut/Copy/Paste. Shift+F10 sends it to the row.
            if (e.target instanceof Element && e.target.closest(".tree-row") === null) e.preventDefault();
          }}
        >
          <div class="tree-spacer" style={{ height: `${rows.count * ROW_HEIGHT}px` }}>
            {items}
          </div>
          {model.loaded && rows.count === 0 ? (
            <div class="tree-empty" id="tree-empty" aria-hidden="true">
              {index.size === 0 ? "No entries yet." : "Nothing matches this filter or search."}
            </div>
          ) : null}
          {!model.loaded ? (
            <div class="tree-empty" id="tree-empty" aria-hidden="true">
              Loading…
            </div>
          ) : null}
        </div>
        {activeAway ? (
          // Outside the tree (a tree holds only tree items), over the side of the list the active row is on.
          <button
            type="button"
            class={`go-to-active${active * ROW_HEIGHT < scrollTop ? " above" : ""}`}
            aria-label="Go to the active row"
            aria-keyshortcuts="Shift+A"
            title="Go to the active row (Shift+A)"
            onClick={goToActive}
            ref={controlRef}
            onFocus={() => (controlFocused.current = true)}
          >
            <span
              class={`codicon ${active * ROW_HEIGHT < scrollTop ? "codicon-arrow-up" : "codicon-arrow-down"}`}
              aria-hidden="true"
            />
            active
          </button>
        ) : null}
      </div>
    </div>
  );
}
