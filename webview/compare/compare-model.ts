/**
 * State of the compare view outside Preact: the overview, the pages of turns loaded so far, which pages to ask
 * for next, the row heights of the windowed list (measured where drawn, estimated elsewhere) and the way from one
 * difference to the next. Nothing here touches the DOM, so it is tested as plain code.
 */
import {
  statusOfCode,
  type CompareFileChange,
  type CompareOverview,
  type CompareStatus,
  type CompareTurn,
} from "../../src/core/compare/compare-types.js";
import type { HostToCompare } from "../../src/shared/protocol.js";
import { RowOffsets } from "../chat/chat-window.js";

/** Turns per page request. */
export const PAGE_TURNS = 20;
/** Height of a turn whose page has not arrived yet (a header and a line or two). */
const PLACEHOLDER_HEIGHT = 96;
/** Approximate metrics of media/compare.css, for turns not measured yet. */
const LINE = 18;
const CHAR_WIDTH = 7;
const TURN_CHROME = 34;
const CELL_CHROME = 30;

/** Estimated height of a loaded turn that has not been measured yet, for a list `width` pixels wide. */
export function estimateTurnHeight(turn: CompareTurn, width: number): number {
  const perLine = Math.max(20, Math.floor((width / 2 - 40) / CHAR_WIDTH));
  let h = TURN_CHROME;
  for (const row of turn.rows) {
    let cell = 0;
    for (const c of [row.left, row.right]) {
      if (!c) continue;
      const text = c.item.text.length > 4000 ? c.item.text.slice(0, 4000) : c.item.text;
      let lines = 0;
      for (const line of text.split("\n")) lines += Math.max(1, Math.ceil(line.length / perLine));
      cell = Math.max(cell, CELL_CHROME + Math.min(lines, 400) * LINE);
    }
    h += cell;
  }
  return h;
}

/** The compare view's model. */
export class CompareModel {
  overview: CompareOverview | undefined;
  sessionName: string | undefined;
  files: CompareFileChange[] | undefined;
  /** Status of every aligned turn. */
  statuses: CompareStatus[] = [];
  /** Turns that arrived, by index. */
  readonly turns = new Map<number, CompareTurn>();
  /** Measured border-box heights by turn index. */
  private readonly measured = new Map<number, number>();
  private readonly requested = new Set<number>();
  private cached: { width: number; version: number; offsets: RowOffsets } | undefined;
  private version = 0;
  private readonly listeners = new Set<() => void>();

  /** Subscribe to changes; returns an unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Apply a message from the host. Returns true when it changed the model. */
  apply(msg: HostToCompare): boolean {
    switch (msg.type) {
      case "compare/snapshot":
        this.overview = msg.overview;
        this.sessionName = msg.sessionName;
        this.statuses = [...msg.overview.statuses].map(statusOfCode);
        this.turns.clear();
        this.measured.clear();
        this.requested.clear();
        break;
      case "compare/turns":
        for (const t of msg.turns) if (t.index >= 0 && t.index < this.statuses.length) this.turns.set(t.index, t);
        break;
      case "compare/files":
        this.files = msg.files;
        break;
      default:
        return false;
    }
    this.version++;
    this.changed();
    return true;
  }

  /** Number of aligned turns. */
  get count(): number {
    return this.statuses.length;
  }

  /** How many turns have each status. */
  counts(): Record<CompareStatus, number> {
    const out: Record<CompareStatus, number> = { same: 0, changed: 0, left: 0, right: 0 };
    for (const s of this.statuses) out[s]++;
    return out;
  }

  /**
   * The page requests turns [first, last) need, as (start, count): pages neither loaded nor asked for yet. They
   * count as asked for from now on.
   */
  pagesToRequest(first: number, last: number): { start: number; count: number }[] {
    const out: { start: number; count: number }[] = [];
    if (this.count === 0) return out;
    const from = Math.max(0, Math.floor(first / PAGE_TURNS));
    const to = Math.floor((Math.min(last, this.count) - 1) / PAGE_TURNS);
    for (let page = from; page <= to; page++) {
      const start = page * PAGE_TURNS;
      if (this.requested.has(page) || this.turns.has(start)) continue;
      this.requested.add(page);
      out.push({ start, count: Math.min(PAGE_TURNS, this.count - start) });
    }
    return out;
  }

  /** Record a drawn turn's height; true when it changed (the offsets move). */
  measure(index: number, height: number): boolean {
    if (this.measured.get(index) === height) return false;
    this.measured.set(index, height);
    this.version++;
    return true;
  }

  /** Row tops of the windowed list for a list `width` pixels wide (recomputed only after a change). */
  offsets(width: number): RowOffsets {
    const c = this.cached;
    if (c && c.width === width && c.version === this.version) return c.offsets;
    const heights = new Array<number>(this.count);
    for (let i = 0; i < this.count; i++) {
      const turn = this.turns.get(i);
      heights[i] = this.measured.get(i) ?? (turn ? estimateTurnHeight(turn, width) : PLACEHOLDER_HEIGHT);
    }
    const offsets = new RowOffsets(heights);
    this.cached = { width, version: this.version, offsets };
    return offsets;
  }

  /** The nearest turn after (`dir` 1) or before (-1) `from` that is not the same on both sides, or -1. */
  nextDifference(from: number, dir: 1 | -1): number {
    for (let i = from + dir; i >= 0 && i < this.count; i += dir) if (this.statuses[i] !== "same") return i;
    return -1;
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
