/**
 * Finds where a query's anchor (search-query.ts: lower-case ASCII) starts in a chunk of raw bytes, ASCII
 * case-insensitively. Matches are candidates: the caller decodes the line and checks it, so a matcher may
 * report more than the anchor (never less).
 *
 * - **Rare pair** (anchors holding one of the rarest letters, v j x q z): that letter and the next are looked
 *   for as two bytes with `Buffer.indexOf`, once per case combination; its native loop stops only at the
 *   first letter (memchr), so a rare letter costs little more than reading the bytes, and each pair found is
 *   compared with the whole anchor. A file where the pair is common after all (more than one per 256 bytes)
 *   goes on with:
 * - **Regular expression** (every other anchor): the chunk decoded as latin1 (one character per byte, so
 *   offsets are byte offsets) and searched with one case-insensitive native regular expression. Without the
 *   `u` flag a non-ASCII character never matches an ASCII one, so UTF-8 bytes make no false matches.
 *   (A pair whose first letter is common makes the native loop stop too often: measured slower than this.)
 *
 * Without an anchor every line is a candidate: the matcher reports the first byte of each non-empty line.
 */

/** See the file comment. One instance per file scan. */
export interface ChunkMatcher {
  /** A new chunk (the view holds exactly its bytes). */
  reset(chunk: Buffer): void;
  /** Start of the first match at or after `from` in the chunk, or -1. Calls have non-decreasing `from`. */
  next(from: number): number;
}

/** Letters rare in English text, rarest last. */
const RARE_LETTERS = "vjxqz";
/** More than one pair per this many bytes: switch to the regular expression. */
const BYTES_PER_PAIR = 256;
const NEWLINE = 10;

/** Rank of a character: 0 unless it is a rare letter (higher = rarer). */
function rarity(c: string): number {
  return RARE_LETTERS.indexOf(c) + 1;
}

/** The two-byte strings that equal `pair` ignoring ASCII case. */
function caseVariants(pair: string): Buffer[] {
  let out = [""];
  for (const c of pair) {
    const up = c.toUpperCase();
    out = out.flatMap((p) => (up === c ? [p + c] : [p + c, p + up]));
  }
  return out.map((v) => Buffer.from(v, "latin1"));
}

class RegexMatcher implements ChunkMatcher {
  private readonly pattern: RegExp;
  private text = "";

  constructor(anchor: string) {
    this.pattern = new RegExp(anchor.replace(/[\\^$.*+?()[\]{}|-]/g, "\\$&"), "gi");
  }

  reset(chunk: Buffer): void {
    this.text = chunk.toString("latin1");
  }

  next(from: number): number {
    this.pattern.lastIndex = from;
    return this.pattern.exec(this.text)?.index ?? -1;
  }
}

class RarePairMatcher implements ChunkMatcher {
  private readonly word: Buffer;
  private readonly variants: Buffer[];
  private readonly fallback: RegexMatcher;
  private chunk: Buffer = Buffer.alloc(0);
  /** Next occurrence of each variant at or after the last position asked for (-1: none left, -2: not looked). */
  private readonly cursors: number[];
  private compared = 0;
  private useRegex = false;

  /** `pivot`: where in the anchor the pair starts. */
  constructor(
    anchor: string,
    private readonly pivot: number,
  ) {
    this.word = Buffer.from(anchor, "latin1");
    this.variants = caseVariants(anchor.slice(pivot, pivot + 2));
    this.cursors = this.variants.map(() => -2);
    this.fallback = new RegexMatcher(anchor);
  }

  reset(chunk: Buffer): void {
    this.chunk = chunk;
    this.compared = 0;
    if (this.useRegex) this.fallback.reset(chunk);
    else this.cursors.fill(-2);
  }

  next(from: number): number {
    if (this.useRegex) return this.fallback.next(from);
    const { chunk, word, pivot, cursors, variants } = this;
    for (;;) {
      let best = -1;
      let which = -1;
      for (let v = 0; v < variants.length; v++) {
        let at = cursors[v];
        if (at !== -1 && at < from + pivot) at = cursors[v] = chunk.indexOf(variants[v], from + pivot);
        if (at >= 0 && (best < 0 || at < best)) {
          best = at;
          which = v;
        }
      }
      if (best < 0) return -1;
      if (++this.compared > chunk.length / BYTES_PER_PAIR) {
        // The pair is common in this file: the regular expression is cheaper from here on.
        this.useRegex = true;
        this.fallback.reset(chunk);
        return this.fallback.next(from);
      }
      const start = best - pivot;
      if (start + word.length <= chunk.length && sameIgnoringAsciiCase(chunk, start, word)) return start;
      cursors[which] = chunk.indexOf(variants[which], best + 1);
    }
  }
}

/** Whether chunk[start, start + word.length) equals `word` (lower-case ASCII) ignoring ASCII case. */
function sameIgnoringAsciiCase(chunk: Buffer, start: number, word: Buffer): boolean {
  for (let k = 0; k < word.length; k++) {
    const b = chunk[start + k];
    const w = word[k];
    // Letters differ from their upper case by 0x20 only; other bytes must be equal.
    if (b !== w && !(w >= 0x61 && w <= 0x7a && b === w - 0x20)) return false;
  }
  return true;
}

class EveryLineMatcher implements ChunkMatcher {
  private chunk: Buffer = Buffer.alloc(0);

  reset(chunk: Buffer): void {
    this.chunk = chunk;
  }

  next(from: number): number {
    for (let i = from; i < this.chunk.length; i++) if (this.chunk[i] !== NEWLINE) return i;
    return -1;
  }
}

/** A matcher for `anchor` (lower-case ASCII), or for every line when there is none. */
export function chunkMatcher(anchor: string | undefined): ChunkMatcher {
  if (anchor === undefined) return new EveryLineMatcher();
  let pivot = -1;
  for (let i = 0; i + 1 < anchor.length; i++)
    if (rarity(anchor[i]) > (pivot < 0 ? 0 : rarity(anchor[pivot]))) pivot = i;
  return pivot < 0 ? new RegexMatcher(anchor) : new RarePairMatcher(anchor, pivot);
}
