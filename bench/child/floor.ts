/** The raw floor: the least any store must do to open a file — read every byte once and find the lines. */
import { closeSync, openSync, readSync } from "node:fs";

const CHUNK = 4 * 1024 * 1024;

/** Reads `file` in 4 MB chunks and counts newlines. Returns the line count. */
export function readFloor(file: string): number {
  const fd = openSync(file, "r");
  const buffer = Buffer.allocUnsafe(CHUNK);
  let lines = 0;
  try {
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, null);
      if (read === 0) break;
      let at = buffer.indexOf(10);
      while (at !== -1 && at < read) {
        lines++;
        at = buffer.indexOf(10, at + 1);
      }
    }
  } finally {
    closeSync(fd);
  }
  return lines;
}
