/**
 * A preview read from the UTF-8 bytes of JSON strings: the rule of preview.ts (whitespace runs collapsed to
 * one space, trimmed, at most PREVIEW_MAX UTF-16 code units) applied while the strings are decoded, so that
 * only the start of a long text is ever looked at. The entry scanner feeds it the strings a preview is made
 * of (the text blocks of a message, joined by "\n", or a command after "$ ").
 */
import { BACKSLASH, QUOTE } from "./json-bytes.js";
import { isSpace, PREVIEW_MAX } from "./preview.js";

/** Code units kept: one more than the preview shows proves that trimming cannot change the part shown. */
const KEEP_UNITS = PREVIEW_MAX + 1;
/** Room for KEEP_UNITS units of UTF-8 (at most 3 bytes each; a 4-byte character is 2 units) and a space. */
const OUT_BYTES = 3 * KEEP_UNITS + 8;

/** The hex digit value of byte `h`, or -1. */
function hexValue(h: number): number {
  if (h >= 48 && h <= 57) return h - 48;
  if (h >= 97 && h <= 102) return h - 87;
  if (h >= 65 && h <= 70) return h - 55;
  return -1;
}

/** The code unit of the `\uXXXX` escape whose `u` is at `p`, or -1. */
function unicodeEscape(buf: Buffer, p: number, end: number): number {
  if (p + 4 >= end) return -1;
  const a = hexValue(buf[p + 1]);
  const b = hexValue(buf[p + 2]);
  const c = hexValue(buf[p + 3]);
  const d = hexValue(buf[p + 4]);
  return (a | b | c | d) < 0 ? -1 : (a << 12) | (b << 8) | (c << 4) | d;
}

/** One preview being read (reused: reset() starts the next). */
export class PreviewBuilder {
  /** A Buffer, so that text() decodes it without making a view of it first. */
  private readonly out = Buffer.alloc(OUT_BYTES);
  /** Bytes written to `out`. */
  private bytes = 0;
  /** UTF-16 code units written. */
  private units = 0;
  /** Whitespace was seen after the last character written: a space goes before the next one. */
  private pending = false;

  /** Start a new preview. */
  reset(): void {
    this.bytes = 0;
    this.units = 0;
    this.pending = false;
  }

  /** True once enough is read: more text cannot change the preview. */
  get full(): boolean {
    return this.units >= KEEP_UNITS;
  }

  /** True once a character other than whitespace was read. */
  get hasText(): boolean {
    return this.units > 0;
  }

  /** Add an ASCII character (a separator such as "\n", or the "$ " before a command). */
  addAscii(c: number): void {
    if (this.full) return;
    if (c === 32 || (c >= 9 && c <= 13)) {
      if (this.units > 0) this.pending = true;
      return;
    }
    this.flushSpace();
    this.out[this.bytes++] = c;
    this.units++;
  }

