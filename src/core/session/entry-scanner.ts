/**
 * The entry scanner: reads what the store keeps of a `message` entry — its envelope (id, parent, role, time,
 * preview, tool names, flags) and meta (model, token use) — straight from the bytes of its line, in one pass, without
 * building the entry. Message lines are nearly every line of a session and nearly all of its bytes; the few
 * lines of other types (labels, leaf markers, compactions, model changes, …) are small and are parsed with
 * JSON.parse instead (entry-line.ts), as is any line this scanner does not understand and, in a small file,
 * every short line (the scanner is fast only once the JIT has optimised it: see PARSE_FILE_MAX_BYTES).
 *
 * It walks the JSON structure, so any key order, whitespace, escape and unknown field reads the same as
 * JSON.parse followed by envelopeOf / metaOf (preview.ts, entry-meta.ts). Only the values the envelope needs
 * are decoded (a preview stops after PREVIEW_MAX characters); other values are skipped by finding where they
 * end (json-bytes.ts). It gives up — returns undefined — on anything else: another entry type, a key written
 * with escapes, a key given twice, a role whose preview needs the whole entry (system prompts, summaries),
 * invalid UTF-8 or an unpaired surrogate in a preview, and any syntax error.
 *
 * A long line whose envelope is complete before its end stops there when the caller allows it (`strict`
 * false): a tool result or a command, once its preview is read (the rest is output the envelope does not use).
 * Such a line is not read to its end, so damage after that point is found when its body is parsed, as for any value
 * the scanner skips, and a second key of the same name after that point is not seen (JSON.parse would take
 * the later one; no writer repeats keys). The loader scans the last line of a file, where torn and glued
 * writes end up, and any file whose tree has orphans, with `strict` set.
 */
import {
  BACKSLASH,
  bytesEqual,
  checkedStringEnd,
  CLOSE_ARRAY,
  CLOSE_OBJECT,
  COLON,
  COMMA,
  decodeString,
  numberEnd,
  numberValue,
  OPEN_ARRAY,
  OPEN_OBJECT,
  QUOTE,
  skipSpace,
  skipValue,
  stringEndFrom,
} from "./json-bytes.js";
import { modelMeta, NO_META, scannedAssistantMeta, type EntryMeta } from "./entry-meta.js";
import { normalizePreview } from "./preview.js";
import { PreviewBuilder, type PreviewArena } from "./preview-bytes.js";
import type { EntryEnvelope } from "./types.js";

/** What the store keeps of one entry line. */
export interface EntryFacts {
  env: EntryEnvelope;
  meta: EntryMeta;
  /**
   * pi's activity time of a user or assistant message that has content (its own numeric timestamp, else the
   * entry's); undefined for other entries. The session list sorts by the newest.
   */
  activity?: number;
}

/**
 * Lines longer than this may stop being read once their envelope is complete. Shorter ones cost little to read
 * whole, and reading them whole sees an entry glued onto them (whose children need not be there to tell).
 */
const EARLY_STOP_MIN_BYTES = 4096;

/** The walk gave up: the line goes to JSON.parse. */
const FAIL = -1;
/** The walk has everything the envelope needs: the rest of the line is not read. */
const STOP = -2;
/** An object or array ended (see Scan.next). */
const CLOSED = -3;

// Keys of the entry object.
const K_OTHER = 0;
const K_TYPE = 1;
const K_ID = 2;
const K_PARENT = 4;
const K_TIME = 8;
const K_MESSAGE = 16;
const ENTRY_REQUIRED = K_TYPE | K_ID | K_PARENT | K_TIME | K_MESSAGE;
const ENTRY_HEAD = K_TYPE | K_ID | K_PARENT | K_TIME;

// Keys of the message object.
const M_ROLE = 1;
const M_CONTENT = 2;
const M_TOOL_NAME = 4;
const M_COMMAND = 8;
const M_STOP_REASON = 16;
const M_ERROR = 32;
const M_PROVIDER = 64;
const M_MODEL = 128;
const M_TIME = 256;
const M_USAGE = 512;

// Keys and types of a content block.
const B_TYPE = 1;
const B_TEXT = 2;
const B_NAME = 4;
const T_UNKNOWN = 0;
const T_TEXT = 1;
const T_TOOL_CALL = 2;
const T_OTHER = 3;

