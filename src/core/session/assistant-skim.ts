/**
 * Envelope and meta of an assistant `message` line, read from its bytes without parsing the body (the
 * preview pass, envelope-fill.ts, through byte-head.ts envelopeFromPiBytes).
 *
 * Assistant lines are half of a heavy session's bytes (thinking blocks, signatures, text), and what the tree
 * needs from them — text for the preview, tool call names, provider/model, stopReason — is spread over the
 * whole line. JSON.parse of every such line was most of the work. This walks the message object on the raw
 * bytes: string ends are found with Buffer.indexOf (native memchr), only the few values the envelope needs are
 * decoded (text blocks up to TEXT_PREFIX_BYTES), everything else is skipped. It does not validate skipped
 * values: a line damaged inside a skipped value is found when its body is read (like head-scan.ts).
 * Any shape it does not expect returns undefined, and the caller parses the line whole.
 */
import { detach, intern, usageFrom, type EntryMeta } from "./entry-record.js";
import { decodePartialString } from "./head-scan.js";
import { collapseWhitespace, isSpace, normalizePreview, PREVIEW_MAX } from "./preview.js";
import type { EntryEnvelope } from "./types.js";

/** Bytes of a text value decoded at most; enough for a 200-character preview of ordinary text. */
const TEXT_PREFIX_BYTES = 1024;
/** Longest provider / model / stopReason / role / block type decoded. */
const SHORT_MAX_BYTES = 512;

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_OBJ = 123;
const CLOSE_OBJ = 125;
const OPEN_ARR = 91;
const CLOSE_ARR = 93;

/** Thrown inside the skim for any unexpected byte; caught at the top. */
const FAIL = new Error("assistant skim: unexpected input");

/** A decoded string value; `complete` is false when only a prefix was decoded. */
interface Str {
  value: string;
  complete: boolean;
}

/** What the skim found in the message object (last key wins, as with JSON.parse). */
interface Found {
  role?: string;
  /** Text blocks in order (string content counts as one block). */
  texts: Str[];
  names: string[];
  provider?: string;
  model?: string;
  stopReason?: string;
  errorMessage?: Str;
  /** The `usage` value, parsed (a small object). */
  usage?: unknown;
}

/** A read position over one line's bytes. */
class Cursor {
  p: number;
  constructor(
    private readonly buf: Buffer,
    start: number,
    private readonly end: number,
  ) {
    this.p = start;
  }

  /** The next non-blank byte (not consumed). */
  peek(): number {
    const { buf, end } = this;
    let p = this.p;
    while (p < end) {
      const c = buf[p];
      if (c !== 32 && c !== 9 && c !== 13 && c !== 10) {
        this.p = p;
        return c;
      }
      p++;
    }
    throw FAIL;
  }

  eat(c: number): void {
    if (this.peek() !== c) throw FAIL;
    this.p++;
  }

  /** At an opening quote: moves past the string, returns the index of its closing quote. */
  skipString(): number {
    const { buf, end } = this;
    const open = this.p;
    for (let j = open + 1; ;) {
      const q = buf.indexOf(QUOTE, j);
      if (q < 0 || q >= end) throw FAIL;
      let k = q - 1;
      while (k > open && buf[k] === BACKSLASH) k--;
      if ((q - 1 - k) % 2 === 0) {
        this.p = q + 1;
        return q;
      }
      j = q + 1;
    }
  }

  /** A string value, decoded up to `limit` bytes. Undefined (skipped) when the value is not a string. */
  string(limit: number): Str | undefined {
    if (this.peek() !== QUOTE) {
      this.skipValue();
      return undefined;
    }
    const { buf } = this;
    const open = this.p;
    const close = this.skipString();
    const s = open + 1;
    if (close - s > limit) return { value: decodePartialString(buf.toString("utf8", s, s + limit)), complete: false };
    // Look for an escape within the string only: an unbounded indexOf would run on through the rest of the
    // read chunk (megabytes) when no backslash follows, for every string of every line.
    let bs = s;
    while (bs < close && buf[bs] !== BACKSLASH) bs++;
    const value =
      bs >= close ? buf.toString("utf8", s, close) : (JSON.parse(buf.toString("utf8", open, close + 1)) as string);
    return { value, complete: true };
  }

