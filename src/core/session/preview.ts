/**
 * The envelope and preview of a whole entry: the rules, in one place. The store reads them from a line's
 * bytes with the entry scanner (entry-scanner.ts, preview-bytes.ts), which must give what these functions
 * give for the parsed line, and falls back to them for the lines it leaves to JSON.parse.
 */
import { bookkeepingText } from "../entries/bookkeeping-text.js";
import type { EntryEnvelope, SessionEntry, UnknownEntry } from "./types.js";

/** Longest preview, in UTF-16 code units. */
export const PREVIEW_MAX = 200;

/** True for the characters JavaScript's `\s` matches (and String.prototype.trim removes). */
export function isSpace(c: number): boolean {
  if (c <= 32) return c === 32 || (c >= 9 && c <= 13);
  if (c < 0xa0) return false;
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * The whitespace collapsing replaces: runs of two or more, and single whitespace characters other than a space
 * (replacing those gives what replacing every run of `\s+` gives, but a single space — most of them — is left
 * alone instead of being copied over by the same space, a third of the time the previews took).
 */
const WHITESPACE_RUNS = /\s\s+|[^\S ]/g;
/**
 * What collapsing changes inside a text: whitespace other than a space, or two spaces in a row. (The class lists
 * what `\s` matches besides the space: one class and one alternative is about a quarter faster than `[^\S ]| {2}`,
 * whose negated class is tried at every character, measured on the previews of a 10k-entry session.)
 */
const UNEVEN_SPACE = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

/**
 * The first `limit` characters of `text` with whitespace runs collapsed to one space and leading/trailing
 * whitespace dropped — `text.replace(/\s+/g, " ").trim().slice(0, limit)` without touching more of a long
 * text than the preview needs. (Native string operations: a hand-written loop was a tenth of filling a large
 * session's previews while it was still running unoptimised.)
 */
export function collapseWhitespace(text: string, limit: number): string {
  // Collapsing a prefix gives a prefix of the collapsed text; it is enough once it holds more than `limit`.
  // Whitespace runs are short in most texts, so a prefix a little longer than `limit` nearly always is (the
  // regular expressions then read a fraction of a 1 KB tool output); a text of long runs tries longer ones.
  let cut = limit + 32;
  if (text.length <= cut)
    return (UNEVEN_SPACE.test(text) ? text.replace(WHITESPACE_RUNS, " ") : text).trim().slice(0, limit);
  const head = text.slice(0, cut);
  // Often there is nothing to collapse: testing for it allocates nothing, replacing builds a copy.
  if (!UNEVEN_SPACE.test(head)) {
    // `head` is a part of the longer text: the preview is made a string of its own (see detached()).
    const kept = head.trimStart();
    if (kept.length > limit) return detached(kept.slice(0, limit));
  } else {
    // The head collapsed is a string of its own already, short enough to keep a part of.
    const collapsed = head.replace(WHITESPACE_RUNS, " ").trimStart();
    if (collapsed.length > limit) return collapsed.slice(0, limit);
  }
  for (cut *= 4; cut < text.length; cut *= 4) {
    const collapsed = text.slice(0, cut).replace(WHITESPACE_RUNS, " ").trimStart();
    if (collapsed.length > limit)
      return collapsed.length > 2 * limit ? detached(collapsed.slice(0, limit)) : collapsed.slice(0, limit);
  }
  const all = text.replace(WHITESPACE_RUNS, " ").trim();
  return all.length > 2 * limit ? detached(all.slice(0, limit)) : all.slice(0, limit);
}

/**
 * `cut` (a part of a longer string) as a string of its own. V8 makes a part of 13 or more characters a view
 * into the string it was cut from, which keeps that string alive: a preview kept for every entry would hold
 * every long text of the session in memory, and every young-generation collection would copy them. Joining
 * makes a rope, which slice() flattens into a new string of the preview's length.
 */
function detached(cut: string): string {
  return (" " + cut).slice(1);
}

/** Collapse whitespace to single spaces, trim, and cut to PREVIEW_MAX. */
export function normalizePreview(text: string): string {
  return collapseWhitespace(text, PREVIEW_MAX);
}

/*
 * The functions below run for every entry of a small session while it opens (entry-line.ts), most of them before
 * the engine has optimised them, where each call, iterator and temporary object costs: a 10k-entry session's
 * envelopes took ~45 ms of CPU in a fresh process, as much as half of JSON.parse of its lines. Hence indexed
 * loops (a for-of over an array runs the iterator protocol in the interpreter), tool names joined as they are
 * found (no array to join), one walk over a content, and no result object for the walk (the last tool names
 * are left in `lastNames`).
 */

/** Text blocks of a message content joined by newlines (strings pass through). */
export function textOfContent(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return contentText(content as unknown[], false);
}

/** The tool-call names the last contentText(…, true) found (comma separated), else undefined. */
let lastNames: string | undefined;

/**
 * The text blocks of `content` joined by "\n"; with `toolNames`, the names of its tool calls are left in
 * lastNames. Most contents hold one text block: it is returned as it is, without an array to join.
 */
function contentText(content: unknown[], toolNames: boolean): string {
  let first: string | undefined;
  let parts: string[] | undefined;
  let names: string | undefined;
  for (let i = 0; i < content.length; i++) {
    const block = content[i];
    if (typeof block !== "object" || block === null || Array.isArray(block)) continue;
    const b = block as Record<string, unknown>;
    const type = b.type;
    if (type === "text") {
      const t = b.text;
      if (typeof t !== "string") continue;
      if (first === undefined) first = t;
      else (parts ??= [first]).push(t);
    } else if (toolNames && type === "toolCall") {
      const name = b.name;
      if (typeof name === "string") names = names === undefined ? name : names + ", " + name;
    }
  }
  lastNames = names;
  return parts ? parts.join("\n") : (first ?? "");
}

/** True when `text` is empty or whitespace only (`text.trim() === ""` without building the trimmed copy). */
function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // Most texts start with a letter: no call for them.
    if (c > 32 && c < 0xa0) return false;
    if (!isSpace(c)) return false;
  }
  return true;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * An assistant message's text (its text blocks joined by "\n"); the names of its tool calls (comma separated) are
 * left in lastNames. One walk.
 */
