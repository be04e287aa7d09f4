/** Output caps shared by the tools, so one call cannot flood the model's context. */

/** Default maximum lines a tool returns. */
export const MAX_LINES = 2000;
/** Default maximum bytes a tool returns. */
export const MAX_BYTES = 50 * 1024;
/** Longest single line kept by grep before cutting it. */
export const MAX_LINE_CHARS = 500;

/** Result of a truncation. */
export interface Truncated {
  text: string;
  truncated: boolean;
  /** Lines kept / total lines. */
  keptLines: number;
  totalLines: number;
  /** Set when `text` is the head of a first line longer than the byte cap (`keptLines` is then 0). */
  cutLine?: { keptBytes: number; totalBytes: number };
}

/** How `truncateHead` treats a first line that alone is over the byte cap. */
export interface TruncateHeadOptions {
  /**
   * Keep the cap's worth of its head (whole characters) rather than nothing. Not for `read`, whose paging counts
   * whole lines; for results read once, such as an MCP server's minified JSON.
   */
  cutLongFirstLine?: boolean;
}

/** The longest head of `line` that is at most `maxBytes` of UTF-8, never splitting a character. */
export function utf8Head(line: string, maxBytes: number): string {
  // Every character is at least one byte: no more than maxBytes characters can fit.
  let head = line.length > maxBytes ? line.slice(0, maxBytes) : line;
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  const buf = Buffer.from(head, "utf8");
  if (buf.length <= maxBytes) return head;
  let end = maxBytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--;
  return buf.subarray(0, end).toString("utf8");
}

/** Keep the first lines within both limits (read, grep, find, MCP results). */
export function truncateHead(
  text: string,
  maxLines = MAX_LINES,
  maxBytes = MAX_BYTES,
  options: TruncateHeadOptions = {},
): Truncated {
  const lines = text.split("\n");
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const b = Buffer.byteLength(line, "utf8") + 1;
    if (kept.length >= maxLines || bytes + b > maxBytes) break;
    kept.push(line);
    bytes += b;
  }
  if (kept.length === 0 && maxLines > 0 && options.cutLongFirstLine && lines[0] !== "") {
    const head = utf8Head(lines[0], maxBytes);
    // Exactly the cap (the loop counts a newline after it): the line is whole.
    if (head.length === lines[0].length)
      return { text: head, truncated: lines.length > 1, keptLines: 1, totalLines: lines.length };
    return {
      text: head,
      truncated: true,
      keptLines: 0,
      totalLines: lines.length,
      cutLine: { keptBytes: Buffer.byteLength(head, "utf8"), totalBytes: Buffer.byteLength(lines[0], "utf8") },
    };
  }
  return {
    text: kept.join("\n"),
    truncated: kept.length < lines.length,
    keptLines: kept.length,
    totalLines: lines.length,
  };
}

/** Keep the last lines within both limits (bash: the end of the output is what matters). */
export function truncateTail(text: string, maxLines = MAX_LINES, maxBytes = MAX_BYTES): Truncated {
  const lines = text.split("\n");
  const kept: string[] = [];
  let bytes = 0;
  let cutLine = false;
  for (let i = lines.length - 1; i >= 0; i--) {
    const b = Buffer.byteLength(lines[i], "utf8") + 1;
    if (kept.length >= maxLines || bytes + b > maxBytes) {
      // A single huge last line: keep its tail rather than nothing.
      if (kept.length === 0) {
        kept.push(lines[i].slice(-Math.floor(maxBytes / 2)));
        cutLine = true;
      }
      break;
    }
    kept.push(lines[i]);
    bytes += b;
  }
  kept.reverse();
  return {
    text: kept.join("\n"),
    truncated: cutLine || kept.length < lines.length,
    keptLines: kept.length,
    totalLines: lines.length,
  };
}
