/**
 * Scroll behaviour of the windowed chat list, outside Preact: measured row heights (ResizeObserver),
 * sticking to the bottom, and an anchor row that keeps what the user reads in place when rows above it
 * are mounted, measured or change height. Scroll anchoring is ours alone: the CSS sets
 * `overflow-anchor: none` so the browser does not correct the same shift a second time.
 *
 * A shift above the anchor is absorbed by the top spacer (`topAdjust`) rather than by moving scrollTop:
 * writing scrollTop cancels a smooth scroll in progress (wheel, Home, PageUp), which would stop it short.
 * The adjustment is folded back into scrollTop once scrolling ends.
 */

/**
 * A row and where its top was in the scrolled content. Content coordinates, not viewport ones: the
 * position may move (a smooth scroll's next step) before the scroll event says so, and that is no shift.
 */
export interface ScrollAnchor {
  key: string;
  /** The row's index when the anchor was taken, used when the key disappears (a streamed id replaced). */
  index: number;
  contentTop: number;
}

/** Within this many pixels of the bottom the list follows new content. */
const STICK_PX = 24;

/** Mutable scroll state of one chat list; `requestRender` asks the component to recompute its window. */
export class ChatScroller {
  /** Follow the bottom (streamed text, new messages). */
  stuck = true;
  anchor: ScrollAnchor | null = null;
  /** Measured border-box heights by row key. */
  readonly heights = new Map<string, number>();
  /** Bumped whenever `heights` changed, so derived offsets are recomputed. */
  heightsVersion = 0;
  viewHeight = 600;
  width = 0;
  /** Pixels added to the top spacer so mounted rows stay where they were; see the file comment. */
  topAdjust = 0;
  /** Summed height of the rows the top spacer stands for, as of the last render. */
  private topSpan = 0;
  /** Keyboard focus is in the list: when its row is unmounted, the list itself takes it over. */
  private focusInside = false;
  private el: HTMLDivElement | null = null;
  /** The element whose children are the rows and spacers: `el` itself or a list inside it. */
  private rowsEl: HTMLElement | null = null;
  private readonly observed = new Set<Element>();
  private readonly ro: ResizeObserver;
  /** Set by a click on a <summary> until the frame after next, when its height change has been seen. */
  private userToggle = false;
  private renderQueued = 0;

  constructor(private readonly requestRender: () => void) {
    this.ro = new ResizeObserver((entries) => this.resized(entries));
  }

  /** Start managing the scroll container; `rows` holds the rows and spacers as its children (default `el`). */
  attach(el: HTMLDivElement, rows: HTMLElement = el): () => void {
    this.el = el;
    this.rowsEl = rows;
    this.viewHeight = el.clientHeight;
    this.width = el.clientWidth;
    this.ro.observe(el);
    const onScroll = (): void => this.scrolled();
    const onScrollEnd = (): void => this.fold();
    // A click on a <summary> opens or closes a tool call: that change of height is the user's, not the stream's.
    const onClick = (e: Event): void => {
      if (!(e.target instanceof Element) || e.target.closest("summary") === null) return;
      this.userToggle = true;
      requestAnimationFrame(() => requestAnimationFrame(() => (this.userToggle = false)));
    };
    // End means "the latest": follow the bottom at once. A native End animates to the bottom as it was when
    // the key was pressed, which rows measured on the way there move.
    const onKeyDown = (e: KeyboardEvent): void => {
      if (e.key !== "End" || e.defaultPrevented || e.altKey || e.shiftKey || e.metaKey) return;
      const t = e.target;
      if (t instanceof HTMLElement && (t.isContentEditable || t.matches("input, textarea, select"))) return;
      e.preventDefault();
      this.stuck = true;
      this.restore();
      this.requestRender();
    };
    const onFocusIn = (): void => {
      this.focusInside = true;
    };
    const onFocusOut = (e: FocusEvent): void => {
      const target = e.target;
      // A row scrolled out of the window took focus with it (the element is gone): that is not the user leaving.
      queueMicrotask(() => {
        if (e.relatedTarget instanceof Node && el.contains(e.relatedTarget)) return;
        if (target instanceof Node && !target.isConnected) return;
        this.focusInside = false;
      });
    };
    el.addEventListener("scroll", onScroll, { passive: true });
    el.addEventListener("scrollend", onScrollEnd);
    el.addEventListener("click", onClick, true);
    el.addEventListener("keydown", onKeyDown);
    el.addEventListener("focusin", onFocusIn);
    el.addEventListener("focusout", onFocusOut);
    return () => {
      el.removeEventListener("scroll", onScroll);
      el.removeEventListener("scrollend", onScrollEnd);
      el.removeEventListener("click", onClick, true);
      el.removeEventListener("keydown", onKeyDown);
      el.removeEventListener("focusin", onFocusIn);
      el.removeEventListener("focusout", onFocusOut);
      this.ro.disconnect();
      this.observed.clear();
      cancelAnimationFrame(this.renderQueued);
      this.el = null;
      this.rowsEl = null;
    };
  }

