/**
 * Reads a session's bytes once, in chunks, and builds its EntryTable: every line goes through readEntryLine
 * (the entry scanner, JSON.parse as the fallback and for the short lines of a small file), so when the scan
 * ends every envelope — preview, tool names, flags — and meta is known, and no body is kept.
 *
 * Damage:
 * - A last line without newline that does not parse is a torn write (reported; repaired before the next
 *   append, see SessionFile). The last line is read to its end (`strict`), so a torn or glued write there is
 *   always seen.
 * - A line holding several entries (pi before 0.84.3 appended to a line without its newline: two whole
 *   entries, or a torn one and a whole one; glued-line.ts splits them) does not parse, and every whole entry
 *   on it is recovered. A line the scanner stopped reading early (a long tool result) would hide an entry
 *   glued after that point: the later entries then hang off an id nobody has, and the session manager scans
 *   a file with orphans again with `strict`.
 * - A line that is not JSON, or not an entry, is skipped and reported with its line number.
 * - A body damaged after its envelope is found when it is read: getEntry throws SessionFormatError (file,
 *   line), buildSessionContext leaves it out and adds a load issue.
 */
import { isAscii } from "node:buffer";
import * as fs from "node:fs";
import { contextReads } from "./context.js";
import {
  readEntryLine,
  readEntryText,
  isLineFailure,
  entryShapeError,
  factsOfEntry,
  PARSE_FILE_MAX_BYTES,
  SCAN_MIN_BYTES,
  type LineFailure,
} from "./entry-line.js";
import type { EntryFacts } from "./entry-scanner.js";
import { EntryTable } from "./entry-table.js";
import { openRegular } from "./file-identity.js";
import { splitGluedLine, type GluedLine } from "./glued-line.js";
import { PreviewArena } from "./preview-bytes.js";
import type { LoadIssue, SessionEntry, SessionHeader } from "./types.js";
import { errorText } from "../error-text.js";

/** Bytes read at a time. */
export const CHUNK_BYTES = 4 * 1024 * 1024;
const HEADER_CHUNK_BYTES = 64 * 1024;
/**
 * How far down the current branch a line's parent is looked for (see ScanResult.bodies); one found further
 * down starts the branch anew (its bodies are then read from the file when the context needs them).
 */
const BRANCH_LOOKBACK = 256;
/**
 * A small file's columns are sized for an entry per this many bytes (a big file's for one per KB, about what real
 * sessions hold). Growing them during the scan runs a path the engine has no feedback for by then, which throws the
 * optimised `EntryTable.push` away (the 10k-levels-deep session, ~700 bytes per entry, grew at its 13,956th entry;
 * the 10k-entry one, ~960, at its 9,355th) until it is compiled again. Oversizing costs 20 bytes per slot: at most
 * 1.3 MB at 16 MB.
 */
const SMALL_FILE_BYTES_PER_ENTRY = 256;

/** Options of scanSession. */
export interface ScanOptions {
  /** Read line 1 only. */
  headerOnly?: boolean;
  /**
   * Read line 1 only when the header's version is below this (a file that is migrated before its entries are
   * read): one scan, instead of a look at the header and then a scan, opens a current file.
   */
  minVersion?: number;
  /** Read every line to its end (see entry-scanner.ts): used when the tree has orphans. */
  strict?: boolean;
  /** Bytes read at a time (tests use small chunks to put lines across chunk ends). */
  chunkBytes?: number;
  /**
   * Short lines go straight to JSON.parse, not to the entry scanner (see PARSE_FILE_MAX_BYTES); default: for a
   * file up to that size.
   */
  parseShort?: boolean;
  /**
   * Read only the lines of [start, end) — whole lines another program appended since the open
   * (SessionManager.refreshFromDisk) —, numbering them after line `line`. No header is read there.
   */
  range?: { start: number; end: number; line: number };
}

/** What scanSession found. */
export interface ScanResult {
  /** Undefined for an empty file. */
  header?: SessionHeader;
  /** Set when line 1 exists but is not a session header. */
  headerError?: string;
  /** The entries, in file order. */
  entries: EntryTable;
  issues: LoadIssue[];
  /** Bytes scanned (the file's size when the scan started). */
  fileSize: number;
  /** The file ends in a torn line starting at this offset (ignored; repaired before the next append). */
  tornOffset?: number;
  /** The file's last line is a complete line without a final newline. */
  missingFinalNewline: boolean;
  /** Number of lines seen (a torn last line included). */
  lineCount: number;
  /** pi's activity time of the session: the newest user or assistant message's (see activityOf). */
  activity?: number;
  /**
   * The parsed bodies a context at the end of the file reads, by entry position: in a file whose short lines
   * are parsed whole anyway (PARSE_FILE_MAX_BYTES), the entries of the branch the last line ends, after its
   * latest compaction, are kept as parsed, so the first context after open does not read and parse them again.
   * Long lines (read by the entry scanner, not parsed) are not in it.
   */
  bodies?: Map<number, SessionEntry>;
}