/** Message roles as the envelope keeps them (one string each, whatever line they came from). */
const ROLES = ["user", "assistant", "toolResult", "bashExecution", "custom"] as const;
/** Roles whose preview needs more than the walk reads (sections, summaries): left to JSON.parse. */
const WHOLE_ROLES = ["system", "branchSummary", "compactionSummary"];

/** Interned short strings (tool names, models): one copy each instead of one per entry. */
const interned = new Map<string, string>();
const INTERN_MAX = 4096;

function intern(s: string): string {
  const hit = interned.get(s);
  if (hit !== undefined) return hit;
  if (interned.size < INTERN_MAX && s.length <= 64) interned.set(s, s);
  return s;
}

/** Where the key read by keyAt ends (its closing quote). */
let keyEnd = 0;

/** Key names as bytes (compared with the line's bytes without touching strings). */
function keyBytes(names: readonly string[]): Uint8Array[] {
  return names.map((n) => Uint8Array.from(n, (c) => c.charCodeAt(0)));
}

/** True when buf[p, p + bytes.length) equals `bytes`. */
function sameBytes(buf: Buffer, p: number, bytes: Uint8Array): boolean {
  const n = bytes.length;
  for (let i = 0; i < n; i++) if (buf[p + i] !== bytes[i]) return false;
  return true;
}

/**
 * The key whose opening quote is at `p`: its index in `names` + 1, 0 for another key, -1 for a key written
 * with an escape or not closed before `end`. Sets keyEnd.
 */
function keyAt(buf: Buffer, p: number, end: number, names: readonly Uint8Array[]): number {
  const from = p + 1;
  for (let i = 0; i < names.length; i++) {
    const name = names[i];
    const q = from + name.length;
    if (q < end && buf[q] === QUOTE && sameBytes(buf, from, name)) {
      keyEnd = q;
      return i + 1;
    }
  }
  const q = stringEndFrom(buf, from, end);
  if (q < 0) return -1;
  for (let i = from; i < q; i++) if (buf[i] === BACKSLASH) return -1;
  keyEnd = q;
  return 0;
}

/** The position of a member's value, whose key's closing quote is at `kq` (past the colon); FAIL for none. */
function valueAt(buf: Buffer, kq: number, end: number): number {
  let p = kq + 1;
  if (buf[p] <= 32) p = skipSpace(buf, p, end);
  if (p >= end || buf[p] !== COLON) return FAIL;
  p = p + 1;
  if (buf[p] <= 32) p = skipSpace(buf, p, end);
  return p < end ? p : FAIL;
}

/** Recently read short strings (tool names, providers, models): found again by their bytes, not decoded. */
const recentStrings: string[] = [];
const recentBytes: Uint8Array[] = [];
const RECENT_MAX = 32;

/**
 * The string whose quotes are at `p` and `q`, as decodeString gives it; a value read before is found again by
 * its bytes (kept only for printable ASCII values without escapes, whose bytes spell them), and interned.
 */
function sharedString(buf: Buffer, p: number, q: number): string | undefined {
  const n = q - p - 1;
  for (let i = 0; i < recentBytes.length; i++) {
    const bytes = recentBytes[i];
    if (bytes.length === n && sameBytes(buf, p + 1, bytes)) return recentStrings[i];
  }
  const value = decodeString(buf, p, q);
  if (value === undefined) return undefined;
  if (value.length === n && n <= 64 && /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/.test(value)) {
    if (recentBytes.length >= RECENT_MAX) {
      recentBytes.shift();
      recentStrings.shift();
    }
    // A copy: `buf` is the scan's chunk, which the next chunk is read over. Buffer#slice would share its memory,
    // and these bytes would then spell another string than the one they stand for.
    recentBytes.push(new Uint8Array(buf.subarray(p + 1, q)));
    recentStrings.push(intern(value));
  }
  return intern(value);
}