  /**
   * Add the content of the JSON string starting at `p` (just after its opening quote) until the string ends
   * or the preview is full. Returns where it stopped: the closing quote, or the first byte not read when
   * full (never inside an escape or a character). -1 for bytes that are not valid JSON string content or
   * that it leaves to JSON.parse (invalid UTF-8, an unpaired surrogate escape), and when `end` comes first.
   */
  addJsonString(buf: Buffer, p: number, end: number): number {
    const out = this.out;
    // The state lives in locals while the loop runs (the common case: printable ASCII, "\n", "\"").
    let bytes = this.bytes;
    let units = this.units;
    let pending = this.pending;
    while (units < KEEP_UNITS) {
      if (p >= end) return -1;
      let c = buf[p];
      if (c > 32 && c < 0x7f && c !== QUOTE && c !== BACKSLASH) {
        // Printable ASCII other than a quote or backslash (nearly every byte of a text): written as it is, below.
        p++;
      } else if (c === QUOTE) break;
      else if (c === BACKSLASH) {
        const e = p + 1 < end ? buf[p + 1] : 0;
        if (e === 110 || e === 116 || e === 114 || e === 102) {
          // \n \t \r \f: whitespace
          p += 2;
          if (units > 0) pending = true;
          continue;
        }
        if (e === QUOTE || e === BACKSLASH || e === 47) c = e;
        else if (e === 98) c = 8;
        else {
          // \u escapes (and anything invalid): the slow path.
          this.bytes = bytes;
          this.units = units;
          this.pending = pending;
          p = this.unicode(buf, p, end);
          if (p < 0) return -1;
          bytes = this.bytes;
          units = this.units;
          pending = this.pending;
          continue;
        }
        p += 2;
      } else if (c >= 0x80) {
        this.bytes = bytes;
        this.units = units;
        this.pending = pending;
        p = this.multiByte(buf, p, end);
        if (p < 0) return -1;
        bytes = this.bytes;
        units = this.units;
        pending = this.pending;
        continue;
      } else {
        if (c < 32) return -1;
        p++;
        if (c === 32) {
          if (units > 0) pending = true;
          continue;
        }
      }
      if (pending) {
        out[bytes++] = 32;
        units++;
        pending = false;
        if (units >= KEEP_UNITS) break;
      }
      out[bytes++] = c;
      units++;
    }
    this.bytes = bytes;
    this.units = units;
    this.pending = pending;
    return p;
  }

  /** The `\u` escape at `p` (a pair of them for a character beyond the BMP); the position after it, or -1. */
  private unicode(buf: Buffer, p: number, end: number): number {
    if (p + 1 >= end || buf[p + 1] !== 117) return -1;
    const c = unicodeEscape(buf, p + 1, end);
    if (c < 0) return -1;
    p += 6;
    if (c < 0xd800 || c > 0xdfff) {
      this.addCodePoint(c);
      return p;
    }
    // Only a whole pair can be written as UTF-8; a lone surrogate is left to JSON.parse.
    if (c > 0xdbff || p + 1 >= end || buf[p] !== BACKSLASH || buf[p + 1] !== 117) return -1;
    const low = unicodeEscape(buf, p + 1, end);
    if (low < 0xdc00 || low > 0xdfff) return -1;
    this.addCodePoint(0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00));
    return p + 6;
  }

  /** The multi-byte UTF-8 character at `p`, decoded strictly; the position after it, or -1. */
  private multiByte(buf: Buffer, p: number, end: number): number {
    const c = buf[p];
    const b1 = p + 1 < end ? buf[p + 1] : 0;
    if (c >= 0xc2 && c <= 0xdf) {
      if ((b1 & 0xc0) !== 0x80) return -1;
      this.addCodePoint(((c & 0x1f) << 6) | (b1 & 0x3f));
      return p + 2;
    }
    const b2 = p + 2 < end ? buf[p + 2] : 0;
    if (c >= 0xe0 && c <= 0xef) {
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80) return -1;
      if ((c === 0xe0 && b1 < 0xa0) || (c === 0xed && b1 > 0x9f)) return -1;
      this.addCodePoint(((c & 0x0f) << 12) | ((b1 & 0x3f) << 6) | (b2 & 0x3f));
      return p + 3;
    }
    const b3 = p + 3 < end ? buf[p + 3] : 0;
    if (c >= 0xf0 && c <= 0xf4) {
      if ((b1 & 0xc0) !== 0x80 || (b2 & 0xc0) !== 0x80 || (b3 & 0xc0) !== 0x80) return -1;
      if ((c === 0xf0 && b1 < 0x90) || (c === 0xf4 && b1 > 0x8f)) return -1;
      this.addCodePoint(((c & 0x07) << 18) | ((b1 & 0x3f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f));
      return p + 4;
    }
    return -1;
  }

  /** True when the preview read so far is ASCII and long enough for a slice of an arena to pay (PreviewArena). */
  get sliceable(): boolean {
    return this.bytes === this.units && this.units >= SLICE_MIN;
  }

  /** Queue the preview read so far (sliceable) in `arena` as the preview of `env`. */
  toArena(arena: PreviewArena, env: { preview: string }): void {
    arena.add(this.out, Math.min(this.bytes, PREVIEW_MAX), env);
  }

  /** The preview read so far. */
  text(): string {
    if (this.units === 0) return "";
    // As many bytes as code units: all ASCII, which decodes the same as Latin-1, by a shorter path than UTF-8's.
    const s = this.out.toString(this.bytes === this.units ? "latin1" : "utf8", 0, this.bytes);
    // A character of two units at the cut is cut in half, as String#slice does.
    return s.length > PREVIEW_MAX ? s.slice(0, PREVIEW_MAX) : s;
  }

  private flushSpace(): void {
    if (this.pending) {
      this.out[this.bytes++] = 32;
      this.units++;
      this.pending = false;
    }
  }

  /** Add one character (its code point), collapsing whitespace. */
  private addCodePoint(cp: number): void {
    if (this.units >= KEEP_UNITS) return;
    if (isSpace(cp)) {
      if (this.units > 0) this.pending = true;
      return;
    }
    this.flushSpace();
    if (this.units >= KEEP_UNITS) return;
    const out = this.out;
    if (cp < 0x80) {
      out[this.bytes++] = cp;
      this.units++;
    } else if (cp < 0x800) {
      out[this.bytes++] = 0xc0 | (cp >> 6);
      out[this.bytes++] = 0x80 | (cp & 0x3f);
      this.units++;
    } else if (cp < 0x10000) {
      out[this.bytes++] = 0xe0 | (cp >> 12);
      out[this.bytes++] = 0x80 | ((cp >> 6) & 0x3f);
      out[this.bytes++] = 0x80 | (cp & 0x3f);
      this.units++;
    } else {
      out[this.bytes++] = 0xf0 | (cp >> 18);
      out[this.bytes++] = 0x80 | ((cp >> 12) & 0x3f);
      out[this.bytes++] = 0x80 | ((cp >> 6) & 0x3f);
      out[this.bytes++] = 0x80 | (cp & 0x3f);
      this.units += 2;
    }
  }
}

