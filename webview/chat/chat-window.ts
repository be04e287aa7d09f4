/**
 * Windowing arithmetic for the chat list, free of DOM access so it can be unit tested: which messages
 * are rows, how tall an unmeasured row probably is, and which rows intersect a band of the scroll area.
 */
import type { ChatMessageDto } from "../../src/shared/protocol.js";

/** One rendered row of the chat: a message, or a tool result whose call is not on the path. */
export interface ChatRow {
  key: string;
  message: ChatMessageDto;
  /** A tool result shown on its own because its call is not in this chat. */
  orphan: boolean;
}

/**
 * The rows of a path, keyed by `keyOf` of each message's id (ChatModel.rowKeyOf). A tool result paired with a call on the path is drawn inside that call, so it is
 * no row of its own (it would be an empty, zero-height row otherwise).
 */
export function chatRows(messages: readonly ChatMessageDto[], keyOf: (id: string) => string = (id) => id): ChatRow[] {
  const callIds = new Set<string>();
  for (const m of messages) for (const c of m.toolCalls ?? []) callIds.add(c.id);
  const rows: ChatRow[] = [];
  for (const m of messages) {
    if (m.role === "toolResult") {
      if (m.toolCallId !== undefined && callIds.has(m.toolCallId)) continue;
      rows.push({ key: keyOf(m.id), message: m, orphan: true });
    } else rows.push({ key: keyOf(m.id), message: m, orphan: false });
  }
  return rows;
}

/** Approximate pixel metrics of the chat's CSS (media/webview.css), used only for estimates. */
const LINE = 18;
const MONO_LINE = 16;
const CHAR_WIDTH = 7;
/** Row margins, message padding and the role line. */
const CHROME = 12 + 10 + 16;
/** A collapsed <details> (thinking, tool call, summary). */
const DETAILS = 24;

/** Wrapped line count of text at `perLine` characters; long texts are sampled, not scanned. */
function lineCount(text: string, perLine: number): number {
  if (text === "") return 0;
  // Beyond a few KB an estimate need not be exact: extrapolate from the start instead of walking 10 KB.
  const sample = text.length > 4000 ? text.slice(0, 4000) : text;
  let lines = 0;
  let start = 0;
  for (;;) {
    const nl = sample.indexOf("\n", start);
    const len = (nl < 0 ? sample.length : nl) - start;
    lines += Math.max(1, Math.ceil(len / perLine));
    if (nl < 0) break;
    start = nl + 1;
  }
  return sample === text ? lines : Math.ceil((lines * text.length) / sample.length);
}

/** Estimated height in pixels of a row not measured yet, for a list `width` pixels wide. */
export function estimateRowHeight(row: ChatRow, width: number): number {
  const m = row.message;
  const perLine = Math.max(20, Math.floor((width - 40) / CHAR_WIDTH));
  if (row.orphan) return 12 + 8 + DETAILS;
  switch (m.role) {
    case "user":
    case "custom":
      return CHROME + lineCount(m.text, perLine) * LINE;
    case "assistant":
      return (
        CHROME +
        (m.text !== "" ? lineCount(m.text, perLine) * LINE + 8 : 0) +
        (m.thinking ? DETAILS : 0) +
        (m.toolCalls?.length ?? 0) * DETAILS +
        (m.stopReason === "error" || m.stopReason === "aborted" ? LINE : 0)
      );
    case "bashExecution":
      return 12 + 16 + lineCount(m.text, perLine) * MONO_LINE;
    default:
      return 12 + 8 + DETAILS;
  }
}

/** Row tops as prefix sums: offsets[i] is the top of row i, offsets[n] the total height. */
export class RowOffsets {
  readonly offsets: Float64Array;

  constructor(heights: readonly number[]) {
    this.offsets = new Float64Array(heights.length + 1);
    for (let i = 0; i < heights.length; i++) this.offsets[i + 1] = this.offsets[i] + heights[i];
  }

  /** Number of rows. */
  get count(): number {
    return this.offsets.length - 1;
  }

  /** Height of all rows. */
  get total(): number {
    return this.offsets[this.count];
  }

  /** Index of the row covering `y` (clamped to the rows). */
  indexAt(y: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.offsets[mid] <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }

  /** Rows [start, end) intersecting the band [top, bottom]; empty when there are no rows. */
  range(top: number, bottom: number): { start: number; end: number } {
    if (this.count === 0) return { start: 0, end: 0 };
    const start = this.indexAt(top);
    const end = Math.max(start + 1, this.indexAt(bottom) + 1);
    return { start, end: Math.min(end, this.count) };
  }

  /** Summed height of rows [from, to). */
  span(from: number, to: number): number {
    return to > from ? this.offsets[to] - this.offsets[from] : 0;
  }
}
