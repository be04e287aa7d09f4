/**
 * The text of an entry that the session search matches: everything the chat shows of it, not only the tree's
 * 200-character preview — a message's text, an assistant's thinking and tool calls (name and argument
 * values), a tool's or a shell command's output, a summary. Parts are joined by newlines, so a word (which
 * has no whitespace) never spans two of them.
 */
import { envelopeOf, textOfContent } from "../session/preview.js";
import type { SessionEntry, UnknownEntry } from "../session/types.js";
import { isConversationKind, kindOf, type EntryKind } from "../session/entry-kinds.js";

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

function assistantText(content: unknown, errorMessage: unknown): string {
  const parts: string[] = [];
  if (Array.isArray(content)) {
    for (const block of content as unknown[]) {
      if (!isRecord(block)) continue;
      if (block.type === "text" && typeof block.text === "string") parts.push(block.text);
      else if (block.type === "thinking" && typeof block.thinking === "string") parts.push(block.thinking);
      else if (block.type === "toolCall") {
        if (typeof block.name === "string") parts.push(block.name);
        argumentValues(block.arguments, parts);
      }
    }
  }
  if (typeof errorMessage === "string") parts.push(errorMessage);
  return parts.join("\n");
}

function messageText(m: Record<string, unknown>): string {
  switch (m.role) {
    case "assistant":
      return assistantText(m.content, m.errorMessage);
    case "bashExecution":
      return [typeof m.command === "string" ? `$ ${m.command}` : "", typeof m.output === "string" ? m.output : ""].join(
        "\n",
      );
    case "branchSummary":
    case "compactionSummary":
      return typeof m.summary === "string" ? m.summary : "";
    default:
      return textOfContent(m.content);
  }
}

/**
 * The searchable fields of an entry, or undefined for the bookkeeping kinds the tree's default filter hides
 * (labels, leaf markers, model and thinking changes, session names): a search lists conversation, and a
 * label is matched as part of the entry it names.
 */
export function entrySearchFields(entry: SessionEntry | UnknownEntry): EntrySearchFields | undefined {
  const env = envelopeOf(entry);
  const kind = kindOf(env.type, env.role);
  if (!isConversationKind(kind)) return undefined;
  const e = entry as Record<string, unknown>;
  let text: string;
  if (e.type === "message") text = isRecord(e.message) ? messageText(e.message) : "";
  else if (e.type === "compaction" || e.type === "branch_summary")
    text = typeof e.summary === "string" ? e.summary : "";
  else if (e.type === "custom_message") text = textOfContent(e.content);
  // An unknown entry shows its type, as in the tree.
  else text = String(e.type);
  return { kind, text, toolNames: env.toolName ?? "" };
}