/** V8 copies a substring shorter than this (SlicedString::kMinLength); longer ones refer to their parent. */
const SLICE_MIN = 13;
/**
 * Bytes of previews decoded at once: over V8's largest regular object (128 KB), so the decoded string is made in
 * large-object space, which the young generation's collector does not copy.
 */
const ARENA_BYTES = 256 * 1024;

/**
 * The ASCII previews of many entries, decoded as one string: each envelope's preview is then a slice of it (a
 * 20-byte SlicedString in V8) instead of a string of its own. A big session's previews are most of the bytes its
 * open keeps (3.8 M characters in the bench's 300 MB session), and as strings of their own they were decoded by a
 * native call each and copied twice by the young generation's collector before being promoted. The envelopes
 * given to add() hold "" until flush(), which the scan calls before it returns its table. A preview kept alone
 * keeps its arena's string (256 KB) alive.
 */
export class PreviewArena {
  /** Made at the first add (a small session's scan parses most lines and may queue nothing). */
  private bytes: Buffer | undefined;
  private used = 0;
  /** Envelopes waiting for their preview, and where it lies in `bytes`. */
  private readonly envs: { preview: string }[] = [];
  private readonly ends: number[] = [];

  /** Queue `from[0, length)` (ASCII) as the preview of `env`. */
  add(from: Buffer, length: number, env: { preview: string }): void {
    if (this.used + length > ARENA_BYTES) this.flush();
    from.copy((this.bytes ??= Buffer.allocUnsafe(ARENA_BYTES)), this.used, 0, length);
    this.used += length;
    this.envs.push(env);
    this.ends.push(this.used);
  }

  /** Give every queued envelope its preview. */
  flush(): void {
    const { envs, ends } = this;
    if (envs.length === 0 || this.bytes === undefined) return;
    const all = this.bytes.toString("latin1", 0, this.used);
    let start = 0;
    for (let i = 0; i < envs.length; i++) {
      const end = ends[i];
      envs[i].preview = all.slice(start, end);
      start = end;
    }
    envs.length = 0;
    ends.length = 0;
    this.used = 0;
  }
}
