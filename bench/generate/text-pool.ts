/**
 * Deterministic filler text for generated sessions: prose for chat turns, code-like text (quotes, backslashes,
 * newlines, a little non-ASCII) for tool output, so JSON parsing sees the escapes real sessions contain.
 */

/** A small, fast, seedable PRNG (mulberry32): the same seed gives the same sessions on every machine. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "the session tree branch leaf parent child entry summary compaction model token file path read write edit " +
  "bash grep find function const return import export interface type string number boolean async await " +
  "promise error test build lint format config value index length array object map set filter search node"
).split(" ");

const CODE_LINES = [
  "export function parse(line: string): Entry { return JSON.parse(line) as Entry; }",
  "  if (entry.parentId === null) roots.push(entry);",
  '  const path = join(dir, `${ts.replace(/[:.]/g, "-")}_${id}.jsonl`);',
  "  // Walk from the leaf to the root — only the latest compaction counts.",
  '  throw new Error("Session file is locked by another writer: " + file);',
  "\tfor (let i = 0; i < lines.length; i++) { total += lines[i].length; }",
  'src\\core\\session\\store.ts:42:  const map = new Map<string, number>(); // "ids"',
  "  ✓ opens a 100k-entry session (1,234 ms) — ok",
];

/** Prose of about `chars` characters. */
export function prose(random: () => number, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const word = WORDS[Math.floor(random() * WORDS.length)];
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(" ").slice(0, chars);
}

/** Code-like multi-line text of about `chars` characters. */
export function codeText(random: () => number, chars: number): string {
  const parts: string[] = [];
  let length = 0;
  let lineNo = 1;
  while (length < chars) {
    const line = `${lineNo++}: ${CODE_LINES[Math.floor(random() * CODE_LINES.length)]}`;
    parts.push(line);
    length += line.length + 1;
  }
  return parts.join("\n").slice(0, chars);
}

/** Base64-looking text (thinking signatures are long opaque strings). */
export function opaque(random: () => number, chars: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let out = "";
  for (let i = 0; i < chars; i++) out += alphabet[Math.floor(random() * 64)];
  return out;
}

/** A fixed set of pre-made strings, handed out round-robin so generation does not spend its time on text. */
export class Pool {
  private next = 0;
  private readonly items: string[];

  /** Makes `count` strings with `make(i)`. */
  constructor(count: number, make: (i: number) => string) {
    this.items = Array.from({ length: count }, (_, i) => make(i));
  }

  /** The next string of the pool. */
  take(): string {
    const item = this.items[this.next];
    this.next = (this.next + 1) % this.items.length;
    return item;
  }
}
