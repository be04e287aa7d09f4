/**
 * Envelope extraction from the head of a large line without parsing its body.
 *
 * `parsePartialJson` parses a JSON text that may be cut anywhere and returns what was read so far;
 * containers that were not closed are reported, and in such a container only the LAST key (or element)
 * may be incomplete. `envelopeFromHead` uses it for big `message` lines of role user / toolResult /
 * bashExecution, whose envelope fields all come before the body in pi's key order. It returns undefined
 * whenever the head does not prove every envelope field — the caller then parses the whole line.
 */
import { collapseWhitespace, isSpace, normalizePreview, PREVIEW_MAX, textOfContent } from "./preview.js";
import type { EntryEnvelope } from "./types.js";

const TRUNCATED = Symbol("truncated");

/** Result of parsePartialJson. */
export interface PartialJson {
  value: unknown;
  /** True when the text held one whole JSON value. */
  complete: boolean;
  /** Objects/arrays that were still open when the text ended. */
  open: Set<object>;
}

/**
 * Parse a possibly truncated JSON text. Throws SyntaxError on text that is not a prefix of valid JSON.
 * Truncated strings keep their prefix minus the last character (it may be half of a multibyte character).
 */
export function parsePartialJson(s: string): PartialJson {
  let i = 0;
  const open = new Set<object>();
  const n = s.length;
  const bad = (): never => {
    throw new SyntaxError(`Unexpected input at ${i}`);
  };
  const ws = (): void => {
    while (i < n) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else return;
    }
    throw TRUNCATED;
  };
  /** Reads a string starting at s[i] === '"'. Returns [value, complete]. */
  const str = (): [string, boolean] => {
    const start = i + 1;
    let j = start;
    for (;;) {
      const q = s.indexOf('"', j);
      if (q < 0) break;
      let k = q - 1;
      while (k >= start && s.charCodeAt(k) === 92) k--;
      if ((q - 1 - k) % 2 === 0) {
        i = q + 1;
        return [JSON.parse(s.slice(start - 1, q + 1)) as string, true];
      }
      j = q + 1;
    }
    const raw = s.slice(start);
    i = n;
    return [decodePartialString(raw), false];
  };
  const value = (assign: (v: unknown) => void): void => {
    ws();
    const c = s[i];
    if (c === "{") {
      const o: Record<string, unknown> = {};
      assign(o);
      open.add(o);
      i++;
      ws();
      if (s[i] === "}") {
        i++;
        open.delete(o);
        return;
      }
      for (;;) {
        ws();
        if (s[i] !== '"') bad();
        const [key, done] = str();
        if (!done) throw TRUNCATED;
        ws();
        if (s[i] !== ":") bad();
        i++;
        value((v) => {
          // Like JSON.parse: "__proto__" is an own key, never the prototype.
          if (key === "__proto__")
            Object.defineProperty(o, key, { value: v, enumerable: true, writable: true, configurable: true });
          else o[key] = v;
        });
        ws();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "}") {
          i++;
          open.delete(o);
          return;
        }
        bad();
      }
    }
    if (c === "[") {
      const a: unknown[] = [];
      assign(a);
      open.add(a);
      i++;
      ws();
      if (s[i] === "]") {
        i++;
        open.delete(a);
        return;
      }
      for (;;) {
        value((v) => {
          a.push(v);
        });
        ws();
        if (s[i] === ",") {
          i++;
          continue;
        }
        if (s[i] === "]") {
          i++;
          open.delete(a);
          return;
        }
        bad();
      }
    }
    if (c === '"') {
      const [v, done] = str();
      assign(v);
      if (!done) throw TRUNCATED;
      return;
    }
    // A number running to the end of the text may be cut anywhere ("-1.", "2e+").
    if (n - i < 400 && /^-?\d*(?:\.\d*)?(?:[eE][+-]?\d*)?$/.test(s.slice(i))) throw TRUNCATED;
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(s.slice(i, i + 64));
    if (!m) {
      const rest = s.slice(i);
      // A literal cut at the end of the text ("nu", "-") is a truncation, not an error.
      if (rest.length < 5 && (rest === "-" || ["true", "false", "null"].some((w) => w.startsWith(rest))))
        throw TRUNCATED;
      bad();
    }
    const tok = (m as RegExpExecArray)[0];
    // A number that touches the end of the text may continue.
    if (i + tok.length >= n && tok !== "true" && tok !== "false" && tok !== "null") throw TRUNCATED;
    i += tok.length;
    assign(JSON.parse(tok));
  };
  let root: unknown;
  try {
    value((v) => {
      root = v;
    });
    return { value: root, complete: true, open };
  } catch (e) {
    if (e === TRUNCATED) return { value: root, complete: false, open };
    throw e;
  }
}