  /** A short string that must be whole (else the skim gives up). */
  shortString(): string | undefined {
    const v = this.string(SHORT_MAX_BYTES);
    if (v && !v.complete) throw FAIL;
    return v?.value;
  }

  /** At an object key: its name when it is one of `keys`, else "" (other keys are only skipped). */
  key(keys: readonly string[]): string {
    if (this.peek() !== QUOTE) throw FAIL;
    const open = this.p;
    const close = this.skipString();
    const { buf } = this;
    const len = close - open - 1;
    // An escaped key might decode to one of `keys`: leave such lines to JSON.parse.
    for (let p = open + 1; p < close; p++) if (buf[p] === BACKSLASH) throw FAIL;
    let name = "";
    for (const k of keys) {
      if (k.length !== len) continue;
      let i = 0;
      while (i < len && buf[open + 1 + i] === k.charCodeAt(i)) i++;
      if (i === len) {
        name = k;
        break;
      }
    }
    this.eat(COLON);
    return name;
  }

  /** Skips any value without validating it beyond bracket balance. */
  skipValue(): void {
    const { buf, end } = this;
    let c = this.peek();
    if (c === QUOTE) {
      this.skipString();
      return;
    }
    if (c !== OPEN_OBJ && c !== OPEN_ARR) {
      // number or literal
      let p = this.p;
      while (p < end) {
        c = buf[p];
        if (c === COMMA || c === CLOSE_OBJ || c === CLOSE_ARR || c === 32 || c === 9 || c === 13 || c === 10) break;
        p++;
      }
      if (p === this.p) throw FAIL;
      this.p = p;
      return;
    }
    let depth = 0;
    for (;;) {
      c = this.peek();
      if (c === QUOTE) this.skipString();
      else {
        this.p++;
        if (c === OPEN_OBJ || c === OPEN_ARR) depth++;
        else if (c === CLOSE_OBJ || c === CLOSE_ARR) {
          if (--depth === 0) return;
        }
      }
    }
  }

  /** Skips a value and returns its JSON text (for small values parsed whole). */
  valueText(): string {
    this.peek();
    const from = this.p;
    this.skipValue();
    return this.buf.toString("utf8", from, this.p);
  }

  /** `,` (true) or the closer `close` (false) after a member. */
  more(close: number): boolean {
    const c = this.peek();
    this.p++;
    if (c === COMMA) return true;
    if (c === close) return false;
    throw FAIL;
  }
}

const MESSAGE_KEYS = ["role", "content", "provider", "model", "stopReason", "errorMessage", "usage"] as const;
const BLOCK_KEYS = ["type", "text", "name"] as const;

function readBlocks(cur: Cursor, found: Found): void {
  const texts: Str[] = [];
  const names: string[] = [];
  cur.eat(OPEN_ARR);
  if (cur.peek() === CLOSE_ARR) cur.p++;
  else
    do {
      if (cur.peek() !== OPEN_OBJ) {
        cur.skipValue(); // not a block object: textOfContent and toolCallNames ignore it
        continue;
      }
      cur.p++;
      let type: string | undefined;
      let text: Str | undefined;
      let name: string | undefined;
      if (cur.peek() === CLOSE_OBJ) cur.p++;
      else
        do {
          switch (cur.key(BLOCK_KEYS)) {
            case "type":
              type = cur.shortString();
              break;
            case "text":
              text = cur.string(TEXT_PREFIX_BYTES);
              break;
            case "name":
              name = cur.shortString();
              break;
            default:
              cur.skipValue();
          }
        } while (cur.more(CLOSE_OBJ));
      if (type === "text" && text) texts.push(text);
      else if (type === "toolCall" && name !== undefined) names.push(name);
    } while (cur.more(CLOSE_ARR));
  found.texts = texts;
  found.names = names;
}

