/** Reading a window of lines without loading a huge file into memory. */
import type { FileHandle } from "node:fs/promises";
import { createInterface } from "node:readline";

/** Files up to this size are read whole (simple and fast); larger ones are streamed. */
export const WHOLE_FILE_BYTES = 8 * 1024 * 1024;

/** Lines `offset`..`offset+count-1` (1-based) and the file's total line count. */
export interface LineWindow {
  lines: string[];
  totalLines: number;
  /** True if the start of the file contains a NUL byte (binary). */
  binary: boolean;
}

/**
 * Read up to `count` lines starting at line `offset` (1-based) of the open file `fh` of `size` bytes. Large
 * files are streamed line by line and only the window is kept, so a multi-GB log costs time, not memory.
 * Reads by position; the caller keeps (and closes) the handle.
 */
export async function readLineWindow(fh: FileHandle, size: number, offset: number, count: number): Promise<LineWindow> {
  const head = Buffer.alloc(Math.min(8192, size));
  await fh.read(head, 0, head.length, 0);
  if (head.includes(0)) return { lines: [], totalLines: 0, binary: true };
  if (size <= WHOLE_FILE_BYTES) {
    const all = (await fh.readFile("utf8")).split("\n");
    return { lines: all.slice(offset - 1, offset - 1 + count), totalLines: all.length, binary: false };
  }
  const lines: string[] = [];
  let n = 0;
  const input = fh.createReadStream({ encoding: "utf8", start: 0, autoClose: false });
  const rl = createInterface({ input, crlfDelay: Infinity });
  for await (const line of rl) {
    n++;
    if (n >= offset && lines.length < count) lines.push(line);
  }
  // readline drops a trailing empty line that split("\n") would count; keep counts consistent.
  const endsWithNewline = await endsWithLf(fh, size);
  return { lines, totalLines: endsWithNewline ? n + 1 : n, binary: false };
}

async function endsWithLf(fh: FileHandle, size: number): Promise<boolean> {
  if (size === 0) return false;
  const b = Buffer.alloc(1);
  await fh.read(b, 0, 1, size - 1);
  return b[0] === 0x0a;
}
