/**
 * The per-entry index record: envelope, file position and the few fields the session logic needs
 * (model, token use, labels, leaf markers, compaction target) — never the body of a large entry.
 */
import type { Usage } from "../messages.js";
import { envelopeOf } from "./preview.js";
import { LEAF_MARKER_TYPE, type EntryEnvelope, type SessionEntry } from "./types.js";

/**
 * Appended entries up to this many bytes keep their parsed object in memory, and small lines parsed at open
 * (not message lines, which are read from their heads) their text; larger bodies load lazily.
 */
export const RETAIN_MAX_BYTES = 4096;

/** Shared meta of the many entries that have none (records never change it; pending records replace it). */
export const NO_META: EntryMeta = Object.freeze({});

/** Small fields kept for every entry that has them, whatever its size. */
export interface EntryMeta {
  /** model_change, or an assistant message's provider/model. */
  model?: { provider: string; modelId: string };
  /**
   * The token use and cost of an assistant message, or of the model calls a compaction, branch summary or
   * `usage` entry records (the chat's usage line sums them without reading bodies).
   */
  usage?: Usage;
  thinkingLevel?: string;
  /** label entries. */
  labelTarget?: string;
  label?: string;
  /** Leaf markers: the entry moved to (null = reset). */
  markerTarget?: string | null;
  /** compaction entries. */
  firstKeptEntryId?: string;
  /** session_info entries. */
  name?: string;
}

/**
 * One entry of the index, made when first asked for (EntryIndex.recordAt); open() keeps columns
 * (entry-columns.ts) and makes records only for the lines it parses whole.
 */