function parseHeader(text: string): { header?: SessionHeader; error?: string } {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { error: `line 1 is not JSON (${errorText(e)})` };
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return { error: "line 1 is not a JSON object" };
  const h = v as Record<string, unknown>;
  if (h.type !== "session") return { error: `line 1 is not a session header (type ${JSON.stringify(h.type)})` };
  if (typeof h.id !== "string") return { error: "session header has no id" };
  if (h.version !== undefined && typeof h.version !== "number")
    return { error: "session header version is not a number" };
  return { header: h as SessionHeader };
}

/** Where the bytes come from: a file (read in chunks) or a buffer in memory. */
type Source = { fd: number; size: number } | { bytes: Buffer };

/**
 * Scan the session file at `path`. Never throws for bad content; I/O errors propagate, and
 * SessionFileTypeError for a path that is not a regular file (checked on the opened handle, so a FIFO never
 * blocks).
 */
export function scanSessionFile(path: string, opts: ScanOptions = {}): ScanResult {
  const fd = openRegular(path, fs.constants.O_RDONLY);
  try {
    return scan({ fd, size: fs.fstatSync(fd).size }, opts);
  } finally {
    fs.closeSync(fd);
  }
}

/** Scan a session held in memory (a migrated file viewed read-only). */
export function scanSessionBytes(bytes: Buffer, opts: ScanOptions = {}): ScanResult {
  return scan({ bytes }, opts);
}

