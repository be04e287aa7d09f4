/**
 * Whether an entry matches a query's words, and the snippet of its text a result shows: the words must each
 * occur (lower-cased, as substrings) in the entry's kind words, label, tool names or text — the tree's rule,
 * over the whole text instead of its first 200 characters.
 */
import { kindSearchWords } from "../entries/kind-words.js";
import type { EntrySearchFields } from "./entry-text.js";
import type { SearchSnippet } from "./types.js";

/** Characters of text a snippet shows before the first match. */
const SNIPPET_LEAD = 60;
/** Characters of text a snippet takes (before whitespace is collapsed). */
const SNIPPET_SPAN = 220;

/** The words of `tokens` that occur in none of the entry's own fields (kind words, tool names, text). */
export function wordsMissingFromEntry(tokens: readonly string[], fields: EntrySearchFields): string[] {
  const own = `${kindSearchWords(fields.kind)}\n${fields.toolNames}\n${fields.text}`.toLowerCase();
  return tokens.filter((t) => !own.includes(t));
}

/** Whether a label supplies every word in `missing`. */
export function labelSupplies(missing: readonly string[], label: string | undefined): boolean {
  if (missing.length === 0) return true;
  if (label === undefined || label === "") return false;
  const lower = label.toLowerCase();
  return missing.every((t) => lower.includes(t));
}

/** Start of the first occurrence of any word in `lower`, or -1. */
function firstOccurrence(lower: string, tokens: readonly string[]): number {
  let first = -1;
  for (const t of tokens) {
    const at = lower.indexOf(t);
    if (at >= 0 && (first < 0 || at < first)) first = at;
  }
  return first;
}

/** Sorted, merged [start, end) ranges of every occurrence of every word in `lower`. */
function occurrences(lower: string, tokens: readonly string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const t of tokens) {
    for (let at = lower.indexOf(t); at >= 0; at = lower.indexOf(t, at + t.length)) ranges.push([at, at + t.length]);
  }
  ranges.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

/** How far a cut moves to fall between words rather than inside one (a text without spaces is cut where it is). */
const WORD_SNAP = 16;

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/** A snippet's start moved past the rest of the word (and its punctuation) it fell in, not past `limit`. */
function startAtWord(text: string, start: number, limit: number): number {
  if (start === 0 || isSpace(text[start - 1])) return start;
  for (let i = start; i < Math.min(limit, start + WORD_SNAP); i++) if (isSpace(text[i])) return i + 1;
  return start;
}

/** A snippet's end moved back to the end of the last whole word, not before `limit`. */
function endAtWord(text: string, end: number, limit: number): number {
  if (end >= text.length || isSpace(text[end])) return end;
  for (let i = end - 1; i > Math.max(limit, end - WORD_SNAP); i--) if (isSpace(text[i])) return i;
  return end;
}

/** Keeps a cut from splitting a surrogate pair. */
function safeCut(text: string, at: number): number {
  const c = text.charCodeAt(at);
  return at > 0 && c >= 0xdc00 && c <= 0xdfff ? at - 1 : at;
}

/**
 * One line of the text around the first match, whitespace collapsed, "…" where it was cut, with the ranges
 * of every word in it. Text in which lower-casing changes lengths (rare: `İ`) gets no ranges rather than
 * wrong ones.
 */
export function snippetOf(text: string, tokens: readonly string[]): SearchSnippet {
  const lower = text.toLowerCase();
  const aligned = lower.length === text.length;
  const first = aligned ? firstOccurrence(lower, tokens) : -1;
  const start = first <= SNIPPET_LEAD ? 0 : startAtWord(text, safeCut(text, first - SNIPPET_LEAD), first);
  const end = endAtWord(text, Math.min(text.length, safeCut(text, start + SNIPPET_SPAN)), Math.max(start, first) + 1);
  const body = text.slice(start, end).replace(/\s+/g, " ").trim();
  const prefix = start > 0 ? "…" : "";
  const snippet = `${prefix}${body}${end < text.length ? "…" : ""}`;
  const lowerSnippet = snippet.toLowerCase();
  if (!aligned || lowerSnippet.length !== snippet.length) return { text: snippet, ranges: [] };
  return { text: snippet, ranges: occurrences(lowerSnippet, tokens) };
}
