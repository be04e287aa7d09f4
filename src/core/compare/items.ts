/**
 * What the compare view shows of an entry: its items, from the entry's view (src/core/entries/entry-view.ts) — an
 * assistant reply is its text plus one item per tool call — each with its whole text for comparing and a shortened
 * copy for display.
 */
import { entryView, type EntryView } from "../entries/entry-view.js";
import { attachmentPhrase } from "../mentions/user-content.js";
import { isConversationKind, type EntryKind } from "../session/entry-kinds.js";
import type { SessionEntry } from "../session/types.js";
import type { CompareItem, CompareItemKind } from "./compare-types.js";

/** Longest message or summary text sent to the view. */
export const MAX_TEXT_CHARS = 20_000;
/** Longest tool call, tool output or command output sent to the view. */
export const MAX_TOOL_TEXT_CHARS = 4_000;

/** An item and the whole text it was cut from (compared, never sent). */
export interface FullItem {
  item: CompareItem;
  full: string;
}

function make(
  entryId: string,
  kind: CompareItemKind,
  full: string,
  max: number,
  extra: { title?: string; isError?: boolean; prose?: boolean } = {},
): FullItem {
  const item: CompareItem = { entryId, kind, text: full.length > max ? full.slice(0, max) : full };
  if (full.length > max) item.omitted = full.length - max;
  if (extra.title !== undefined && extra.title !== "") item.title = extra.title;
  if (extra.isError === true) item.isError = true;
  if (extra.prose === true) item.prose = true;
  return { item, full };
}

/**
 * The kinds a comparison shows: the conversation, and model changes (a reply's difference may come from its model);
 * not bookkeeping the model is not told, nor entries this version does not know.
 */
function compared(kind: EntryKind): boolean {
  return kind === "model_change" || (isConversationKind(kind) && kind !== "unknown");
}

/** The main item's title (what items are paired by): a tool result's tool, a command, a hook's type, a compaction's tokens. */
function titleOf(v: EntryView): string | undefined {
  return v.toolName ?? v.subject;
}

/**
 * The main item's text: the view's, with a user message's attachments named (not their text) and a reply's failure
 * after its text.
 */
function textOf(v: EntryView): string {
  const named = (v.attachments ?? []).filter((a) => a.kind !== "image").map((a) => `[${attachmentPhrase(a)}]`);
  const body = [v.text, ...named].filter((s) => s !== "").join("\n");
  return v.failure === undefined ? body : `${body}${body === "" ? "" : "\n\n"}[${v.failure}]`;
}

/** The items of one entry (none for bookkeeping entries). Tolerates malformed entries from foreign files. */
export function itemsOfEntry(entry: SessionEntry): FullItem[] {
  const v = entryView(entry);
  if (!compared(v.kind)) return [];
  const id = entry.id;
  const long = v.prose ? MAX_TEXT_CHARS : MAX_TOOL_TEXT_CHARS;
  const out: FullItem[] = [];
  const text = textOf(v);
  // A reply of tool calls only is shown by its calls; an empty reply still shows as one.
  if (text !== "" || v.toolCalls === undefined) {
    const main = make(id, v.kind, text, long, { title: titleOf(v), isError: v.isError, prose: v.prose });
    if (v.images) main.item.images = v.images;
    out.push(main);
  }
  for (const c of v.toolCalls ?? []) out.push(make(id, "toolCall", c.argsText, MAX_TOOL_TEXT_CHARS, { title: c.name }));
  return out;
}

/** The key items of two turns are aligned by: what they are, and which tool. */
export function itemKey(item: CompareItem): string {
  return `${item.kind}\u0000${item.title ?? ""}`;
}

/** True when two items say the same (whole texts compared, not the shortened ones). */
export function sameItem(a: FullItem, b: FullItem): boolean {
  return (
    a.item.kind === b.item.kind &&
    a.item.title === b.item.title &&
    a.item.isError === b.item.isError &&
    a.full === b.full
  );
}