const ENTRY_KEYS = keyBytes(["type", "id", "parentId", "timestamp", "message"]);
const ENTRY_KEY_BITS = [K_OTHER, K_TYPE, K_ID, K_PARENT, K_TIME, K_MESSAGE];
const MESSAGE_KEYS = keyBytes([
  "role",
  "content",
  "toolName",
  "command",
  "stopReason",
  "errorMessage",
  "provider",
  "model",
  "timestamp",
  "usage",
]);
const MESSAGE_KEY_BITS = [
  0,
  M_ROLE,
  M_CONTENT,
  M_TOOL_NAME,
  M_COMMAND,
  M_STOP_REASON,
  M_ERROR,
  M_PROVIDER,
  M_MODEL,
  M_TIME,
  M_USAGE,
];
const BLOCK_KEYS = keyBytes(["type", "text", "name"]);
/** The keys of a usage and of its cost that usageFrom reads (entry-meta.ts). */
const USAGE_NAMES = ["input", "output", "cacheRead", "cacheWrite", "totalTokens", "cacheWrite1h", "reasoning", "cost"];
const COST_NAMES = ["input", "output", "cacheRead", "cacheWrite", "total", "totalFromProvider"];
const USAGE_KEYS = keyBytes(USAGE_NAMES);
const COST_KEYS = keyBytes(COST_NAMES);
/** What Scan.record reads, by key (reused; see there). */
const USAGE_VALUES: unknown[] = USAGE_NAMES.map(() => undefined);
const COST_VALUES: unknown[] = COST_NAMES.map(() => undefined);
/** The value Scan.record gives `cost` when it is an object (its members are then in COST_VALUES). */
const COST_OBJECT = Object.freeze({});
/** keyAt's answer for `cost` in USAGE_KEYS. */
const USAGE_COST = USAGE_NAMES.indexOf("cost") + 1;
const BLOCK_KEY_BITS = [0, B_TYPE, B_TEXT, B_NAME];

/** The walk over one line (one instance, reused; the fields describe the line being read). */
class Scan {
  private buf: Buffer = Buffer.alloc(0);
  private end = 0;
  /** Set by next(): the position just past the object or array that ended. */
  private after = 0;
  /** The line may stop being read once its envelope is complete. */
  private mayStop = false;

  private id = "";
  private parentId: string | null = null;
  private timestamp = "";
  private role: string | undefined;
  private messageKeys = 0;
  private readonly content = new PreviewBuilder();
  private readonly command = new PreviewBuilder();
  private readonly error = new PreviewBuilder();
  private textBlocks = 0;
  /** Tool call names (reused: joined into the envelope). */
  private readonly names: string[] = [];
  private toolName: string | undefined;
  /** stopReason is "error" or "aborted". */
  private failed = false;
  private aborted = false;
  private provider: string | undefined;
  private model: string | undefined;
  private messageTime = NaN;
  /** A usage object was read (its values are in USAGE_VALUES and COST_VALUES). */
  private usage = false;
  /** Where ASCII previews go (see PreviewArena); undefined: each is decoded alone. */
  private previews: PreviewArena | undefined;

  /** See scanEntry. */
  read(
    buf: Buffer,
    start: number,
    end: number,
    strict: boolean,
    previousId: string | undefined,
    previews: PreviewArena | undefined,
  ): EntryFacts | undefined {
    this.previews = previews;
    this.buf = buf;
    this.end = end;
    this.mayStop = false;
    this.role = undefined;
    this.messageKeys = 0;
    this.content.reset();
    this.command.reset();
    this.error.reset();
    this.textBlocks = 0;
    this.names.length = 0;
    this.toolName = undefined;
    this.failed = false;
    this.aborted = false;
    this.provider = undefined;
    this.model = undefined;
    this.messageTime = NaN;
    this.usage = false;

    let p = start;
    if (buf[p] <= 32) p = skipSpace(buf, p, end);
    if (p >= end || buf[p] !== OPEN_OBJECT) return undefined;
    p = p + 1;
    if (buf[p] <= 32) p = skipSpace(buf, p, end);
    let seen = 0;
    for (;;) {
      if (p >= end || buf[p] !== QUOTE) return undefined;
      const k = keyAt(buf, p, end, ENTRY_KEYS);
      if (k < 0) return undefined;
      const bit = ENTRY_KEY_BITS[k];
      if (bit !== 0) {
        if ((seen & bit) !== 0) return undefined;
        seen |= bit;
      }
      p = valueAt(buf, keyEnd, end);
      if (p < 0) return undefined;
      switch (bit) {
        case K_TYPE: {
          const q = checkedStringEnd(buf, p, end);
          // Only `message` entries are read here (an escaped spelling of it too goes to JSON.parse).
          if (q !== p + 8 || !bytesEqual(buf, p + 1, "message")) return undefined;
          p = q + 1;
          break;
        }
        case K_ID: {
          const q = checkedStringEnd(buf, p, end);
          if (q < 0) return undefined;
          const id = decodeString(buf, p, q);
          if (id === undefined || id === "") return undefined;
          this.id = id;
          p = q + 1;
          break;
        }
        case K_PARENT: {
          if (buf[p] === QUOTE) {
            const q = checkedStringEnd(buf, p, end);
            if (q < 0) return undefined;
            // Most entries follow the line before: share its id string (the index then finds the parent at once).
            if (previousId !== undefined && q - p - 1 === previousId.length && bytesEqual(buf, p + 1, previousId))
              this.parentId = previousId;
            else {
              const parent = decodeString(buf, p, q);
              if (parent === undefined) return undefined;
              this.parentId = parent;
            }
            p = q + 1;
          } else if (p + 4 <= end && bytesEqual(buf, p, "null")) {
            this.parentId = null;
            p += 4;
          } else return undefined;
          break;
        }
        case K_TIME: {
          const q = checkedStringEnd(buf, p, end);
          if (q < 0) return undefined;
          const t = decodeString(buf, p, q);
          if (t === undefined) return undefined;
          this.timestamp = t;
          p = q + 1;
          break;
        }
        case K_MESSAGE: {
          if (buf[p] !== OPEN_OBJECT) return undefined;
          this.mayStop = !strict && end - start > EARLY_STOP_MIN_BYTES && (seen & ENTRY_HEAD) === ENTRY_HEAD;
          const r = this.message(p);
          if (r === STOP) return this.facts();
          if (r < 0) return undefined;
          p = r;
          break;
        }
        default:
          p = skipValue(buf, p, end);
          if (p < 0) return undefined;
      }
      p = this.next(p, CLOSE_OBJECT);
      if (p >= 0) continue;
      if (p !== CLOSED) return undefined;
      // Nothing may follow the entry (a second entry glued on the line is JSON.parse's to report).
      if (skipSpace(buf, this.after, end) !== end || seen !== ENTRY_REQUIRED) return undefined;
      return this.facts();
    }
  }

