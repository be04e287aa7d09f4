/**
 * The text of an entry that the session search matches: everything its view says (src/core/entries/entry-view.ts),
 * not only the tree's 200-character preview — a message's text, an assistant's thinking and tool calls (name and
 * argument values) and how it failed, a tool's or a shell command's output, a summary. Parts are joined by
 * newlines, so a word (which has no whitespace) never spans two of them.
 */
import { entryView, type EntryView } from "../entries/entry-view.js";
import type { SessionEntry, UnknownEntry } from "../session/types.js";
import { isConversationKind, type EntryKind } from "../session/entry-kinds.js";

/** What a word of a query may match in one entry (its label comes from the session). */
export interface EntrySearchFields {
  kind: EntryKind;
  /** The entry's text (see the file comment). */
  text: string;
  /** Tool name (tool result) or tool call names (assistant), comma separated; "" for none. */
  toolNames: string;
}

/** Arguments nest little; a bound keeps a hostile file from recursing deep. */
const MAX_ARGUMENT_DEPTH = 16;

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** String, number and boolean values inside a tool call's arguments, in order. */
function argumentValues(v: unknown, out: string[], depth = 0): void {
  if (typeof v === "string") out.push(v);
  else if (typeof v === "number" || typeof v === "boolean") out.push(String(v));
  else if (depth < MAX_ARGUMENT_DEPTH && Array.isArray(v)) for (const x of v) argumentValues(x, out, depth + 1);
  else if (depth < MAX_ARGUMENT_DEPTH && isRecord(v))
    for (const x of Object.values(v)) argumentValues(x, out, depth + 1);
}

/** The searchable text of a view (see the file comment). */
export function searchText(v: EntryView): string {
  const parts = [v.text];
  if (v.thinking !== undefined) parts.push(v.thinking);
  for (const c of v.toolCalls ?? []) {
    parts.push(c.name);
    argumentValues(c.args, parts);
  }
  if (v.failure !== undefined) parts.push(v.failure);
  return parts.join("\n");
}

/** The tool names a search matches an entry by: a result's tool, a reply's calls (comma separated). */
function toolNamesOf(v: EntryView): string {
  return v.toolCalls
    ? v.toolCalls
        .map((c) => c.name)
        .filter((n) => n !== "")
        .join(", ")
    : (v.toolName ?? "");
}

/**
 * The searchable fields of an entry, or undefined for the bookkeeping kinds the tree's default filter hides
 * (labels, leaf markers, model and thinking changes, session names): a search lists conversation, and a
 * label is matched as part of the entry it names.
 */
export function entrySearchFields(entry: SessionEntry | UnknownEntry): EntrySearchFields | undefined {
  const v = entryView(entry);
  if (!isConversationKind(v.kind)) return undefined;
  // An unknown entry is found by its type, as the tree finds its row.
  const text = v.kind === "unknown" ? String((entry as Record<string, unknown>).type) : searchText(v);
  return { kind: v.kind, text, toolNames: toolNamesOf(v) };
}
