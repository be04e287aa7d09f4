/**
 * Reading pi `message` lines from their bytes.
 * - readMessageHead: id, parentId, timestamp and role from the line head, for open() (one native regular
 *   expression per line; the rest of the envelope is filled in later, see envelope-fill.ts).
 * - envelopeFromPiBytes: the whole envelope — no decoded head string, only the envelope's own strings and the
 *   preview are created. Same answers as head-scan.ts's envelopeFromPiHead (user / toolResult / bashExecution)
 *   and assistant-skim.ts (assistant), or undefined — then the caller takes the slower paths.
 */
import { skimAssistantMessage } from "./assistant-skim.js";
import { intern, type EntryMeta } from "./entry-record.js";
import { isSpace, PREVIEW_MAX } from "./preview.js";
import type { EntryEnvelope } from "./types.js";

const ascii = (s: string): Buffer => Buffer.from(s, "latin1");
const TOOL_CALL_ID = ascii('",' + '"toolCallId":"');
const TOOL_NAME = ascii(',"toolName":"');
const FIRST_TEXT = ascii('","content":[{"type":"text","text":"');
const USER_STRING = ascii('","content":"');
const USER_BLOCK = ascii('","content":[{"type":"text","text":"');
const COMMAND = ascii('","command":"');

/** Position after `lit` when buf[at..] starts with it, else -1. */
function literal(buf: Buffer, at: number, end: number, lit: Buffer): number {
  const n = lit.length;
  if (at + n > end) return -1;
  for (let i = 0; i < n; i++) if (buf[at + i] !== lit[i]) return -1;
  return at + n;
}

/** True for bytes of ids ([0-9A-Za-z_-]); with `ts`, also those of timestamps (: . +). */
function tokenByte(c: number, ts: boolean): boolean {
  return (
    (c >= 48 && c <= 57) ||
    (c >= 65 && c <= 90) ||
    (c >= 97 && c <= 122) ||
    c === 95 ||
    c === 45 ||
    (ts && (c === 58 || c === 46 || c === 43))
  );
}

/** End (the closing quote) of a token of 1..max token bytes starting at `at`, else -1. */
function token(buf: Buffer, at: number, end: number, max: number, ts: boolean): number {
  let p = at;
  while (p < end && p - at <= max && tokenByte(buf[p], ts)) p++;
  return p > at && p - at <= max && p < end && buf[p] === 34 ? p : -1;
}

/** Output code units (previews are short; reused). */
const codes: number[] = [];

/**
 * Decode the JSON string whose content starts at `at` (UTF-8 bytes, escapes) and collapse its whitespace,
 * stopping after `limit` characters: collapseWhitespace(lead + value, limit) without decoding the rest.
 * Undefined for invalid string text (bad escape, control character, invalid UTF-8, no closing quote).
 */
