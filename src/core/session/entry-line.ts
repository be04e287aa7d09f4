/**
 * One line of a session file → what the store keeps of its entry (envelope, meta). The entry scanner
 * (entry-scanner.ts) reads `message` lines from their bytes; every other line, and any line the scanner leaves
 * alone, is parsed with JSON.parse — the one fallback — and read with envelopeOf / metaOf. Both give the same
 * answer for the same entry; the tests hold them to it.
 */
import { metaOf } from "./entry-meta.js";
import { scanEntry, type EntryFacts } from "./entry-scanner.js";
import { envelopeOf } from "./preview.js";
import type { SessionEntry } from "./types.js";

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
  if (entry.type !== "message" || !isRecord(m) || !("content" in m)) return undefined;
  if (m.role !== "user" && m.role !== "assistant") return undefined;
  if (typeof m.timestamp === "number") return m.timestamp;
  const t = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/** The facts of a whole, parsed entry (what the scanner reads from bytes). */
export function factsOfEntry(entry: SessionEntry): EntryFacts {
  const activity = activityOf(entry as unknown as Record<string, unknown>);
  const facts: EntryFacts = { env: envelopeOf(entry), meta: metaOf(entry) };
  if (activity !== undefined) facts.activity = activity;
  return facts;
}

/**
 * The entry on line buf[start, end), or why there is none. `strict`: read the line to its end (see
 * entry-scanner.ts). `previousId`: the id of the line before, shared by a parentId that spells it.
 */
export function readEntryLine(
  buf: Buffer,
  start: number,
  end: number,
  strict: boolean,
  previousId?: string,
): EntryFacts | LineFailure {
  const scanned = scanEntry(buf, start, end, strict, previousId);
  if (scanned) return scanned;
  const text = buf.toString("utf8", start, end);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    return { kind: "json", reason: (e as Error).message, text };
  }
  const shape = entryShapeError(v);
  if (shape) return { kind: "shape", reason: shape, text };
  return factsOfEntry(v as SessionEntry);
}

/** True when readEntryLine found no entry. */
export function isLineFailure(r: EntryFacts | LineFailure): r is LineFailure {
  return "kind" in r;
}