  /** Walks the message object at `p`; the position after it, FAIL or STOP. */
  private message(p: number): number {
    const { buf, end } = this;
    p = this.first(p, CLOSE_OBJECT);
    if (p < 0) return p === CLOSED ? this.after : p;
    for (;;) {
      if (buf[p] !== QUOTE) return FAIL;
      const k = keyAt(buf, p, end, MESSAGE_KEYS);
      if (k < 0) return FAIL;
      const bit = MESSAGE_KEY_BITS[k];
      if (bit !== 0) {
        if ((this.messageKeys & bit) !== 0) return FAIL;
        this.messageKeys |= bit;
      }
      p = valueAt(buf, keyEnd, end);
      if (p < 0) return FAIL;
      const isString = buf[p] === QUOTE;
      switch (bit) {
        case M_ROLE: {
          if (!isString) return FAIL;
          const q = checkedStringEnd(buf, p, end);
          if (q < 0) return FAIL;
          const role = this.roleAt(p + 1, q);
          if (role === undefined) return FAIL;
          this.role = role;
          p = q + 1;
          break;
        }
        case M_CONTENT:
          if (isString) {
            this.textBlocks = 1;
            p = this.text(this.content, p);
          } else if (buf[p] === OPEN_ARRAY) p = this.blocks(p);
          else p = skipValue(buf, p, end);
          break;
        case M_COMMAND:
          if (isString) {
            this.command.addAscii(36); // "$ " + command
            this.command.addAscii(32);
            p = this.text(this.command, p);
          } else p = skipValue(buf, p, end);
          break;
        case M_ERROR:
          p = isString ? this.text(this.error, p) : skipValue(buf, p, end);
          break;
        case M_STOP_REASON: {
          if (!isString) {
            p = skipValue(buf, p, end);
            break;
          }
          const q = checkedStringEnd(buf, p, end);
          if (q < 0) return FAIL;
          // Only "error" and "aborted" matter (failed); an escaped spelling is decoded.
          const n = q - p - 1;
          if (n === 5 && bytesEqual(buf, p + 1, "error")) this.failed = true;
          else if (n === 7 && bytesEqual(buf, p + 1, "aborted")) this.failed = this.aborted = true;
          else if (n >= 5 && n <= 42) {
            const v = decodeString(buf, p, q);
            if (v === undefined) return FAIL;
            this.failed = v === "error" || v === "aborted";
            this.aborted = v === "aborted";
          }
          p = q + 1;
          break;
        }
        case M_TOOL_NAME:
        case M_PROVIDER:
        case M_MODEL: {
          if (!isString) {
            p = skipValue(buf, p, end);
            break;
          }
          const q = checkedStringEnd(buf, p, end);
          if (q < 0) return FAIL;
          const value = sharedString(buf, p, q);
          if (value === undefined) return FAIL;
          if (bit === M_TOOL_NAME) this.toolName = value;
          else if (bit === M_PROVIDER) this.provider = value;
          else this.model = value;
          p = q + 1;
          break;
        }
        case M_TIME: {
          const q = numberEnd(buf, p, end);
          if (q < 0) p = skipValue(buf, p, end);
          else {
            this.messageTime = numberValue(buf, p, q);
            p = q;
          }
          break;
        }
        case M_USAGE: {
          if (buf[p] !== OPEN_OBJECT) {
            p = skipValue(buf, p, end);
            break;
          }
          // Read from its bytes: decoding the slice and parsing it was a tenth of scanning a session of big
          // assistant messages (every one has a usage).
          if (!this.record(p, USAGE_KEYS, USAGE_VALUES)) return FAIL;
          this.usage = true;
          p = this.after;
          break;
        }
        default:
          p = skipValue(buf, p, end);
      }
      if (p < 0) return p;
      if (this.complete()) return STOP;
      p = this.next(p, CLOSE_OBJECT);
      if (p === CLOSED) return this.after;
      if (p < 0) return p;
    }
  }

