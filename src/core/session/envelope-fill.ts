/**
 * Fills in the envelopes of records that open() indexed from their line head only (EntryRecord.pending):
 * the preview, tool names, flags and meta come from the line's bytes (byte-head.ts envelopeFromPiBytes and
 * assistant-skim.ts), or from a whole parse when the bytes do not prove them.
 *
 * Why lazy: reading previews and skimming assistant lines was four fifths of opening a large session, and
 * most callers (append, navigate, context) need none of it. The tree view asks for every envelope once, and
 * then pays for them in one pass over the pending lines in file order through one reused window (in the
 * background right after open, in VS Code: SessionManager.prefetchEnvelopes).
 */
import * as fs from "node:fs";
import { envelopeFromPiBytes } from "./byte-head.js";
import { detach, entryShapeError, intern, metaOf, NO_META, type EntryRecord } from "./entry-record.js";
import { envelopeOf } from "./preview.js";
import type { EntryEnvelope, LoadIssue, SessionEntry } from "./types.js";

/** Bytes read at a time; lines longer than this are read alone. */
const WINDOW_BYTES = 4 * 1024 * 1024;

/** Copies the display fields of `from` (a full envelope of the same entry) into the record. */
function settle(rec: EntryRecord, from: EntryEnvelope, meta: EntryRecord["meta"] | undefined): void {
  const env = rec.env;
  env.preview = detach(from.preview);
  if (from.toolName !== undefined) env.toolName = intern(from.toolName);
  if (from.toolCallsOnly !== undefined) env.toolCallsOnly = from.toolCallsOnly;
  if (from.failed) env.failed = true;
  if (from.hidden) env.hidden = true;
  if (from.tokens !== undefined) env.tokens = from.tokens;
  rec.meta = meta ?? NO_META;
  rec.pending = false;
}

/** Fills a pending record from its whole parsed entry (when the body was read anyway). */
export function fillFromEntry(rec: EntryRecord, entry: SessionEntry): void {
  if (!rec.pending) return;
  settle(rec, envelopeOf(entry), metaOf(entry));
}

/**
 * Fills a pending record from its line, buf[start, start + rec.length). Returns a load issue when the line
 * no longer holds this entry or does not parse (the record keeps an empty preview; nothing is thrown).
 */
export function fillFromBytes(rec: EntryRecord, buf: Buffer, start: number): LoadIssue | undefined {
  const end = start + rec.length;
  // From the bytes: decodes only the preview and a few values. (Cheaper than JSON.parse even for small lines
  // once a few thousand have warmed it up; parsing whole stays the fallback.)
  const fast = envelopeFromPiBytes(buf, start, end);
  if (fast && fast.env.id === rec.env.id && fast.env.parentId === rec.env.parentId) {
    settle(rec, fast.env, fast.meta);
    return undefined;
  }
  let v: unknown;
  try {
    v = JSON.parse(buf.toString("utf8", start, end));
  } catch (e) {
    rec.pending = false;
    return { line: rec.line, reason: `entry ${rec.env.id} has a corrupt body: ${(e as Error).message}` };
  }
  const shape = entryShapeError(v);
  const entry = v as SessionEntry;
  if (shape || entry.id !== rec.env.id || entry.parentId !== rec.env.parentId) {
    rec.pending = false;
    return { line: rec.line, reason: `entry ${rec.env.id} changed on disk (${shape ?? "different id or parent"})` };
  }
  settle(rec, envelopeOf(entry), metaOf(entry));
  return undefined;
}

/** A read window kept between calls of fillEnvelopes (one fill in slices reuses one buffer). */
export interface FillWindow {
  buf?: Buffer;
}

/**
 * Fills every pending record of `records` (any order; read in file order) from the file open at `fd`.
 * Returns the problems found (see fillFromBytes). I/O errors propagate. `window` lends the read buffer:
 * a session filled in slices would otherwise leave a 4 MB buffer per slice to the garbage collector.
 */
export function fillEnvelopes(fd: number, records: readonly EntryRecord[], window: FillWindow = {}): LoadIssue[] {
  const todo = records.filter((r) => r.pending && r.offset >= 0);
  if (todo.length === 0) return [];
  todo.sort((a, b) => a.offset - b.offset);
  // Windows never reach past the last line asked for (callers fill a session in slices).
  let spanEnd = 0;
  for (const r of todo) spanEnd = Math.max(spanEnd, r.offset + r.length);
  const issues: LoadIssue[] = [];
  let win = window.buf;
  let winStart = 0;
  let winLen = 0;
  for (const rec of todo) {
    let buf: Buffer;
    let at: number;
    if (rec.length > WINDOW_BYTES) {
      buf = Buffer.allocUnsafe(rec.length);
      at = 0;
      if (readInto(fd, buf, rec.offset) < rec.length) {
        rec.pending = false;
        issues.push({ line: rec.line, reason: `entry ${rec.env.id} was cut off on disk after it was read` });
        continue;
      }
    } else {
      if (rec.offset < winStart || rec.offset + rec.length > winStart + winLen) {
        const want = Math.min(WINDOW_BYTES, spanEnd - rec.offset); // at least this line
        if (!win || win.length < want) window.buf = win = Buffer.allocUnsafe(want);
        winStart = rec.offset;
        winLen = readInto(fd, win.subarray(0, want), winStart);
        if (winLen < rec.length) {
          rec.pending = false;
          issues.push({ line: rec.line, reason: `entry ${rec.env.id} was cut off on disk after it was read` });
          continue;
        }
      }
      buf = win as Buffer;
      at = rec.offset - winStart;
    }
    const issue = fillFromBytes(rec, buf, at);
    if (issue) issues.push(issue);
  }
  return issues;
}

/** Reads up to buf.length bytes at `position`; returns how many (fewer only at the end of the file). */
function readInto(fd: number, buf: Buffer, position: number): number {
  let len = 0;
  while (len < buf.length) {
    const n = fs.readSync(fd, buf, len, buf.length - len, position + len);
    if (n === 0) break;
    len += n;
  }
  return len;
}