function readMessage(cur: Cursor): Found {
  const found: Found = { texts: [], names: [] };
  cur.eat(OPEN_OBJ);
  if (cur.peek() === CLOSE_OBJ) {
    cur.p++;
    return found;
  }
  do {
    switch (cur.key(MESSAGE_KEYS)) {
      case "role":
        found.role = cur.shortString();
        break;
      case "content": {
        const c = cur.peek();
        if (c === OPEN_ARR) readBlocks(cur, found);
        else if (c === QUOTE) {
          const s = cur.string(TEXT_PREFIX_BYTES) as Str;
          found.texts = [s];
          found.names = [];
        } else {
          cur.skipValue();
          found.texts = [];
          found.names = [];
        }
        break;
      }
      case "provider":
        found.provider = cur.shortString();
        break;
      case "model":
        found.model = cur.shortString();
        break;
      case "stopReason":
        found.stopReason = cur.shortString();
        break;
      case "errorMessage":
        found.errorMessage = cur.string(TEXT_PREFIX_BYTES);
        break;
      case "usage":
        // A few numbers: parsing the slice is simpler than walking it, and as cheap.
        found.usage = JSON.parse(cur.valueText()) as unknown;
        break;
      default:
        cur.skipValue();
    }
  } while (cur.more(CLOSE_OBJ));
  return found;
}

function hasNonSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return true;
  return false;
}

/**
 * The preview of text known up to a prefix: exact when complete, else proven only when the prefix already
 * yields more than PREVIEW_MAX collapsed characters.
 */
function previewOf(s: Str): string | undefined {
  if (s.complete) return normalizePreview(s.value);
  const collapsed = collapseWhitespace(s.value, PREVIEW_MAX + 1);
  return collapsed.length > PREVIEW_MAX ? collapsed.slice(0, PREVIEW_MAX) : undefined;
}

/**
 * Envelope and meta of an assistant message line, as envelopeOf / metaOf of the parsed line would give them,
 * once its head is read (byte-head.ts): `at` is the `{` of the message object, which must be the line's last
 * value. Undefined when the message is not in the shape it expects or its text does not prove the preview.
 */
export function skimAssistantMessage(
  buf: Buffer,
  at: number,
  end: number,
  id: string,
  parentId: string | null,
  timestamp: string,
): { env: EntryEnvelope; meta: EntryMeta | undefined } | undefined {
  const cur = new Cursor(buf, at, end);
  let found: Found;
  try {
    found = readMessage(cur);
    cur.eat(CLOSE_OBJ);
    // Nothing may follow the message (a later duplicate key would override what the head said).
    for (let p = cur.p; p < end; p++) {
      const c = buf[p];
      if (c !== 32 && c !== 9 && c !== 13) return undefined;
    }
  } catch (e) {
    if (e === FAIL || e instanceof SyntaxError) return undefined;
    throw e;
  }
  if (found.role !== "assistant") return undefined;
  const env: EntryEnvelope = { id, parentId, type: "message", timestamp, preview: "" };
  env.role = "assistant";

  // textOfContent joins the text blocks with "\n"; only a prefix is known from the first cut block on.
  let joined = "";
  let complete = true;
  for (let i = 0; i < found.texts.length; i++) {
    joined += (i > 0 ? "\n" : "") + found.texts[i].value;
    if (!found.texts[i].complete) {
      complete = false;
      break;
    }
  }
  const hasText = hasNonSpace(joined);
  if (!hasText && !complete) return undefined; // cannot tell whether the text is blank
  let preview: string | undefined;
  if (hasText) preview = previewOf({ value: joined, complete });
  else if (found.names.length > 0) preview = normalizePreview(found.names.join(", "));
  else if (found.errorMessage) preview = previewOf(found.errorMessage);
  else preview = "";
  if (preview === undefined) return undefined;
  env.preview = detach(preview); // not a view of the decoded text
  if (found.names.length > 0) {
    env.toolName = intern(found.names.join(", "));
    env.toolCallsOnly = !hasText;
  }
  if (found.stopReason === "error" || found.stopReason === "aborted") env.failed = true;
  const meta: EntryMeta = {};
  if (found.provider !== undefined && found.model !== undefined)
    meta.model = { provider: intern(found.provider), modelId: intern(found.model) };
  const usage = usageFrom(found.usage);
  if (usage) meta.usage = usage;
  return { env, meta: meta.model || meta.usage ? meta : undefined };
}
