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
}

/** Keep the first lines within both limits (read, grep, find). */
export function truncateHead(text: string, maxLines = MAX_LINES, maxBytes = MAX_BYTES): Truncated {
  const lines = text.split("\n");
  const kept: string[] = [];
  let bytes = 0;
  for (const line of lines) {
    const b = Buffer.byteLength(line, "utf8") + 1;
    if (kept.length >= maxLines || bytes + b > maxBytes) break;
    kept.push(line);
    bytes += b;
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
