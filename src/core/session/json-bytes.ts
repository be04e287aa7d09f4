/**
 * JSON read straight from UTF-8 bytes, for the entry scanner (entry-scanner.ts): finding where a string or
 * any value ends, and decoding the few short strings the store keeps. Positions are byte offsets into one
 * line; every function returns -1 when the bytes are not what valid JSON would hold there, and the caller
 * then parses the line with JSON.parse.
 *
 * Skipped values are not validated beyond their brackets and string ends (a bad escape or a stray byte inside
 * a skipped value is found when the line's body is parsed).
 */

export const QUOTE = 34;
export const BACKSLASH = 92;
export const COMMA = 44;
export const COLON = 58;
export const OPEN_OBJECT = 123;
export const CLOSE_OBJECT = 125;
export const OPEN_ARRAY = 91;
export const CLOSE_ARRAY = 93;

/** Bytes of a string looked at one by one before asking Buffer#indexOf (a native call costs more than a few). */
const SHORT_STRING_BYTES = 32;

/** The first position at or after `p` that is not JSON whitespace (`end` when there is none). */
export function skipSpace(buf: Buffer, p: number, end: number): number {
  while (p < end) {
    const c = buf[p];
    if (c !== 32 && c !== 10 && c !== 13 && c !== 9) return p;
    p++;
  }
  return end;
}

/**
 * Where the string whose content starts at `p` ends: the position of its closing quote, or -1 when it does
 * not end before `end`. `p` must not be inside an escape sequence.
 */
export function stringEndFrom(buf: Buffer, p: number, end: number): number {
  const stop = p + SHORT_STRING_BYTES < end ? p + SHORT_STRING_BYTES : end;
  while (p < stop) {
    const c = buf[p];
    if (c === QUOTE) return p;
    p += c === BACKSLASH ? 2 : 1;
  }
  // Long strings (text, thinking, signatures, tool output): the native search, checking each quote found is
  // not escaped (preceded by an even number of backslashes, counted back to where the search started).
  for (;;) {
    if (p >= end) return -1;
    const q = buf.indexOf(QUOTE, p);
    if (q < 0 || q >= end) return -1;
    let k = q - 1;
    while (k >= p && buf[k] === BACKSLASH) k--;
    if ((q - 1 - k) % 2 === 0) return q;
    p = q + 1;
  }
}

/** The position after the value starting at `p` (not whitespace), or -1. Nesting depth is unbounded. */
export function skipValue(buf: Buffer, p: number, end: number): number {
  let c = buf[p];
  if (c === QUOTE) {
    const q = stringEndFrom(buf, p + 1, end);
    return q < 0 ? -1 : q + 1;
  }
  if (c !== OPEN_OBJECT && c !== OPEN_ARRAY) {
    // A number or a literal: runs to the next delimiter.
    const from = p;
    while (p < end) {
      c = buf[p];
      if (c === COMMA || c === CLOSE_OBJECT || c === CLOSE_ARRAY || c === 32 || c === 10 || c === 13 || c === 9) break;
      if (c === QUOTE || c === OPEN_OBJECT || c === OPEN_ARRAY || c === COLON) return -1;
      p++;
    }
    return p > from ? p : -1;
  }
  let depth = 0;
  while (p < end) {
    c = buf[p];
    if (c === QUOTE) {
      const q = stringEndFrom(buf, p + 1, end);
      if (q < 0) return -1;
      p = q + 1;
      continue;
    }
    if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (--depth === 0) return p + 1;
    }
    p++;
  }
  return -1;
}

/**
 * The end (closing quote) of the string whose opening quote is at `p`, checking its content as JSON.parse
 * does for raw bytes (no control character); -1 when there is none or the string is invalid. For short
 * values: every byte is looked at.
 */
export function checkedStringEnd(buf: Buffer, p: number, end: number): number {
  if (buf[p] !== QUOTE) return -1;
  for (p++; p < end; p++) {
    const c = buf[p];
    if (c === QUOTE) return p;
    if (c < 32) return -1;
    if (c === BACKSLASH) p++;
  }
  return -1;
}

/**
 * The value of the string buf[p, q] (opening and closing quote, as checkedStringEnd found them), exactly as
 * JSON.parse gives it; undefined for an invalid escape.
 */
export function decodeString(buf: Buffer, p: number, q: number): string | undefined {
  let i = p + 1;
  let ascii = true;
  for (; i < q; i++) {
    const c = buf[i];
    if (c === BACKSLASH) break;
    if (c >= 0x80) ascii = false;
  }
  // ASCII (ids, timestamps) decodes the same as Latin-1, by a shorter path than UTF-8's.
  if (i === q) return buf.toString(ascii ? "latin1" : "utf8", p + 1, q);
  try {
    return JSON.parse(buf.toString("utf8", p, q + 1)) as string;
  } catch {
    return undefined;
  }
}

/** True when buf[p, p + s.length) holds the ASCII string `s`. */
export function bytesEqual(buf: Buffer, p: number, s: string): boolean {
  const n = s.length;
  for (let i = 0; i < n; i++) if (buf[p + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** The end of the JSON number starting at `p` (the position after it), or -1 when there is none. */
export function numberEnd(buf: Buffer, p: number, end: number): number {
  if (p < end && buf[p] === 45) p++;
  const first = p;
  while (p < end && buf[p] >= 48 && buf[p] <= 57) p++;
  if (p === first || (p - first > 1 && buf[first] === 48)) return -1;
  if (p < end && buf[p] === 46) {
    const at = ++p;
    while (p < end && buf[p] >= 48 && buf[p] <= 57) p++;
    if (p === at) return -1;
  }
  if (p < end && (buf[p] === 101 || buf[p] === 69)) {
    p++;
    if (p < end && (buf[p] === 43 || buf[p] === 45)) p++;
    const at = p;
    while (p < end && buf[p] >= 48 && buf[p] <= 57) p++;
    if (p === at) return -1;
  }
  return p;
}

/** 10^0 … 10^22: every one is exactly a double (see numberValue). */
const POWERS_OF_TEN = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * The value of the JSON number buf[p, q) (as numberEnd found it), as JSON.parse reads it. Up to 15 digits without
 * an exponent are read by hand: the digits make an integer below 2^53 and the fraction's length a power of ten up
 * to 10^22, both exact doubles, and one division of exact doubles is rounded correctly — the double nearest the
 * decimal, which is what JSON.parse gives. (A cost such as 0.0036 was a string and a Number() call per value:
 * assistant lines hold six.) Anything else goes through Number(), which agrees with JSON.parse.
 */
export function numberValue(buf: Buffer, p: number, q: number): number {
  const negative = buf[p] === 45;
  let i = negative ? p + 1 : p;
  let value = 0;
  let digits = 0;
  let fraction = -1; // digits after the point, once it is seen
  for (; i < q; i++) {
    const c = buf[i];
    if (c === 46 && fraction < 0) {
      fraction = 0;
      continue;
    }
    const d = c - 48;
    if (d < 0 || d > 9 || ++digits > 15) return Number(buf.toString("latin1", p, q));
    value = value * 10 + d;
    if (fraction >= 0) fraction++;
  }
  if (fraction > 0) value /= POWERS_OF_TEN[fraction];
  return negative ? -value : value;
}