  /** After a render: measure new rows, forget removed ones, and put the view back where it belongs. */
  afterRender(): void {
    const el = this.el;
    if (el === null) return;
    for (const row of this.observed) {
      if (!row.isConnected) {
        this.ro.unobserve(row);
        this.observed.delete(row);
      }
    }
    for (const row of this.rowsEl?.querySelectorAll(":scope > [data-row-key]") ?? []) {
      if (!this.observed.has(row)) {
        this.observed.add(row);
        this.ro.observe(row);
      }
    }
    // Keyboard scrolling goes on from the list when the focused tool call scrolled out of the window.
    const active = document.activeElement;
    if (this.focusInside && (active === null || active === document.body || !el.contains(active))) {
      el.focus({ preventScroll: true });
    }
    // Ours, not Preact's: restore() and fold() change it between renders, so the vnode's value may be stale.
    this.applyTopGap();
    this.restore();
  }

  /** Follow the bottom again (the user sent a message, or another conversation was loaded). */
  follow(): void {
    this.stuck = true;
    this.topAdjust = 0;
  }

  /**
   * The render's spacer for rows [0, first): `span` is their summed height. Returns the spacer's height,
   * or 0 when there is nothing to stand in for.
   */
  topGap(span: number): number {
    this.topSpan = span;
    return Math.max(0, span + this.topAdjust);
  }

  /** The position the window should be computed for, in list coordinates, given the row offsets. */
  viewTop(total: number, topOf: (anchor: ScrollAnchor) => number | undefined): number {
    if (this.stuck) return Math.max(0, total - this.viewHeight);
    const a = this.anchor;
    const top = a !== null ? topOf(a) : undefined;
    if (a !== null && top !== undefined) return top - (a.contentTop - (this.el?.scrollTop ?? 0));
    return (this.el?.scrollTop ?? 0) - this.topAdjust;
  }

  private atBottom(el: HTMLDivElement): boolean {
    return el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
  }

  private scrolled(): void {
    const el = this.el;
    if (el === null) return;
    this.stuck = this.atBottom(el);
    this.saveAnchor();
    this.requestRender();
  }

  /** Remember the first row in view and where it is, before anything else moves. */
  private saveAnchor(): void {
    const el = this.el;
    if (el === null) return;
    const box = el.getBoundingClientRect();
    for (const child of this.rowsEl?.children ?? []) {
      const row = child as HTMLElement;
      const key = row.dataset.rowKey;
      if (key === undefined) continue;
      const r = row.getBoundingClientRect();
      if (r.bottom > box.top && r.top < box.bottom) {
        this.anchor = { key, index: Number(row.dataset.rowIndex), contentTop: r.top - box.top + el.scrollTop };
        return;
      }
    }
    this.anchor = null;
  }