  /** Walks the content array at `p`: text blocks into the preview, tool call names. */
  private blocks(p: number): number {
    const { buf, end } = this;
    p = this.first(p, CLOSE_ARRAY);
    if (p < 0) return p === CLOSED ? this.after : p;
    for (;;) {
      p = buf[p] === OPEN_OBJECT ? this.block(p) : skipValue(buf, p, end);
      if (p < 0) return p;
      p = this.next(p, CLOSE_ARRAY);
      if (p === CLOSED) return this.after;
      if (p < 0) return p;
    }
  }

  /**
   * The object at `p` as JSON.parse gives it, as far as usageFrom reads it (entry-meta.ts): the values of the
   * members named by `keys` — numbers, booleans, null, and for `cost` in a usage such an object of COST_KEYS — into
   * `values` by key (undefined: missing), other members left out; `after` is set past it. False (the line goes to
   * JSON.parse) for anything else: a string or array value, another object, a key written with escapes, a
   * malformed value. What it accepts it reads exactly as JSON.parse does (numbers, literals and structure are
   * checked). The values go into an array, which scannedAssistantMeta reads (a `cost` object is COST_OBJECT there,
   * its members in COST_VALUES): no object is made per usage while the session opens.
   */
  private record(p: number, keys: readonly Uint8Array[], values: unknown[]): boolean {
    const { buf, end } = this;
    values.fill(undefined);
    p = this.first(p, CLOSE_OBJECT);
    if (p === CLOSED) return true;
    for (;;) {
      if (p < 0 || buf[p] !== QUOTE) return false;
      const k = keyAt(buf, p, end, keys);
      if (k < 0) return false;
      p = valueAt(buf, keyEnd, end);
      if (p < 0) return false;
      const c = buf[p];
      let value: unknown;
      if (c === OPEN_OBJECT) {
        if (keys !== USAGE_KEYS || k !== USAGE_COST || !this.record(p, COST_KEYS, COST_VALUES)) return false;
        value = COST_OBJECT;
        p = this.after;
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        const q = numberEnd(buf, p, end);
        if (q < 0) return false;
        value = numberValue(buf, p, q);
        p = q;
      } else if (bytesEqual(buf, p, "true")) {
        value = true;
        p += 4;
      } else if (bytesEqual(buf, p, "false")) {
        value = false;
        p += 5;
      } else if (bytesEqual(buf, p, "null")) {
        value = null;
        p += 4;
      } else return false;
      // A key given twice: the later value counts, as in JSON.parse.
      if (k > 0) values[k - 1] = value;
      p = this.next(p, CLOSE_OBJECT);
      if (p === CLOSED) return true;
    }
  }

  /**
   * The object or array that opens at `p` and that `close` ends: the start of its first member or element; or
   * CLOSED (it is empty), with `after` set just past `close`; or FAIL.
   */
  private first(p: number, close: number): number {
    const { buf, end } = this;
    p = p + 1;
    if (buf[p] <= 32) p = skipSpace(buf, p, end);
    if (p >= end) return FAIL;
    if (buf[p] !== close) return p;
    this.after = p + 1;
    return CLOSED;
  }

