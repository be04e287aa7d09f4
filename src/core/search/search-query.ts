/**
 * A search query: its words (as the tree's search splits them) and the anchor the byte scan looks for.
 *
 * The scan reads every byte of every session, so it must not decode JSON; it looks for one piece of one word
 * in the raw bytes (ASCII case-insensitively) and decodes only the lines that contain it. That piece must be
 * in the raw bytes of every line whose entry matches, however the writer encoded it:
 *
 * - JSON writers may escape `"`, `\`, `/`, control characters, `<` `>` `&` `'` (HTML-safe encoders) and any
 *   non-ASCII character (`é` as `\u00e9`), so the anchor holds only ASCII letters, digits and punctuation
 *   no writer escapes;
 * - lower-casing the entry's text can turn a non-ASCII character into ASCII: `K` (Kelvin sign) into `k`, `İ`
 *   into `i` followed by a combining dot. So `k` never goes into the anchor, nor an `i` that ends a word or
 *   precedes the combining dot;
 * - a word that occurs in some kind's words ("tool", "summary", "use") can match an entry whose text lacks it,
 *   so such words give no anchor;
 * - a label lives on a line of its own: the scan also checks the entries that labels naming the anchor point
 *   to (see pi-file-search.ts).
 *
 * The longest such piece of any word is the anchor (chunk-matcher.ts finds it), unless it is part of a field
 * name every line has ("parent" in "parentId"): a piece that is not is preferred, since it leaves far fewer
 * lines to decode. A query with no anchor (every word a kind word, or no ASCII in it) decodes every line:
 * correct, only slower.
 */
import { kindSearchWords } from "../entries/kind-words.js";
import { ENTRY_KINDS } from "../session/entry-kinds.js";

/**
 * Split a query into lower-case words; empty for a blank query. The tree view's search box and the search over
 * every session split alike, so the same words find the same entries in both.
 */
export function queryTokens(query: string): string[] {
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((t) => t.length > 0);
}

/** A parsed query. */
export interface SearchQuery {
  /** Lower-case words; every one must occur in an entry. */
  tokens: string[];
  /** Lower-case ASCII text the scan looks for in the raw bytes, or undefined: every line is decoded. */
  anchor: string | undefined;
}

/** ASCII characters no JSON writer escapes (letters and digits aside). */
const UNESCAPED_PUNCTUATION = new Set("_-.,:;!?@#$%*+=|~^()[]{}`");
const ALL_KIND_WORDS: readonly string[] = ENTRY_KINDS.map(kindSearchWords);

function isPlainAscii(c: string): boolean {
  return /^[a-z0-9]$/.test(c) || UNESCAPED_PUNCTUATION.has(c);
}

/** Whether position `j` of word `w` may go into an anchor (see the file comment). */
function anchorable(w: string, j: number): boolean {
  const c = w[j];
  if (!isPlainAscii(c) || c === "k") return false;
  return !(c === "i" && (j === w.length - 1 || w[j + 1] === "\u0307"));
}

/** Longest run of anchorable characters in `w`. */
function longestRun(w: string): string {
  let best = "";
  let start = -1;
  for (let j = 0; j <= w.length; j++) {
    if (j < w.length && anchorable(w, j)) {
      if (start < 0) start = j;
      continue;
    }
    if (start >= 0 && j - start > best.length) best = w.slice(start, j);
    start = -1;
  }
  return best;
}

/**
 * Field names of session lines (pi's and Claude Code's), lower-cased: an anchor inside one of them is on every
 * line, so the scan would decode everything. Only a preference: such an anchor is still correct.
 */
const LINE_KEYS: readonly string[] = [
  "type message parentid timestamp role content text toolcall arguments thinking thinkingsignature usage",
  "input output cacheread cachewrite totaltokens cost total stopreason provider model api toolcallid toolname",
  "iserror details summary fromid firstkeptentryid tokensbefore customtype data display label targetid name",
  "thinkinglevel modelid command exitcode cancelled truncated session version cwd",
  "uuid parentuuid sessionid usertype issidechain gitbranch requestid tool_use_id tool_result tool_use",
].flatMap((line) => line.split(" "));

function inLineKey(anchor: string): boolean {
  return LINE_KEYS.some((k) => k.includes(anchor));
}

/** Parse a query the way the tree's search does, and choose the scan's anchor. */
export function parseSearchQuery(text: string): SearchQuery {
  const tokens = queryTokens(text);
  let anchor = "";
  for (const t of tokens) {
    if (ALL_KIND_WORDS.some((words) => words.includes(t))) continue;
    const run = longestRun(t);
    if (run === "") continue;
    // One that is not part of a field name beats one that is; then the longest wins.
    const better =
      anchor === "" ||
      (inLineKey(anchor) && !inLineKey(run)) ||
      (inLineKey(anchor) === inLineKey(run) && run.length > anchor.length);
    if (better) anchor = run;
  }
  return { tokens, anchor: anchor === "" ? undefined : anchor };
}