function assistantContent(content: unknown): string {
  lastNames = undefined;
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return contentText(content as unknown[], true);
}

/** The raw preview text of an assistant message: its text, else the names of the tools it calls, else its error. */
function assistantText(message: Record<string, unknown>, text: string, toolName: string | undefined): string {
  if (!isBlank(text)) return text;
  if (toolName !== undefined) return toolName;
  return typeof message.errorMessage === "string" ? message.errorMessage : "";
}

/** The raw (not yet normalized) preview text of a message object. */
function messageText(message: Record<string, unknown>): string {
  switch (message.role) {
    case "assistant": {
      const text = assistantContent(message.content);
      return assistantText(message, text, lastNames);
    }
    case "bashExecution":
      return typeof message.command === "string" ? "$ " + message.command : "";
    case "branchSummary":
    case "compactionSummary":
      return typeof message.summary === "string" ? message.summary : "";
    case "system": {
      // pi 1.5 keeps most of its prompt in named sections; the content is often empty.
      const sections = isRecord(message.sections) ? Object.values(message.sections) : [];
      return [textOfContent(message.content), ...sections.filter((t): t is string => typeof t === "string")]
        .filter((t) => !isBlank(t))
        .join("\n");
    }
    default:
      return textOfContent(message.content);
  }
}

/** ≤ 200 chars of an entry's text on one line (what the tree shows). */
export function entryPreview(entry: SessionEntry | UnknownEntry): string {
  const e = entry as Record<string, unknown>;
  let raw: string;
  switch (e.type) {
    case "message":
      raw = isRecord(e.message) ? messageText(e.message) : "";
      break;
    case "compaction":
    case "branch_summary":
      raw = typeof e.summary === "string" ? e.summary : "";
      break;
    case "custom_message":
      raw = textOfContent(e.content);
      break;
    default:
      // Bookkeeping says what the entry view says of it (src/core/entries/bookkeeping-text.ts).
      raw = bookkeepingText(e) ?? String(e.type);
  }
  return normalizePreview(raw);
}