  /**
   * After a member or element that ends at `p`, in an object or array that `close` ends: the start of the next
   * one (the comma and whitespace skipped); or CLOSED, with `after` set just past `close`; or FAIL.
   */
  private next(p: number, close: number): number {
    const { buf, end } = this;
    if (buf[p] <= 32) p = skipSpace(buf, p, end);
    if (p >= end) return FAIL;
    const c = buf[p];
    if (c === COMMA) {
      p = p + 1;
      if (buf[p] <= 32) p = skipSpace(buf, p, end);
      return p >= end ? FAIL : p;
    }
    if (c !== close) return FAIL;
    this.after = p + 1;
    return CLOSED;
  }

  /** Walks one content block at `p` (an object). */
  private block(p: number): number {
    const { buf, end } = this;
    let type = T_UNKNOWN;
    let keys = 0;
    // A text or name seen before the block's type: where its string starts, read once the type is known.
    let textAt = -1;
    let nameAt = -1;
    let nameEnd = -1;
    p = this.first(p, CLOSE_OBJECT);
    if (p < 0) return p === CLOSED ? this.after : p;
    for (;;) {
      if (buf[p] !== QUOTE) return FAIL;
      const k = keyAt(buf, p, end, BLOCK_KEYS);
      if (k < 0) return FAIL;
      const bit = BLOCK_KEY_BITS[k];
      if (bit !== 0) {
        if ((keys & bit) !== 0) return FAIL;
        keys |= bit;
      }
      p = valueAt(buf, keyEnd, end);
      if (p < 0) return FAIL;
      const isString = buf[p] === QUOTE;
      if (bit === B_TYPE) {
        if (isString) {
          const q = stringEndFrom(buf, p + 1, end);
          if (q < 0) return FAIL;
          const n = q - p - 1;
          if (n === 4 && bytesEqual(buf, p + 1, "text")) type = T_TEXT;
          else if (n === 8 && bytesEqual(buf, p + 1, "toolCall")) type = T_TOOL_CALL;
          else {
            for (let i = p + 1; i < q; i++) if (buf[i] === BACKSLASH) return FAIL;
            type = T_OTHER;
          }
          p = q + 1;
        } else {
          type = T_OTHER;
          p = skipValue(buf, p, end);
        }
      } else if (bit === B_TEXT && isString) {
        if (type === T_TEXT) p = this.textBlock(p);
        else {
          if (type === T_UNKNOWN) textAt = p;
          p = skipValue(buf, p, end);
        }
      } else if (bit === B_NAME && isString) {
        nameAt = p;
        nameEnd = checkedStringEnd(buf, p, end);
        if (nameEnd < 0) return FAIL;
        p = nameEnd + 1;
      } else p = skipValue(buf, p, end);
      if (p < 0) return p;
      p = this.next(p, CLOSE_OBJECT);
      if (p >= 0) continue;
      if (p !== CLOSED) return p;
      const after = this.after;
      if (type === T_TEXT && textAt >= 0) {
        const r = this.textBlock(textAt);
        if (r < 0) return r;
      } else if (type === T_TOOL_CALL && nameAt >= 0) {
        const name = sharedString(buf, nameAt, nameEnd);
        if (name === undefined) return FAIL;
        this.names.push(name);
      }
      return after;
    }
  }

  /** A text block's string at `p`: joined to the preview after a "\n", as textOfContent joins them. */
  private textBlock(p: number): number {
    if (this.textBlocks++ > 0) this.content.addAscii(10);
    return this.text(this.content, p);
  }

  /**
   * Reads the string at `p` into `into` until the preview is full, then skips the rest (or stops the walk when
   * the envelope is complete). The position after the string, FAIL or STOP.
   */
  private text(into: PreviewBuilder, p: number): number {
    const { buf, end } = this;
    let q: number;
    if (into.full) q = stringEndFrom(buf, p + 1, end);
    else {
      q = into.addJsonString(buf, p + 1, end);
      if (q < 0) return FAIL;
      if (into.full) {
        if (this.complete()) return STOP;
        if (buf[q] !== QUOTE) q = stringEndFrom(buf, q, end);
      }
    }
    return q < 0 ? FAIL : q + 1;
  }