/**
 * Decode the raw (still escaped) content of a JSON string cut at an arbitrary point: a trailing partial escape
 * is dropped, and so is the last character (it may be half of a multibyte character cut by the head).
 * Throws SyntaxError when the text is not a valid string prefix.
 */
export function decodePartialString(raw: string): string {
  const tail = raw.slice(-6);
  const esc = /\\(u[0-9a-fA-F]{0,3})?$/.exec(tail);
  if (esc) {
    const at = raw.length - tail.length + esc.index;
    let k = at - 1;
    while (k >= 0 && raw.charCodeAt(k) === 92) k--;
    // Only an unescaped backslash starts a partial escape.
    if ((at - 1 - k) % 2 === 0) raw = raw.slice(0, at);
  }
  const decoded = JSON.parse('"' + raw + '"') as string;
  return decoded.slice(0, Math.max(0, decoded.length - 1));
}

const PI_ENVELOPE =
  /^\{"type":"message","id":"([0-9A-Za-z_-]{1,64})","parentId":(?:null|"([0-9A-Za-z_-]{1,64})"),"timestamp":"([0-9A-Za-z:.+-]{1,40})","message":\{"role":"(user|toolResult|bashExecution)",/;
const PI_TOOL_RESULT =
  /"toolCallId":"(?:[^"\\]|\\.){0,256}","toolName":"([0-9A-Za-z_.:-]{1,128})","content":\[\{"type":"text","text":"/y;