export interface EntryRecord {
  env: EntryEnvelope;
  /** Position in file order. */
  seq: number;
  /** Byte offset of the line, or -1 for entries that exist only in memory. */
  offset: number;
  /** Byte length of the line without its newline. */
  length: number;
  /** 1-based line number in the file (0 for memory-only entries). */
  line: number;
  /** The parsed entry for memory-only and freshly appended small entries. */
  entry?: SessionEntry;
  /**
   * The line's text for small entries parsed at open: one flat string is far cheaper to keep (and for the
   * garbage collector to move) than the parsed object graph; it is parsed again on access.
   */
  raw?: string;
  meta: EntryMeta;
  /**
   * True for a `message` line indexed from its head only (open() stays near the cost of reading the
   * file): `env.preview`, `toolName`, `toolCallsOnly`, `failed` and `meta` are filled in when first asked for
   * (envelope-fill.ts). Id, parentId, type, role, timestamp and position are always there.
   */
  pending?: boolean;
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

function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/**
 * A message's `usage` value as a Usage: missing or non-numeric counts are 0 (files written by other tools may
 * leave some out). Undefined when it is not an object.
 */
export function usageFrom(v: unknown): Usage | undefined {
  if (!isRecord(v)) return undefined;
  const c = isRecord(v.cost) ? v.cost : {};
  return {
    input: count(v.input),
    output: count(v.output),
    cacheRead: count(v.cacheRead),
    cacheWrite: count(v.cacheWrite),
    totalTokens: count(v.totalTokens),
    cost: {
      input: count(c.input),
      output: count(c.output),
      cacheRead: count(c.cacheRead),
      cacheWrite: count(c.cacheWrite),
      total: count(c.total),
    },
  };
}

/** The small fields of an entry. */
export function metaOf(entry: SessionEntry): EntryMeta {
  const e = entry as unknown as Record<string, unknown>;
  const meta: EntryMeta = {};
  switch (e.type) {
    case "message": {
      const m = e.message;
      if (!isRecord(m) || m.role !== "assistant") break;
      if (typeof m.provider === "string" && typeof m.model === "string")
        meta.model = { provider: m.provider, modelId: m.model };
      const usage = usageFrom(m.usage);
      if (usage) meta.usage = usage;
      break;
    }
    case "model_change":
      if (typeof e.provider === "string" && typeof e.modelId === "string")
        meta.model = { provider: e.provider, modelId: e.modelId };
      break;
    case "thinking_level_change":
      if (typeof e.thinkingLevel === "string") meta.thinkingLevel = e.thinkingLevel;
      break;
    case "label":
      if (typeof e.targetId === "string") {
        meta.labelTarget = e.targetId;
        if (typeof e.label === "string" && e.label !== "") meta.label = e.label;
      }
      break;
    case "custom":
      if (e.customType === LEAF_MARKER_TYPE) {
        const d = e.data;
        meta.markerTarget = isRecord(d) && typeof d.targetId === "string" ? d.targetId : null;
      }
      break;
    case "compaction":
      if (typeof e.firstKeptEntryId === "string") meta.firstKeptEntryId = e.firstKeptEntryId;
      break;
    case "session_info":
      if (typeof e.name === "string") meta.name = e.name;
      break;
  }
  // pi 1.5 records the model calls of a compaction, a branch summary or a call that added no message.
  if (e.type === "compaction" || e.type === "branch_summary" || e.type === "usage") {
    const usage = usageFrom(e.usage);
    if (usage) meta.usage = usage;
  }
  return meta;
}

/** Two decimal digits of `s` at `i`, or -1. */
function digits2(s: string, i: number): number {
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

/**
 * Parses a timestamp for ordering; unparsable ones sort first (file order breaks ties). The form every writer
 * uses (toISOString: 2026-01-05T09:00:03.000Z) is read by hand — Date.parse was a tenth of open() — and
 * anything else, or any value near a range edge, goes to Date.parse, so the result is always Date.parse's.
 */
export function timeOf(timestamp: string): number {
  const s = timestamp;
  if (s.length === 24 && s.charCodeAt(4) === 45 && s.charCodeAt(7) === 45 && s.charCodeAt(10) === 84) {
    const century = digits2(s, 0);
    const year = digits2(s, 2);
    const month = digits2(s, 5);
    const day = digits2(s, 8);
    const hour = digits2(s, 11);
    const minute = digits2(s, 14);
    const second = digits2(s, 17);
    const milli = digits2(s, 20);
    const milliLast = s.charCodeAt(22) - 48;
    if (
      century >= 19 &&
      year >= 0 &&
      month >= 1 &&
      month <= 12 &&
      day >= 1 &&
      day <= 28 &&
      hour >= 0 &&
      hour <= 23 &&
      minute >= 0 &&
      minute <= 59 &&
      second >= 0 &&
      second <= 59 &&
      milli >= 0 &&
      milliLast >= 0 &&
      milliLast <= 9 &&
      s.charCodeAt(13) === 58 &&
      s.charCodeAt(16) === 58 &&
      s.charCodeAt(19) === 46 &&
      s.charCodeAt(23) === 90
    )
      return Date.UTC(century * 100 + year, month - 1, day, hour, minute, second, milli * 10 + milliLast);
  }
  const t = Date.parse(s);
  return Number.isNaN(t) ? 0 : t;
}

/** A record for a whole parsed entry. `retain` keeps the object in memory. */
export function recordOfEntry(
  entry: SessionEntry,
  offset: number,
  length: number,
  line: number,
  retain: boolean,
): EntryRecord {
  // Previews are built from slices of the parsed text: keep copies, not views of the whole entry.
  const env = detachEnvelope(envelopeOf(entry));
  return {
    env,
    seq: 0,
    offset,
    length,
    line,
    entry: retain ? entry : undefined,
    raw: undefined,
    meta: metaOf(entry),
    pending: false,
  };
}

/**
 * A copy of `s` that does not keep a larger string alive. Fast paths take ids, timestamps and previews out of a
 * decoded line head or text prefix; V8 represents such substrings as views of the whole decoded text, so keeping
 * them would keep every head in memory (and make every scavenge copy it). Short strings are copies already.
 */
export function detach(s: string): string {
  return s.length < 13 ? s : (" " + s).slice(1);
}

/** Interned short strings (tool names, providers, models): one copy each instead of one per entry. */
const interned = new Map<string, string>();
const INTERN_MAX = 4096;

/** The shared copy of a short, often repeated string. */
export function intern(s: string): string {
  if (s.length > 64) return s;
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size < INTERN_MAX) interned.set(s, s);
  return s;
}

/** An envelope whose strings are standalone copies (see detach). */
function detachEnvelope(env: EntryEnvelope): EntryEnvelope {
  env.id = detach(env.id);
  if (env.parentId !== null) env.parentId = detach(env.parentId);
  env.timestamp = detach(env.timestamp);
  env.preview = detach(env.preview);
  if (env.toolName !== undefined) env.toolName = intern(env.toolName);
  return env;
}

/**
 * A record for an entry known only by its envelope (fast path); `meta` when the fast path read it too.
 * `standalone`: the envelope's strings are already copies of their own (see detach).
 */
export function recordOfEnvelope(
  env: EntryEnvelope,
  offset: number,
  length: number,
  line: number,
  meta: EntryMeta = NO_META,
  standalone = false,
): EntryRecord {
  if (!standalone) detachEnvelope(env);
  return {
    env,
    seq: 0,
    offset,
    length,
    line,
    entry: undefined,
    raw: undefined,
    meta,
    pending: false,
  };
}