/**
 * The envelope of a whole entry (orphan is decided by the session, not here). Runs for every line a small
 * session's open parses (entry-line.ts), mostly before the engine has optimised it: a message's content is
 * walked once, and the envelope has the shape the entry scanner gives it (the same keys in the same order), so
 * the code reading envelopes sees one shape.
 */
export function envelopeOf(entry: SessionEntry | UnknownEntry): EntryEnvelope {
  const e = entry as Record<string, unknown>;
  const id = String(e.id);
  const parentId = typeof e.parentId === "string" ? e.parentId : null;
  const timestamp = typeof e.timestamp === "string" ? e.timestamp : "";
  const m = e.type === "message" ? e.message : undefined;
  if (isRecord(m)) return messageEnvelope(id, parentId, timestamp, m);
  const env: EntryEnvelope = { id, parentId, type: String(e.type), timestamp, preview: entryPreview(entry) };
  if (e.type === "compaction" && typeof e.tokensBefore === "number") env.tokens = e.tokensBefore;
  else if (e.type === "branch_summary" && typeof e.fromId === "string") env.fromId = e.fromId;
  else if (e.type === "custom_message" && e.display === false) env.hidden = true;
  return env;
}

/** The envelope of a user, assistant or tool result message, as the object literal `{ id, parentId, type, role, … }`. */
interface MessageEnvelopeConstructor {
  new (id: string, parentId: string | null, role: string, timestamp: string, preview: string): EntryEnvelope;
}

/**
 * Makes what the literal `{ id, parentId, type: "message", role, timestamp, preview }` makes — a plain object (its
 * prototype Object.prototype) with those keys in that order — without an allocation site. A literal has one, and
 * V8 decides from it, after a few young-generation collections, that its objects live long (every envelope does)
 * and allocates them as old from then on; that decision throws away the optimised code that made them — here
 * messageEnvelope and readEntryText, which a fresh process had just spent 60+ ms of a compiler thread on — and
 * compiles it again. A constructor's objects are never pretenured, so no such decision is taken (fresh processes,
 * load ~10, medians of 11: CPU time of open → tree → context 273 → 255 ms in the 10k-levels-deep session).
 */
const MessageEnvelope = function (
  this: EntryEnvelope,
  id: string,
  parentId: string | null,
  role: string,
  timestamp: string,
  preview: string,
): void {
  this.id = id;
  this.parentId = parentId;
  this.type = "message";
  this.role = role;
  this.timestamp = timestamp;
  this.preview = preview;
} as unknown as MessageEnvelopeConstructor;
MessageEnvelope.prototype = Object.prototype;

/**
 * The envelope of a message entry whose envelope fields were read already (`m`: its message object). The three
 * roles nearly every line has (user, assistant, tool result) are read here in one function with one walk over the
 * content (see the note above textOfContent); the preview of an assistant message is its text, else its tool
 * names, else its error. Other roles take their text from messageText.
 */
export function messageEnvelope(
  id: string,
  parentId: string | null,
  timestamp: string,
  m: Record<string, unknown>,
): EntryEnvelope {
  const role = m.role;
  if (role !== "user" && role !== "assistant" && role !== "toolResult") {
    const preview = normalizePreview(messageText(m));
    return typeof role === "string"
      ? { id, parentId, type: "message", role, timestamp, preview }
      : { id, parentId, type: "message", timestamp, preview };
  }
  const content = m.content;
  let text = "";
  let names: string | undefined;
  if (typeof content === "string") text = content;
  else if (Array.isArray(content)) {
    text = contentText(content as unknown[], role === "assistant");
    names = lastNames;
  }
  if (role !== "assistant") {
    const env = new MessageEnvelope(id, parentId, role, timestamp, normalizePreview(text));
    if (role === "toolResult" && typeof m.toolName === "string") env.toolName = m.toolName;
    return env;
  }
  const blank = isBlank(text);
  const raw = !blank ? text : names !== undefined ? names : typeof m.errorMessage === "string" ? m.errorMessage : "";
  const env = new MessageEnvelope(id, parentId, role, timestamp, normalizePreview(raw));
  if (names !== undefined) {
    env.toolName = names;
    env.toolCallsOnly = blank;
  }
  if (m.stopReason === "error" || m.stopReason === "aborted") env.failed = true;
  if (m.stopReason === "aborted") env.aborted = true;
  return env;
}