const PI_USER_STRING = /"content":"/y;
const PI_USER_BLOCK = /"content":\[\{"type":"text","text":"/y;
const PI_COMMAND = /"command":"/y;

/** Output code units of collapseJsonString (previews are short; reused to avoid garbage). */
const collapsedCodes: number[] = [];

/**
 * Decode the JSON string content of `s` starting at `at` (just after the opening quote) and collapse its
 * whitespace in one pass, stopping after `limit` output characters: what
 * `collapseWhitespace(lead + JSON.parse('"' + content + '"'), limit)` gives, without decoding the rest.
 * `closed` tells whether the closing quote was reached (the text is whole). When `s` ends before the string
 * does, its last character is not used (it may be half of a multibyte character cut by the head).
 * Undefined for content that is not valid JSON string text.
 */
export function collapseJsonString(
  s: string,
  at: number,
  lead: string,
  limit: number,
): { text: string; closed: boolean } | undefined {
  const out = collapsedCodes;
  let n = 0;
  let pending = false;
  let closed = false;
  const bound = s.length - 1; // s[bound] may be a cut character
  // Lead characters are read at negative positions so one loop handles both.
  for (let i = lead.length > 0 ? -lead.length : at; n < limit;) {
    let c: number;
    if (i < 0) {
      c = lead.charCodeAt(lead.length + i++);
      if (i === 0) i = at;
    } else {
      if (i >= bound) {
        if (i === bound && s.charCodeAt(i) === 34) closed = true;
        break;
      }
      c = s.charCodeAt(i);
      if (c === 34) {
        closed = true;
        break;
      }
      if (c < 32) return undefined;
      if (c !== 92) i++;
      else {
        const e = s.charCodeAt(i + 1);
        i += 2;
        if (e === 110) c = 10;
        else if (e === 34 || e === 92 || e === 47) c = e;
        else if (e === 116) c = 9;
        else if (e === 114) c = 13;
        else if (e === 117) {
          if (i + 3 >= bound) break; // cut by the end of the head
          c = 0;
          for (let k = 0; k < 4; k++) {
            const h = s.charCodeAt(i + k);
            const d = h >= 48 && h <= 57 ? h - 48 : h >= 97 && h <= 102 ? h - 87 : h >= 65 && h <= 70 ? h - 55 : -1;
            if (d < 0) return undefined;
            c = c * 16 + d;
          }
          i += 4;
        } else if (e === 98) c = 8;
        else if (e === 102) c = 12;
        else if (i - 1 >= bound)
          break; // a backslash cut by the end of the head
        else return undefined;
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
  return finish(out, n, closed);
}

function finish(out: number[], n: number, closed: boolean): { text: string; closed: boolean } {
  out.length = n;
  return { text: String.fromCharCode.apply(null, out), closed };
}

/**
 * Fast path for pi's key order (user / toolResult / bashExecution): sticky patterns over the head, then the
 * first text decoded. Undefined when the head is not in that layout or does not prove the preview.
 */
export function envelopeFromPiHead(head: string): EntryEnvelope | undefined {
  const m = PI_ENVELOPE.exec(head);
  if (!m) return undefined;
  const role = m[4];
  const env: EntryEnvelope = { id: m[1], parentId: m[2] ?? null, type: "message", role, timestamp: m[3], preview: "" };
  let at = m[0].length;
  let wholeContent = false; // the string is the whole content (user string content)
  let prefix = "";
  if (role === "bashExecution") {
    PI_COMMAND.lastIndex = at;
    if (!PI_COMMAND.test(head)) return undefined;
    prefix = "$ ";
    wholeContent = true;
    at = PI_COMMAND.lastIndex;
  } else if (role === "toolResult") {
    PI_TOOL_RESULT.lastIndex = at;
    const t = PI_TOOL_RESULT.exec(head);
    if (!t) return undefined;
    env.toolName = t[1];
    at = PI_TOOL_RESULT.lastIndex;
  } else {
    PI_USER_STRING.lastIndex = at;
    PI_USER_BLOCK.lastIndex = at;
    if (PI_USER_STRING.test(head)) {
      wholeContent = true;
      at = PI_USER_STRING.lastIndex;
    } else if (PI_USER_BLOCK.test(head)) at = PI_USER_BLOCK.lastIndex;
    else return undefined;
  }
  const c = collapseJsonString(head, at, prefix, PREVIEW_MAX + 1);
  if (!c) return undefined;
  // Only a prefix of the text is known (or, for tool results, of the joined text): it proves the preview when
  // it yields more than PREVIEW_MAX characters.
  if (c.text.length <= PREVIEW_MAX && !(c.closed && wholeContent)) return undefined;
  env.preview = c.text.length > PREVIEW_MAX ? c.text.slice(0, PREVIEW_MAX) : c.text;
  return env;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** True when `key` of `o` was read completely (an open object's last key may be cut). */
function hasComplete(o: Record<string, unknown>, key: string, open: Set<object>): boolean {
  if (!(key in o)) return false;
  if (!open.has(o)) return true;
  const keys = Object.keys(o);
  return keys[keys.length - 1] !== key;
}

/** The preview when the head proves it; undefined when more text would be needed. */
function previewFromPrefix(raw: string, exact: boolean): string | undefined {
  if (exact) return normalizePreview(raw);
  // The prefix proves the preview when it already yields more than PREVIEW_MAX collapsed characters.
  const collapsed = collapseWhitespace(raw, PREVIEW_MAX + 1);
  return collapsed.length > PREVIEW_MAX ? collapsed.slice(0, PREVIEW_MAX) : undefined;
}

/**
 * The envelope of a line from its head, or undefined when the head does not prove every field
 * (then parse the whole line). Only `message` entries of role user, toolResult and bashExecution qualify.
 * Lines in pi's exact key order take a pattern-matching fast path; anything else goes through the
 * partial JSON parser. Both give what envelopeOf(JSON.parse(line)) gives, or undefined.
 */
export function envelopeFromHead(head: string): EntryEnvelope | undefined {
  return envelopeFromPiHead(head) ?? envelopeFromHeadGeneric(head);
}

/** envelopeFromHead through the partial JSON parser only (any key order). */
export function envelopeFromHeadGeneric(head: string): EntryEnvelope | undefined {
  let parsed: PartialJson;
  try {
    parsed = parsePartialJson(head);
  } catch {
    return undefined;
  }
  const { value: root, open } = parsed;
  if (parsed.complete || !isRecord(root)) return undefined;
  for (const k of ["type", "id", "parentId", "timestamp"]) if (!hasComplete(root, k, open)) return undefined;
  const { type, id, parentId, timestamp, message } = root;
  if (type !== "message" || typeof id !== "string" || typeof timestamp !== "string") return undefined;
  if (parentId !== null && typeof parentId !== "string") return undefined;
  if (!isRecord(message) || !hasComplete(message, "role", open)) return undefined;
  const env: EntryEnvelope = { id, parentId, type, role: String(message.role), timestamp, preview: "" };
  let preview: string | undefined;
  switch (message.role) {
    case "user":
    case "toolResult": {
      if (message.role === "toolResult") {
        if (!hasComplete(message, "toolName", open) || typeof message.toolName !== "string") return undefined;
        env.toolName = message.toolName;
      }
      if (!("content" in message)) return undefined;
      const content = message.content;
      const exact = hasComplete(message, "content", open);
      if (typeof content !== "string" && !Array.isArray(content)) return undefined;
      preview = previewFromPrefix(textOfContent(content), exact);
      break;
    }
    case "bashExecution":
      if (!hasComplete(message, "command", open) || typeof message.command !== "string") return undefined;
      preview = normalizePreview("$ " + message.command);
      break;
    default:
      return undefined;
  }
  if (preview === undefined) return undefined;
  env.preview = preview;
  return env;
}