  /**
   * True when the rest of the line cannot change the envelope (and the caller allows stopping). Called after
   * each value of the message, and inside a string once its preview is full: a tool result is complete once
   * its tool name and content are read (or the content's preview is full), a command once it is read.
   */
  private complete(): boolean {
    if (!this.mayStop) return false;
    const keys = this.messageKeys;
    if (this.role === "toolResult") return (keys & (M_TOOL_NAME | M_CONTENT)) === (M_TOOL_NAME | M_CONTENT);
    return this.role === "bashExecution" && (keys & M_COMMAND) !== 0;
  }

  /** The role at buf[p, q), as one shared string; undefined for roles left to JSON.parse. */
  private roleAt(p: number, q: number): string | undefined {
    const { buf } = this;
    const n = q - p;
    for (const role of ROLES) if (role.length === n && bytesEqual(buf, p, role)) return role;
    const role = decodeString(buf, p - 1, q);
    if (role === undefined || WHOLE_ROLES.includes(role)) return undefined;
    return intern(role);
  }

  /** The envelope and meta of the line read. */
  private facts(): EntryFacts {
    const role = this.role;
    const { content } = this;
    const hasText = content.hasText;
    // The builder the preview comes from (undefined: tool names); its text goes to the arena when there is one
    // and it takes it (the envelope then holds "" until the arena is flushed).
    let from: PreviewBuilder | undefined;
    if (role === "assistant") from = hasText ? content : this.names.length > 0 ? undefined : this.error;
    else from = role === "bashExecution" ? this.command : content;
    const previews = this.previews;
    const arena = previews !== undefined && from !== undefined && from.sliceable;
    const preview = arena ? "" : from === undefined ? normalizePreview(this.names.join(", ")) : from.text();
    const { id, parentId, timestamp } = this;
    // Each kind of envelope is made whole by one literal, not grown by a key or two after it is made (a new
    // hidden class and a property store per envelope). The keys and their order are envelopeOf's.
    let env: EntryEnvelope;
    let meta = NO_META;
    let activity: number | undefined;
    if (role === undefined) env = { id, parentId, type: "message", timestamp, preview };
    else if (role === "toolResult" && this.toolName !== undefined) {
      const toolName = this.toolName;
      env = { id, parentId, type: "message", role, timestamp, preview, toolName };
    } else if (role === "assistant") {
      const failed = this.failed;
      if (this.names.length > 0) {
        const toolName = intern(this.names.join(", "));
        const toolCallsOnly = !hasText;
        env = failed
          ? { id, parentId, type: "message", role, timestamp, preview, toolName, toolCallsOnly, failed }
          : { id, parentId, type: "message", role, timestamp, preview, toolName, toolCallsOnly };
      } else
        env = failed
          ? { id, parentId, type: "message", role, timestamp, preview, failed }
          : { id, parentId, type: "message", role, timestamp, preview };
      // Rare (a reply the user stopped): set after the literal, which keeps the common shapes as they are.
      if (this.aborted) env.aborted = true;
      const { provider, model } = this;
      if (this.usage) {
        const cost = USAGE_VALUES[USAGE_COST - 1] === COST_OBJECT ? COST_VALUES : undefined;
        meta = scannedAssistantMeta(provider, model, USAGE_VALUES, cost);
      } else if (provider !== undefined && model !== undefined) meta = modelMeta(provider, model);
    } else env = { id, parentId, type: "message", role, timestamp, preview };
    if (arena) (from as PreviewBuilder).toArena(previews, env);
    if ((role === "user" || role === "assistant") && (this.messageKeys & M_CONTENT) !== 0) {
      if (!Number.isNaN(this.messageTime)) activity = this.messageTime;
      else {
        const t = Date.parse(this.timestamp);
        if (!Number.isNaN(t)) activity = t;
      }
    }
    return activity === undefined ? { env, meta } : { env, meta, activity };
  }
}

const scan = new Scan();

/**
 * The envelope and meta of the `message` entry on line buf[start, end), read from its bytes; undefined when the
 * line is not such an entry or the scanner leaves it to JSON.parse (see the file comment). `strict`: read the
 * line to its end (no early stop). `previousId`: the id of the line before (a parentId that spells it gets that
 * very string).
 */
export function scanEntry(
  buf: Buffer,
  start: number,
  end: number,
  strict: boolean,
  previousId?: string,
  previews?: PreviewArena,
): EntryFacts | undefined {
  return scan.read(buf, start, end, strict, previousId, previews);
}