export function collapseJsonBytes(
  buf: Buffer,
  at: number,
  end: number,
  lead: string,
  limit: number,
): { text: string; closed: boolean } | undefined {
  const out = codes;
  let n = 0;
  let pending = false;
  let closed = false;
  let low = -1; // second half of a surrogate pair still to emit
  for (let i = 0; i < lead.length; i++) {
    const c = lead.charCodeAt(i);
    if (isSpace(c)) {
      if (n > 0) pending = true;
    } else {
      if (pending) {
        out[n++] = 32;
        pending = false;
      }
      out[n++] = c;
    }
  }
  let p = at;
  while (n < limit) {
    let c: number;
    if (low >= 0) {
      c = low;
      low = -1;
    } else {
      if (p >= end) return undefined;
      c = buf[p];
      if (c === 34) {
        closed = true;
        break;
      }
      if (c < 32) return undefined;
      if (c === 92) {
        if (p + 1 >= end) return undefined;
        const e = buf[p + 1];
        p += 2;
        if (e === 110) c = 10;
        else if (e === 34 || e === 92 || e === 47) c = e;
        else if (e === 116) c = 9;
        else if (e === 114) c = 13;
        else if (e === 117) {
          if (p + 4 > end) return undefined;
          c = 0;
          for (let k = 0; k < 4; k++) {
            const h = buf[p + k];
            const d = h >= 48 && h <= 57 ? h - 48 : h >= 97 && h <= 102 ? h - 87 : h >= 65 && h <= 70 ? h - 55 : -1;
            if (d < 0) return undefined;
            c = c * 16 + d;
          }
          p += 4;
        } else if (e === 98) c = 8;
        else if (e === 102) c = 12;
        else return undefined;
      } else if (c < 0x80) p++;
      else {
        // UTF-8 sequences, strictly (anything else goes to the slow path, which decodes like Buffer#toString).
        const b1 = p + 1 < end ? buf[p + 1] : 0;
        if (c >= 0xc2 && c <= 0xdf) {
          if ((b1 & 0xc0) !== 0x80) return undefined;
          c = ((c & 0x1f) << 6) | (b1 & 0x3f);
          p += 2;
        } else if (c >= 0xe0 && c <= 0xef) {
          const b2 = p + 2 < end ? buf[p + 2] : 0;
          if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80) return undefined;
          if ((c === 0xe0 && b1 < 0xa0) || (c === 0xed && b1 > 0x9f)) return undefined;
          c = ((c & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f);
          p += 3;
        } else if (c >= 0xf0 && c <= 0xf4) {
          const b2 = p + 2 < end ? buf[p + 2] : 0;
          const b3 = p + 3 < end ? buf[p + 3] : 0;
          if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return undefined;
          if ((c === 0xf0 && b1 < 0x90) || (c === 0xf4 && b1 > 0x8f)) return undefined;
          const cp = ((c & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f);
          c = 0xd800 + ((cp - 0x10000) >> 10);
          low = 0xdc00 + ((cp - 0x10000) & 0x3ff);
          p += 4;
        } else return undefined;
      }
    }
    if (c === 32 || (c >= 9 && c <= 13) || (c >= 0xa0 && isSpace(c))) {
      if (n > 0) pending = true;
      continue;
    }
    if (pending) {
      out[n++] = 32;
      pending = false;
      if (n >= limit) break;
    }
    out[n++] = c;
  }
  out.length = Math.min(n, limit);
  return { text: String.fromCharCode.apply(null, out), closed };
}

/** Node's Buffer#latin1Slice (what toString("latin1") ends in; long-standing but not in the typings). */
interface Latin1Slicer {
  latin1Slice(start: number, end: number): string;
}
/** buf[start, end) as a Latin-1 string (heads are ASCII), without toString's argument handling. */
const latin1: (buf: Buffer, start: number, end: number) => string =
  typeof (Buffer.prototype as Partial<Latin1Slicer>).latin1Slice === "function"
    ? (buf, start, end) => (buf as unknown as Latin1Slicer).latin1Slice(start, end)
    : (buf, start, end) => buf.toString("latin1", start, end);

/** Longest head of a pi message line: two 64-character ids, a 40-character timestamp, the longest role. */
const MESSAGE_HEAD_MAX = 260;
/** pi's message head as one native regular expression (cheaper than a byte loop in a cold process). */
const MESSAGE_HEAD =
  /^\{"type":"message","id":"([0-9A-Za-z_-]{1,64})","parentId":(?:null|"([0-9A-Za-z_-]{1,64})"),"timestamp":"([0-9A-Za-z:.+-]{1,40})","message":\{"role":"(user|assistant|toolResult|bashExecution)"/;
const ROLE_NAMES: Readonly<Record<string, string>> = {
  u: "user",
  a: "assistant",
  t: "toolResult",
  b: "bashExecution",
};

/** What readMessageHead found (reused: one head is read at a time). */
export const messageHead = {
  id: "",
  parentId: null as string | null,
  timestamp: "",
  role: "",
  /** Offset of the role value's first byte. */
  roleAt: 0,
};

/**
 * Reads the head of a pi `message` line — id, parentId, timestamp, role — into `messageHead`, for open():
 * the preview and the rest of the envelope are read later (envelopeFromPiBytes) when asked for. False when
 * the line does not start in pi's layout. `previousId`: the id of the line before; a parentId that spells it
 * gets that very string (the index then finds the parent with one compare). The strings kept are flat
 * copies, not views of the decoded head.
 */
export function readMessageHead(buf: Buffer, start: number, end: number, previousId: string | undefined): boolean {
  const m = MESSAGE_HEAD.exec(latin1(buf, start, Math.min(end, start + MESSAGE_HEAD_MAX)));
  if (m === null) return false;
  const head = messageHead;
  // V8 keeps substrings of 13 characters or more as views of the whole head: re-slice those from the bytes.
  const id = m[1];
  let p = start + 24; // {"type":"message","id":"
  head.id = id.length < 13 ? id : latin1(buf, p, p + id.length);
  p += id.length + 13; // ","parentId":
  const parent = m[2];
  if (parent === undefined) {
    head.parentId = null;
    p += 4;
  } else {
    head.parentId =
      parent === previousId ? previousId : parent.length < 13 ? parent : latin1(buf, p + 1, p + 1 + parent.length);
    p += parent.length + 2;
  }
  p += 14; // ,"timestamp":"
  head.timestamp = latin1(buf, p, p + m[3].length);
  head.role = ROLE_NAMES[m[4][0]];
  head.roleAt = p + m[3].length + 21; // ","message":{"role":"
  return true;
}

/**
 * Envelope (and meta, for assistant lines) of the line buf[start, end), or undefined when the line is not in
 * pi's layout or its bytes do not prove the preview.
 */
export function envelopeFromPiBytes(
  buf: Buffer,
  start: number,
  end: number,
): { env: EntryEnvelope; meta: EntryMeta | undefined } | undefined {
  if (!readMessageHead(buf, start, end, undefined)) return undefined;
  const { id, parentId, timestamp, role, roleAt } = messageHead;
  let p: number;
  if (role === "assistant") {
    // The message object starts 9 bytes before the role value: {"role":"
    return skimAssistantMessage(buf, roleAt - 9, end, id, parentId, timestamp);
  }
  const roleEnd = roleAt + role.length; // at the closing quote
  const env: EntryEnvelope = { id, parentId, type: "message", role, timestamp, preview: "" };
  let lead = "";
  let whole = false; // the string is the whole content
  let at: number;
  if (role === "toolResult") {
    p = literal(buf, roleEnd, end, TOOL_CALL_ID);
    if (p < 0) return undefined;
    // Skip the call id (a JSON string): find its closing quote.
    for (;;) {
      if (p >= end || p - roleEnd > 1024) return undefined;
      const c = buf[p];
      if (c === 34) break;
      p += c === 92 ? 2 : 1;
    }
    p = literal(buf, p + 1, end, TOOL_NAME);
    if (p < 0) return undefined;
    const nameEnd = token(buf, p, end, 128, true);
    if (nameEnd < 0) return undefined;
    env.toolName = intern(buf.toString("latin1", p, nameEnd));
    at = literal(buf, nameEnd, end, FIRST_TEXT);
  } else if (role === "bashExecution") {
    at = literal(buf, roleEnd, end, COMMAND);
    lead = "$ ";
    whole = true;
  } else {
    at = literal(buf, roleEnd, end, USER_STRING);
    if (at >= 0) whole = true;
    else at = literal(buf, roleEnd, end, USER_BLOCK);
  }
  if (at < 0) return undefined;
  const c = collapseJsonBytes(buf, at, end, lead, PREVIEW_MAX + 1);
  if (!c) return undefined;
  // Unless the string is the whole text, only a prefix is known: it proves the preview past PREVIEW_MAX.
  if (c.text.length <= PREVIEW_MAX && !(c.closed && whole)) return undefined;
  env.preview = c.text.length > PREVIEW_MAX ? c.text.slice(0, PREVIEW_MAX) : c.text;
  return { env, meta: undefined };
}
