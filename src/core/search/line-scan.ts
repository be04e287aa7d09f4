/**
 * Finds the lines of a file that hold a match, reading it in 4 MB chunks, never whole.
 *
 * Each chunk is searched by a ChunkMatcher (raw bytes, no decoding); only a line holding a match is handed
 * on, as bytes, for the caller to decode. A match may straddle two chunks: the last `overlap` bytes of a
 * chunk are searched again at the front of the next. A line longer than a chunk is followed to its end and
 * read alone; the scan then goes on after it.
 */
import { open, type FileHandle } from "node:fs/promises";
import type { ChunkMatcher } from "./chunk-matcher.js";

/** Bytes read at a time. */
export const CHUNK_BYTES = 4 * 1024 * 1024;
const NEWLINE = 10;

/** A line holding a match. */
export interface CandidateLine {
  /** Byte offset of the line in the file. */
  offset: number;
  /** The line without its newline. Valid only during the callback (the buffer is reused). */
  bytes: Buffer;
  /** The line ends the file without a newline (a torn write, if it does not parse). */
  last: boolean;
}

async function readAt(fh: FileHandle, buf: Buffer, at: number, length: number, position: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fh.read(buf, at + done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

async function readRange(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.allocUnsafe(length);
  const n = await readAt(fh, buf, 0, length, position);
  return n === length ? buf : buf.subarray(0, n);
}

/**
 * Calls `onLine` for every line of `file` in which `matcher` finds a match, in file order, once per line.
 * `overlap` is the longest match minus one. Bytes read are added to `counter.bytes` as they are read.
 * Throws the signal's reason when aborted (checked before every read); I/O errors propagate.
 */
export async function scanLines(
  file: string,
  matcher: ChunkMatcher,
  overlap: number,
  onLine: (line: CandidateLine) => void,
  counter: { bytes: number },
  signal?: AbortSignal,
): Promise<void> {
  const fh = await open(file, "r");
  try {
    const buf = Buffer.allocUnsafe(CHUNK_BYTES + overlap);
    let pos = 0;
    let carried = 0;
    /** Absolute offset of the last newline before the current chunk's own bytes (-1: none yet). */
    let lastNewline = -1;
    for (;;) {
      signal?.throwIfAborted();
      const n = await readAt(fh, buf, carried, CHUNK_BYTES, pos);
      if (n === 0) break;
      counter.bytes += n;
      const base = pos - carried;
      const len = carried + n;
      pos += n;
      const view = buf.subarray(0, len);
      matcher.reset(view);
      let jumped = false;
      for (let at = matcher.next(0); at >= 0;) {
        const before = at > 0 ? view.lastIndexOf(NEWLINE, at - 1) : -1;
        const start = before >= 0 ? base + before + 1 : lastNewline + 1;
        const after = view.indexOf(NEWLINE, at);
        if (after >= 0) {
          const line =
            start >= base ? view.subarray(start - base, after) : await readRange(fh, start, base + after - start);
          onLine({ offset: start, bytes: line, last: false });
          at = matcher.next(after + 1);
          continue;
        }
        // The line goes on past this chunk: find its end (the buffer serves as scratch), read it alone.
        let end = base + len;
        let eof = false;
        for (;;) {
          signal?.throwIfAborted();
          const got = await readAt(fh, buf, 0, CHUNK_BYTES, end);
          counter.bytes += got;
          const nl = got > 0 ? buf.subarray(0, got).indexOf(NEWLINE) : -1;
          if (nl >= 0) {
            end += nl;
            break;
          }
          end += got;
          if (got < CHUNK_BYTES) {
            eof = true;
            break;
          }
        }
        onLine({ offset: start, bytes: await readRange(fh, start, end - start), last: eof });
        pos = end + 1;
        carried = 0;
        lastNewline = end;
        jumped = true;
        break;
      }
      if (jumped) continue;
      const nl = view.lastIndexOf(NEWLINE);
      if (nl >= 0) lastNewline = base + nl;
      carried = Math.min(overlap, len);
      buf.copy(buf, 0, len - carried, len);
    }
  } finally {
    await fh.close();
  }
}
