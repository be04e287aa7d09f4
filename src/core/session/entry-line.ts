/**
 * One line of a session file → what the store keeps of its entry (envelope, meta). The entry scanner
 * (entry-scanner.ts) reads `message` lines from their bytes; every other line, and any line the scanner leaves
 * alone, is parsed with JSON.parse — the one fallback — and read with envelopeOf / metaOf. Both give the same
 * answer for the same entry; the tests hold them to it.
 */
import { assistantMessageMeta, metaOf, NO_META, parsedAssistantMeta } from "./entry-meta.js";
import { scanEntry, type EntryFacts } from "./entry-scanner.js";
import type { PreviewArena } from "./preview-bytes.js";
import { envelopeOf, messageEnvelope } from "./preview.js";
import type { SessionEntry } from "./types.js";
import { errorText } from "../error-text.js";

/**
 * In a session file up to this size, lines shorter than SCAN_MIN_BYTES go straight to JSON.parse; longer ones,
 * and every line of a bigger file, go to the entry scanner first. JSON.parse is native code, as fast in a
 * process that has just started as later; the scanner is JavaScript, which runs unoptimised for the first
 * thousands of lines a process reads (several times slower than JSON.parse of the same line) and is faster
 * than JSON.parse with the preview rules only once optimised — a cost a big file pays back and a small one
 * does not. On long lines the scanner always wins: a long tool output is not decoded past its preview.
 */
export const PARSE_FILE_MAX_BYTES = 16 * 1024 * 1024;
/** See PARSE_FILE_MAX_BYTES (the scanner's early stop starts at the same length, entry-scanner.ts). */
export const SCAN_MIN_BYTES = 4096;

/** A line that holds no entry: not JSON (`json`: the parser's message), or JSON that is not an entry. */
export interface LineFailure {
  kind: "json" | "shape";
  reason: string;
  /** The line's text (for the loader's glued-line and torn-line handling). */
  text: string;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Why a parsed line is not an entry, or undefined when it is one. */
export function entryShapeError(v: unknown): string | undefined {
  if (!isRecord(v)) return "not a JSON object";
  if (typeof v.type !== "string") return "missing string field 'type'";
  if (v.type === "session") return "a second session header";
  if (typeof v.id !== "string" || v.id === "") return "missing string field 'id'";
  if (v.parentId !== null && typeof v.parentId !== "string") return "field 'parentId' is neither a string nor null";
  if (typeof v.timestamp !== "string") return "missing string field 'timestamp'";
  return undefined;
}

/**
 * pi's activity time of a parsed entry (what `SessionManager.list()` sorts by): a user or assistant message
 * with a content key, at its own numeric timestamp, else at the entry's.
 */
export function activityOf(entry: Record<string, unknown>): number | undefined {
  const m = entry.message;
  if (entry.type !== "message" || !isRecord(m)) return undefined;
  return messageActivity(entry, m);
}

/** activityOf for a `message` entry whose message `m` is an object. */
function messageActivity(entry: Record<string, unknown>, m: Record<string, unknown>): number | undefined {
  return roleActivity(m.role, m, entry.timestamp);
}

/** messageActivity for a message of role `role` in an entry of timestamp `timestamp`. */
function roleActivity(role: unknown, m: Record<string, unknown>, timestamp: unknown): number | undefined {
  if ((role !== "user" && role !== "assistant") || !("content" in m)) return undefined;
  if (typeof m.timestamp === "number") return m.timestamp;
  const t = typeof timestamp === "string" ? Date.parse(timestamp) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The facts of a whole, parsed entry (what the scanner reads from bytes). A message — nearly every line — is
 * looked at once for its meta and activity (this runs for every line of a small session while it opens).
 */
export function factsOfEntry(entry: SessionEntry): EntryFacts {
  const e = entry as unknown as Record<string, unknown>;
  const m = e.type === "message" ? e.message : undefined;
  if (!isRecord(m)) return { env: envelopeOf(entry), meta: metaOf(entry) };
  const env = envelopeOf(entry);
  const meta = m.role === "assistant" ? assistantMessageMeta(m) : NO_META;
  const activity = messageActivity(e, m);
  return activity === undefined ? { env, meta } : { env, meta, activity };
}

/**
 * The entry on line buf[start, end), or why there is none. `strict`: read the line to its end (see
 * entry-scanner.ts). `previousId`: the id of the line before, shared by a parentId that spells it. `parseShort`:
 * a line shorter than SCAN_MIN_BYTES goes straight to JSON.parse (see PARSE_FILE_MAX_BYTES). `keep`: given the
 * entry when the line was parsed whole (see readEntryText). `previews`: where the scanner may queue the preview
 * (the envelope's preview is then "" until the arena is flushed; see PreviewArena).
 */
export function readEntryLine(
  buf: Buffer,
  start: number,
  end: number,
  strict: boolean,
  previousId?: string,
  parseShort = false,
  keep?: (entry: SessionEntry) => void,
  previews?: PreviewArena,
): EntryFacts | LineFailure {
  if (!parseShort || end - start >= SCAN_MIN_BYTES) {
    const scanned = scanEntry(buf, start, end, strict, previousId, previews);
    if (scanned) return scanned;
  }
  return readEntryText(buf.toString("utf8", start, end), keep);
}

/**
 * The entry on a line already decoded (`text`), read with JSON.parse. `keep`: given the parsed entry, when the
 * caller keeps it (session-scan.ts keeps the bodies the first context needs).
 */
export function readEntryText(text: string, keep?: (entry: SessionEntry) => void): EntryFacts | LineFailure {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { kind: "json", reason: errorText(e), text };
  }
  // What entryShapeError and factsOfEntry check and read, each field read once: this runs for every line of a
  // small session while it opens, mostly unoptimised, where every property read of a fresh parsed object costs
  // (the entry types give the objects many shapes). The shape error itself comes from entryShapeError.
  if (!isRecord(v)) return { kind: "shape", reason: entryShapeError(v) as string, text };
  const type = v.type;
  const id = v.id;
  const parentId = v.parentId;
  const timestamp = v.timestamp;
  if (
    typeof type !== "string" ||
    type === "session" ||
    typeof id !== "string" ||
    id === "" ||
    (parentId !== null && typeof parentId !== "string") ||
    typeof timestamp !== "string"
  )
    return { kind: "shape", reason: entryShapeError(v) as string, text };
  keep?.(v as unknown as SessionEntry);
  const m = type === "message" ? v.message : undefined;
  if (!isRecord(m))
    return { env: envelopeOf(v as unknown as SessionEntry), meta: metaOf(v as unknown as SessionEntry) };
  const role = m.role;
  const env = messageEnvelope(id, parentId, timestamp, m);
  const meta = role === "assistant" ? parsedAssistantMeta(m) : NO_META;
  const activity = roleActivity(role, m, timestamp);
  return activity === undefined ? { env, meta } : { env, meta, activity };
}

/** True when readEntryLine found no entry. */
export function isLineFailure(r: EntryFacts | LineFailure): r is LineFailure {
  return "kind" in r;
}