function readRange(fd: number, buf: Buffer, at: number, offset: number, length: number): number {
  let done = 0;
  while (done < length) {
    const n = fs.readSync(fd, buf, at + done, length - done, offset + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

function scan(source: Source, opts: ScanOptions): ScanResult {
  const headerOnly = opts.headerOnly === true;
  const strict = opts.strict === true;
  const range = opts.range;
  const fileSize = range ? range.end : "fd" in source ? source.size : source.bytes.length;
  const first = range?.start ?? 0;
  const parseShort = opts.parseShort ?? fileSize - first <= PARSE_FILE_MAX_BYTES;
  const result: ScanResult = {
    entries: new EntryTable(headerOnly ? 16 : (fileSize - first) / (parseShort ? SMALL_FILE_BYTES_PER_ENTRY : 1024)),
    issues: [],
    fileSize,
    missingFinalNewline: false,
    lineCount: 0,
  };
  const chunkBytes = headerOnly ? HEADER_CHUNK_BYTES : (opts.chunkBytes ?? CHUNK_BYTES);
  let buf: Buffer =
    "fd" in source ? Buffer.allocUnsafe(Math.min(chunkBytes, Math.max(fileSize - first, 1))) : source.bytes;
  let chunkStart = 0; // file offset of buf[0]
  let chunkLen = "fd" in source ? 0 : fileSize;
  let lineNo = range?.line ?? 0;
  let previousId: string | undefined;
  const entries = result.entries;
  // Short lines go to JSON.parse, cut from the chunk decoded once (one native call, not one per line).
  const decodeChunks = parseShort && !headerOnly;
  /**
   * buf[0 .. through the chunk's last newline] as text when that part of the chunk is all ASCII (so the text's
   * offsets are buf's), else "" and each short line is decoded alone, as UTF-8, from buf. Decoding a chunk with
   * other characters as UTF-8 would make the whole of it a two-byte string, slower to parse; decoding it as
   * Latin-1 and each line holding another character a second time, as UTF-8, cost more than decoding every line
   * of it once (measured on the bench's 10k-entry session, where a third of the lines hold a "—" or "✓").
   */
  let text = "";
  /** The scanned lines' ASCII previews, decoded together (flushed before the table is returned). */
  const previews = headerOnly ? undefined : new PreviewArena();

  const decode = (): void => {
    text = "";
    if (!decodeChunks) return;
    const last = buf.lastIndexOf(10, chunkLen - 1);
    if (last < 0 || !isAscii(buf.subarray(0, last + 1))) return;
    text = buf.toString("latin1", 0, last + 1);
  };

  // The branch the lines so far end on (its entries' ids, positions and kept bodies, root side first), while
  // the short lines of a small file are parsed: see ScanResult.bodies.
  const keepBodies = parseShort && !headerOnly;
  const branchIds: string[] = [];
  const branchPositions: number[] = [];
  const branchBodies: (SessionEntry | undefined)[] = [];
  /** Bodies below this index of the branch were let go (a compaction above them). */
  let releasedBelow = 0;
  let parsedBody: SessionEntry | undefined;
  const keepBody = (entry: SessionEntry): void => {
    parsedBody = entry;
  };

  /** Put the entry at `position` on the branch: after its parent, found near the branch's end. */
  const follow = (facts: EntryFacts, position: number, body: SessionEntry | undefined): void => {
    const parent = facts.env.parentId;
    let n = branchIds.length;
    if (parent === null) n = 0;
    else if (n === 0 || branchIds[n - 1] !== parent) {
      const stop = Math.max(-1, n - 1 - BRANCH_LOOKBACK);
      let k = n - 2;
      while (k > stop && branchIds[k] !== parent) k--;
      n = k > stop ? k + 1 : 0;
    }
    if (n === branchIds.length - 1) {
      // A sibling of the last entry (a retry, an edit): pop() is a fraction of setting the lengths below, which
      // was a tenth of following the branch in a session of 10k levels with a sibling each.
      branchIds.pop();
      branchPositions.pop();
      branchBodies.pop();
      if (releasedBelow > n) releasedBelow = n;
    } else if (n < branchIds.length) {
      branchIds.length = n;
      branchPositions.length = n;
      branchBodies.length = n;
      if (releasedBelow > n) releasedBelow = n;
    }
    branchIds.push(facts.env.id);
    branchPositions.push(position);
    branchBodies.push(body !== undefined && contextReads(facts.env.type) ? body : undefined);
    if (facts.env.type === "compaction") {
      // A context below this compaction starts at its first kept entry: what is before it is not read.
      const firstKept = facts.meta.firstKeptEntryId;
      let from = branchIds.length - 1;
      for (let k = from - 1; k >= releasedBelow; k--)
        if (branchIds[k] === firstKept) {
          from = k;
          break;
        }
      for (let k = releasedBelow; k < from; k++) branchBodies[k] = undefined;
      releasedBelow = Math.max(releasedBelow, from);
    }
  };

  /** Make buf hold [at, at + length) at least, reading from the file. */
  const fill = (at: number, length: number): void => {
    if (!("fd" in source)) return;
    if (length > buf.length) buf = Buffer.allocUnsafe(length);
    chunkStart = at;
    chunkLen = readRange(source.fd, buf, 0, at, Math.min(buf.length, fileSize - at));
  };

  const add = (facts: EntryFacts, offset: number, size: number, body?: SessionEntry): void => {
    // A message entry without a role: its line is read again to see whether it holds a message at all (rare).
    if (
      facts.env.type === "message" &&
      facts.env.role === undefined &&
      !hasMessageObject(source, buf.subarray(0, chunkLen), chunkStart, offset, size)
    )
      result.issues.push({
        line: lineNo,
        reason: `message entry ${facts.env.id} holds no message object; it is left out of the context`,
      });
    const position = entries.push(facts.env, facts.meta, offset, size, lineNo);
    if (keepBodies) follow(facts, position, body);
    previousId = facts.env.id;
    if (facts.activity !== undefined && facts.activity > (result.activity ?? 0)) result.activity = facts.activity;
  };

  /** `lineText`: the line, decoded, when it is short and its chunk was decoded (see decode). */
  const handleLine = (offset: number, length: number, terminated: boolean, lineText?: string): void => {
    lineNo++;
    const s = offset - chunkStart;
    if (lineNo === 1) {
      const { header, error } = parseHeader(buf.toString("utf8", s, s + length));
      if (header) {
        result.header = header;
        // A header without its newline: the first append must start a new line.
        if (!terminated) result.missingFinalNewline = true;
        if (opts.minVersion !== undefined && (header.version ?? 1) < opts.minVersion) done = true;
      } else if (length > 0 || terminated) {
        result.headerError = error;
        done = opts.minVersion !== undefined;
      }
      return;
    }
    if (length === 0) return;
    // The last line is read to its end: it is where torn and glued writes end up.
    const last = !terminated || offset + length + 1 >= fileSize;
    parsedBody = undefined;
    const read =
      lineText === undefined
        ? readEntryLine(buf, s, s + length, strict || last, previousId, parseShort, keepBody, previews)
        : readEntryText(lineText, keepBody);
    if (!isLineFailure(read)) {
      if (!terminated) result.missingFinalNewline = true;
      add(read, offset, length, parsedBody);
      return;
    }
    handleFailure(read, offset, length, terminated);
  };

  const handleFailure = (failure: LineFailure, offset: number, length: number, terminated: boolean): void => {
    if (failure.kind === "shape") {
      result.issues.push({ line: lineNo, reason: failure.reason });
      if (!terminated) result.missingFinalNewline = true;
      return;
    }
    const glued = splitGluedLine(failure.text, (v) => !entryShapeError(v), !terminated);
    if (glued) {
      recoverGlued(glued, failure.text, offset, terminated);
      return;
    }
    if (!terminated) {
      result.tornOffset = offset;
      result.issues.push({
        line: lineNo,
        reason: `torn last line (${length} bytes, no newline): ${failure.reason}`,
        torn: true,
      });
    } else result.issues.push({ line: lineNo, reason: `not valid JSON: ${failure.reason}` });
  };

  /** The entries of a glued line, the issue that reports it, and a torn entry ending it. */
  const recoverGlued = (glued: GluedLine, lineText: string, offset: number, terminated: boolean): void => {
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
      add(factsOfEntry(piece.value as SessionEntry), offset + start, bytes(piece.end) - start);
    }
    // A torn entry ending the file is cut off before the next append (kept beside the file); the whole ones
    // stay, and the next line then needs a newline first.
    if (glued.tornTail !== undefined) result.tornOffset = offset + bytes(glued.tornTail);
    if (!terminated) result.missingFinalNewline = true;
  };

  let pos = first; // file offset of the next line
  /** Set when line 1 says the rest is not to be read (see minVersion). */
  let done = false;
  fill(first, 0);
  decode();
  while (pos < fileSize && !done) {
    if (pos < chunkStart || pos >= chunkStart + chunkLen) {
      fill(pos, 0);
      decode();
    }
    const s = pos - chunkStart;
    const at = s < text.length ? text.indexOf("\n", s) : -1;
    if (at >= 0) {
      // A line of the decoded text (lines through the chunk's last newline are whole in it).
      const short = at - s < SCAN_MIN_BYTES && lineNo > 0;
      handleLine(pos, at - s, true, short ? text.slice(s, at) : undefined);
      pos = chunkStart + at + 1;
      continue;
    }
    const nl = buf.indexOf(10, s);
    if (nl >= 0 && nl < chunkLen) {
      handleLine(pos, chunkStart + nl - pos, true);
      pos = chunkStart + nl + 1;
      if (headerOnly) break;
      continue;
    }
    // The line runs past this chunk.
    if (chunkStart + chunkLen >= fileSize) {
      handleLine(pos, fileSize - pos, false);
      break;
    }
    if (pos > chunkStart) {
      fill(pos, 0); // re-read from the line start so a line shorter than a chunk is whole in it
      decode();
      continue;
    }
    // A line longer than a chunk: find its end on disk, then read it whole (not decoded: it is not short).
    const end = lineEnd(source as { fd: number }, chunkStart + chunkLen, fileSize, chunkBytes);
    text = "";
    fill(pos, (end < 0 ? fileSize : end) - pos);
    handleLine(pos, (end < 0 ? fileSize : end) - pos, end >= 0);
    if (end < 0 || headerOnly) break;
    pos = end + 1;
    // The large buffer served its line; later lines go back to chunks of the usual size.
    if (buf.length > chunkBytes) buf = Buffer.allocUnsafe(chunkBytes);
    chunkLen = 0;
    text = "";
  }
  result.lineCount = lineNo;
  previews?.flush();
  if (keepBodies) {
    for (let k = releasedBelow; k < branchBodies.length; k++) {
      const body = branchBodies[k];
      if (body !== undefined) (result.bodies ??= new Map()).set(branchPositions[k], body);
    }
  }
  return result;
}

/** The offset of the first newline at or after `from`, or -1. */
function lineEnd(source: { fd: number }, from: number, fileSize: number, chunkBytes: number): number {
  const probe = Buffer.allocUnsafe(chunkBytes);
  for (let at = from; at < fileSize;) {
    const n = readRange(source.fd, probe, 0, at, Math.min(chunkBytes, fileSize - at));
    if (n === 0) break;
    const i = probe.indexOf(10);
    if (i >= 0 && i < n) return at + i;
    at += n;
  }
  return -1;
}

/**
 * True when the `message` entry at [offset, offset + size) has an object as its `message` (pi's buildSessionContext
 * reads its role and content; a `null` there must not reach it).
 */
function hasMessageObject(source: Source, chunk: Buffer, chunkStart: number, offset: number, size: number): boolean {
  let line: Buffer;
  if (offset >= chunkStart && offset + size <= chunkStart + chunk.length)
    line = chunk.subarray(offset - chunkStart, offset - chunkStart + size);
  else if ("fd" in source) {
    line = Buffer.allocUnsafe(size);
    readRange(source.fd, line, 0, offset, size);
  } else line = source.bytes.subarray(offset, offset + size);
  try {
    const m = (JSON.parse(line.toString("utf8")) as { message?: unknown }).message;
    return typeof m === "object" && m !== null && !Array.isArray(m);
  } catch {
    // A glued piece is not a line of its own: whatever the scanner read is kept as it is.
    return true;
  }
}