  /**
   * Bottom when stuck; else put the anchor row back where it was, through the top spacer when it can
   * take the difference, else through scrollTop. Then take a fresh anchor.
   */
  private restore(): void {
    const el = this.el;
    if (el === null) return;
    if (this.stuck) {
      // At the bottom nothing above is in view: the adjustment can go without anyone seeing it.
      this.topAdjust = 0;
      this.applyTopGap();
      el.scrollTop = el.scrollHeight;
    } else if (this.anchor !== null) {
      const row = this.rowElement(this.anchor);
      if (row !== null) {
        const contentTop = row.getBoundingClientRect().top - el.getBoundingClientRect().top + el.scrollTop;
        const delta = contentTop - this.anchor.contentTop;
        if (Math.abs(delta) >= 0.5) {
          const gap = this.topGapElement();
          const h = gap !== null ? gap.getBoundingClientRect().height : 0;
          if (gap !== null && h - delta >= 0) {
            this.topAdjust = h - delta - this.topSpan;
            gap.style.height = `${h - delta}px`;
          } else {
            el.scrollTop += delta;
            // What the spacer really is (it may have been clamped at 0, or be absent at the first row).
            this.topAdjust = gap !== null ? h - this.topSpan : 0;
          }
        }
      }
    }
    this.saveAnchor();
  }

  /** Scrolling ended: move the spacer adjustment into scrollTop, where nothing is animating any more. */
  private fold(): void {
    const el = this.el;
    if (el === null || this.topAdjust === 0 || this.stuck) return;
    const gap = this.topGapElement();
    if (gap === null) {
      this.topAdjust = 0;
      return;
    }
    const shift = gap.getBoundingClientRect().height - this.topSpan;
    if (el.scrollTop - shift < 0) return;
    this.topAdjust = 0;
    gap.style.height = `${this.topSpan}px`;
    el.scrollTop -= shift;
    this.saveAnchor();
  }

  private applyTopGap(): void {
    const gap = this.topGapElement();
    if (gap !== null) gap.style.height = `${Math.max(0, this.topSpan + this.topAdjust)}px`;
    else this.topAdjust = 0;
  }

  /** The spacer before the first mounted row, if any. */
  private topGapElement(): HTMLElement | null {
    const rows = this.rowsEl;
    if (rows === null) return null;
    for (const child of rows.children) {
      const c = child as HTMLElement;
      if (c.dataset.rowKey !== undefined) return null;
      if (c.classList.contains("chat-gap")) return c;
    }
    return null;
  }

  private rowElement(a: ScrollAnchor): HTMLElement | null {
    const rows = this.rowsEl;
    if (rows === null) return null;
    for (const child of rows.children) {
      const row = child as HTMLElement;
      if (row.dataset.rowKey === a.key) return row;
    }
    // The anchored row was replaced (a streamed message stored under its entry id): use its successor.
    for (const child of rows.children) {
      const row = child as HTMLElement;
      if (row.dataset.rowIndex === String(a.index)) return row;
    }
    return null;
  }

  private resized(entries: readonly ResizeObserverEntry[]): void {
    const el = this.el;
    if (el === null) return;
    let changed = false;
    for (const e of entries) {
      if (e.target === el) {
        this.viewHeight = el.clientHeight;
        if (el.clientWidth !== this.width) {
          // Rows rewrap: heights measured at another width are stale. Mounted rows are measured again now.
          this.width = el.clientWidth;
          this.heights.clear();
          for (const row of this.observed) this.measure(row as HTMLElement, row.getBoundingClientRect().height);
        }
        changed = true;
        continue;
      }
      const h = e.borderBoxSize?.[0]?.blockSize ?? e.target.getBoundingClientRect().height;
      if (this.measure(e.target as HTMLElement, h)) changed = true;
    }
    if (this.userToggle) {
      // Opening a tool call at the bottom shows it below its summary; do not drag the summary away.
      this.userToggle = false;
      this.stuck = false;
      this.restore();
      this.stuck = this.atBottom(el);
    } else this.restore();
    if (changed) {
      this.heightsVersion++;
      // Re-rendering inside the observer callback would mount rows observed in the same pass, which the
      // browser reports as a "ResizeObserver loop" error: recompute the window on the next frame.
      if (this.renderQueued === 0) {
        this.renderQueued = requestAnimationFrame(() => {
          this.renderQueued = 0;
          this.requestRender();
        });
      }
    }
  }

  private measure(row: HTMLElement, h: number): boolean {
    const key = row.dataset.rowKey;
    if (key === undefined || this.heights.get(key) === h) return false;
    this.heights.set(key, h);
    return true;
  }
}
