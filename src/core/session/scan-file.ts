/**
 * Streams a session file once, in chunks, and builds the index (EntryColumns) without keeping message bodies.
 *
 * What is read when:
 * - `message` lines in pi's layout (the bulk of any session) are read from their head only: id, parentId,
 *   timestamp, role (byte-head.ts readMessageHead). Their preview, tool names, flags and model are filled in
 *   when first asked for (envelope-fill.ts; SessionManager.getEnvelopes / prefetchEnvelopes), their body when
 *   first read (getEntry, context). Open costs little more than reading the file and finding its lines.
 * - Other lines (labels, leaf markers, compactions, model changes, …: few and small) are parsed whole, and so
 *   is the file's last line, where torn and glued writes end up, and any line not in pi's layout (a large one
 *   gets its envelope from its head through the partial JSON parser when that proves it; head-scan.ts).
 * - A last line without newline that does not parse is a torn write (reported, repaired before the next append).
 * - A line holding several entries (pi before 0.84.3 appended to a line without its newline: two whole entries,
 *   or a torn one and a whole one; glued-line.ts splits them): a small one is seen at once (a second
 *   `"parentId":`) and parsed, which recovers every whole entry on it; a large one leaves the later entries
 *   orphaned, and when the tree has orphans the file is scanned again with `verify`, which searches large lines
 *   for a second `"parentId":` and parses them whole.
 * - A body damaged in the middle is found when it is read: getEntry throws SessionFormatError (file, line),
 *   buildSessionContext leaves it out and adds a load issue, and so does filling its envelope.
 */
import * as fs from "node:fs";
import { messageHead, readMessageHead } from "./byte-head.js";
import { EntryColumns } from "./entry-columns.js";
import { openRegular } from "./file-identity.js";
import { splitGluedLine, type GluedLine } from "./glued-line.js";
import { envelopeFromHead } from "./head-scan.js";
import {
  entryShapeError,
  RETAIN_MAX_BYTES,
  recordOfEntry,
  recordOfEnvelope,
  type EntryRecord,
} from "./entry-record.js";
import type { LoadIssue, SessionEntry, SessionHeader } from "./types.js";

/**
 * Files up to this size are read whole on open: one pass that parses every line is cheapest for them (the
 * head-only index plus a later preview pass only pays off when the file is large).
 */
export const LAZY_MIN_FILE_BYTES = 16 * 1024 * 1024;
/** Lines up to this size that are not read from their head are parsed whole on load. */
export const FULL_PARSE_MAX_BYTES = 8192;
const CHUNK_BYTES = 4 * 1024 * 1024;
const HEADER_CHUNK_BYTES = 64 * 1024;
/** First try: pi's envelope plus a few hundred characters of text. Retried with 2 KB, then 8 KB. */
const HEAD_SMALL = 512;
const PARENT_KEY = Buffer.from('"parentId":');

/** Options of scanSessionFile. */
export interface ScanOptions {
  /** Read line 1 only. */
  headerOnly?: boolean;
  /**
   * Read `message` lines in pi's layout from their heads only (their records are made pending; see
   * EntryRecord.pending). Default: for files over LAZY_MIN_FILE_BYTES.
   */
  headsOnly?: boolean;
  /**
   * Also search every large line for a second entry glued to it (one more pass over the bytes). Used when the
   * tree has orphans, which is what a glued entry leaves behind.
   */
  verify?: boolean;
}

/** What scanSessionFile found. */
export interface ScanResult {
  /** Undefined for an empty file. */
  header?: SessionHeader;
  /** Set when line 1 exists but is not a session header. */
  headerError?: string;
  /** Byte length of the header line (without newline). */
  headerLength: number;
  /** The entries, in file order. */
  entries: EntryColumns;
  issues: LoadIssue[];
  fileSize: number;
  /** The file ends in a torn line starting at this offset (ignored; repaired before the next append). */
  tornOffset?: number;
  /** The file's last line is a complete entry without a final newline. */
  missingFinalNewline: boolean;
  /** Number of lines seen (a torn last line included). */
  lineCount: number;
}

function parseHeader(text: string): { header?: SessionHeader; error?: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `line 1 is not JSON (${(e as Error).message})` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { error: "line 1 is not a JSON object" };
  const h = v as Record<string, unknown>;
  if (h.type !== "session") return { error: `line 1 is not a session header (type ${JSON.stringify(h.type)})` };
  if (typeof h.id !== "string") return { error: "session header has no id" };
  if (h.version !== undefined && typeof h.version !== "number")
    return { error: "session header version is not a number" };
  return { header: h as SessionHeader };
}

/**
 * Scan a session file. Header-only when `headerOnly` (used to detect old versions cheaply).
 * Never throws for bad content; I/O errors propagate, and SessionFileTypeError for a path that is not a
 * regular file (checked on the opened handle, so a FIFO never blocks).
 */
export function scanSessionFile(path: string, opts: ScanOptions = {}): ScanResult {
  const fd = openRegular(path, fs.constants.O_RDONLY);
  try {
    return scanFd(fd, opts);
  } finally {
    fs.closeSync(fd);
  }
}

function readRange(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, done, length - done, offset + done);
    if (n === 0) throw new Error(`unexpected end of file at ${offset + done}`);
    done += n;
  }
  return buf;
}

function scanFd(fd: number, opts: ScanOptions): ScanResult {
  const headerOnly = opts.headerOnly === true;
  const fileSize = fs.fstatSync(fd).size;
  const headsOnly = opts.headsOnly ?? fileSize > LAZY_MIN_FILE_BYTES;
  const result: ScanResult = {
    headerLength: 0,
    // About one entry per KB in real sessions; a guess only saves regrowing the typed columns.
    entries: new EntryColumns(headerOnly ? 16 : fileSize / 1024),
    issues: [],
    fileSize,
    missingFinalNewline: false,
    lineCount: 0,
  };
  // The header alone needs one small read, not a whole chunk.
  const chunkBytes = headerOnly ? HEADER_CHUNK_BYTES : CHUNK_BYTES;
  const buf = Buffer.allocUnsafe(chunkBytes);
  let chunkStart = 0; // file offset of buf[0]
  let chunkLen = 0;
  let lineNo = 0;
  let pos = 0; // file offset of the next line
  let previousId: string | undefined; // id of the last head-only line (parentIds usually repeat it)
  const entries = result.entries;
  const push = (rec: EntryRecord): void => entries.pushRecord(rec);

  const fill = (at: number): void => {
    chunkStart = at;
    chunkLen = 0;
    while (chunkLen < chunkBytes && at + chunkLen < fileSize) {
      const n = fs.readSync(fd, buf, chunkLen, chunkBytes - chunkLen, at + chunkLen);
      if (n === 0) break;
      chunkLen += n;
    }
  };

  /** Bytes of [offset, offset+length) as a string, from the chunk when there, else from disk. */
  const text = (offset: number, length: number): string => {
    if (offset >= chunkStart && offset + length <= chunkStart + chunkLen)
      return buf.toString("utf8", offset - chunkStart, offset - chunkStart + length);
    return readRange(fd, offset, length).toString("utf8");
  };

  const hasGluedEntry = (offset: number, length: number, headEnd: number): boolean => {
    if (offset >= chunkStart && offset + length <= chunkStart + chunkLen) {
      const s = offset - chunkStart;
      const i = buf.indexOf(PARENT_KEY, s + headEnd);
      return i >= 0 && i < s + length;
    }
    return readRange(fd, offset, length).indexOf(PARENT_KEY, headEnd) >= 0;
  };

  const handleLine = (offset: number, length: number, terminated: boolean): void => {
    lineNo++;
    if (lineNo === 1) {
      result.headerLength = length;
      const { header, error } = parseHeader(text(offset, length));
      if (header) {
        result.header = header;
        // A header without its newline: the first append must start a new line.
        if (!terminated) result.missingFinalNewline = true;
      } else if (length > 0 || terminated) result.headerError = error;
      return;
    }
    if (length === 0) return;
    // The last line is always parsed whole: it is where torn and glued writes end up.
    const isLast = !terminated || offset + length + 1 >= fileSize;
    const inChunk = offset + length <= chunkStart + chunkLen;
    // Message lines (the bulk of any session): structure only, from the head; the preview and the rest are
    // read when first asked for (envelope-fill.ts). Other types are rare and small, and parsed below.
    if (headsOnly && !isLast && !opts.verify && inChunk) {
      const s = offset - chunkStart;
      // A small line holding a second entry key is a torn write with an entry glued on: parsed below, where
      // the glued entry is recovered. (For large lines a glued entry shows as orphans; see `verify`.)
      if (
        readMessageHead(buf, s, s + length, previousId) &&
        !(length <= RETAIN_MAX_BYTES && hasSecondParentKey(buf, s, s + length))
      ) {
        const h = messageHead;
        entries.pushHead(h.id, h.parentId, h.timestamp, h.role, offset, length, lineNo);
        previousId = h.id;
        return;
      }
    }
    if (length > FULL_PARSE_MAX_BYTES && !isLast) {
      for (const headLen of [HEAD_SMALL, 2048, FULL_PARSE_MAX_BYTES]) {
        const env = envelopeFromHead(text(offset, headLen));
        if (env) {
          if (opts.verify === true && hasGluedEntry(offset, length, text(offset, headLen).indexOf('"message"'))) break;
          push(recordOfEnvelope(env, offset, length, lineNo));
          return;
        }
      }
    }
    let parsed: unknown;
    const lineText = text(offset, length);
    try {
      parsed = JSON.parse(lineText);
    } catch (e) {
      const glued = splitGluedLine(lineText, (v) => !entryShapeError(v), !terminated);
      if (glued) {
        recoverGlued(glued, lineText, offset, lineNo, terminated);
        return;
      }
      if (!terminated) {
        result.tornOffset = offset;
        result.issues.push({
          line: lineNo,
          reason: `torn last line (${length} bytes, no newline): ${(e as Error).message}`,
          torn: true,
        });
      } else {
        result.issues.push({ line: lineNo, reason: `not valid JSON: ${(e as Error).message}` });
      }
      return;
    }
    const shapeError = entryShapeError(parsed);
    if (shapeError) {
      result.issues.push({ line: lineNo, reason: shapeError });
      if (!terminated) result.missingFinalNewline = true;
      return;
    }
    if (!terminated) result.missingFinalNewline = true;
    const rec = recordOfEntry(parsed as SessionEntry, offset, length, lineNo, false);
    if (length <= RETAIN_MAX_BYTES) rec.raw = lineText;
    push(rec);
  };

  /** Records for the entries of a glued line, the issue that reports it, and a torn entry ending it. */
  const recoverGlued = (
    glued: GluedLine,
    lineText: string,
    offset: number,
    lineNo: number,
    terminated: boolean,
  ): void => {
    const bytes = (chars: number): number => Buffer.byteLength(lineText.slice(0, chars));
    const ids = glued.pieces.map((p) => (p.value as SessionEntry).id);
    const skipped = bytes(glued.skipped);
    const what =
      skipped > 0
        ? `a torn entry (${skipped} bytes) followed by ${ids.length > 1 ? "entries" : "entry"} ${ids.join(", ")}`
        : `entries ${ids.join(", ")} written on one line (a writer appended to a line that had no newline)`;
    const tail = glued.tornTail === undefined ? "" : ", then a torn entry";
    result.issues.push({
      line: lineNo,
      reason: `not valid JSON: ${what} on the same line${tail}; ${ids.length > 1 ? "those entries were" : "that entry was"} recovered`,
      ...(glued.tornTail === undefined ? {} : { torn: true }),
    });
    for (const piece of glued.pieces) {
      const start = bytes(piece.start);
      const size = bytes(piece.end) - start;
      const rec = recordOfEntry(piece.value as SessionEntry, offset + start, size, lineNo, false);
      if (size <= RETAIN_MAX_BYTES) rec.raw = lineText.slice(piece.start, piece.end);
      push(rec);
    }
    // A torn entry ending the file is cut off before the next append (kept beside the file); the whole ones
    // stay, and the next line then needs a newline first.
    if (glued.tornTail !== undefined) result.tornOffset = offset + bytes(glued.tornTail);
    if (!terminated) result.missingFinalNewline = true;
  };

  fill(0);
  while (pos < fileSize) {
    if (pos < chunkStart || pos >= chunkStart + chunkLen) fill(pos);
    const nl = buf.indexOf(10, pos - chunkStart);
    if (nl >= 0 && nl < chunkLen) {
      handleLine(pos, chunkStart + nl - pos, true);
      pos = chunkStart + nl + 1;
      if (headerOnly && lineNo >= 1) break;
      continue;
    }
    // The line runs past this chunk.
    if (chunkStart + chunkLen >= fileSize) {
      handleLine(pos, fileSize - pos, false);
      pos = fileSize;
      break;
    }
    if (pos > chunkStart) {
      fill(pos); // re-read from the line start so short lines stay within one chunk
      continue;
    }
    // A line longer than a whole chunk: its head is in buf; find its end on disk.
    let end = -1;
    const probe = Buffer.allocUnsafe(CHUNK_BYTES);
    let at = chunkStart + chunkLen;
    while (at < fileSize) {
      const n = fs.readSync(fd, probe, 0, Math.min(CHUNK_BYTES, fileSize - at), at);
      if (n === 0) break;
      const i = probe.indexOf(10);
      if (i >= 0 && i < n) {
        end = at + i;
        break;
      }
      at += n;
    }
    if (end < 0) {
      handleLine(pos, fileSize - pos, false);
      pos = fileSize;
    } else {
      handleLine(pos, end - pos, true);
      pos = end + 1;
    }
  }
  result.lineCount = lineNo;
  return result;
}

/** True when buf[start, end) holds `"parentId":` twice (a glued line; in a string the quotes are escaped). */
function hasSecondParentKey(buf: Buffer, start: number, end: number): boolean {
  const first = buf.indexOf(PARENT_KEY, start);
  if (first < 0 || first >= end) return false;
  const second = buf.indexOf(PARENT_KEY, first + PARENT_KEY.length);
  return second >= 0 && second < end;
}

/** Read one line's bytes (for lazy body loading and the torn-tail copy). */
export function readLine(fd: number, offset: number, length: number): Buffer {
  return readRange(fd, offset, length);
}
