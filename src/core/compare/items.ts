/**
 * What the compare view shows of an entry: its items (an assistant reply is its text plus one item per tool call),
 * each with its whole text for comparing and a shortened copy for display.
 */
import { contentText, type ImageContent, type TextContent } from "../messages.js";
import { splitAttachments } from "../mentions/user-content.js";
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

function record(v: unknown): Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function text(v: unknown): string {
  if (typeof v === "string") return v;
  return Array.isArray(v) ? contentText(v as { type: string; text?: string }[]) : "";
}

function make(
  entryId: string,
  kind: CompareItemKind,
  full: string,
  max: number,
  extra: { title?: string; isError?: boolean } = {},
): FullItem {
  const item: CompareItem = { entryId, kind, text: full.length > max ? full.slice(0, max) : full };
  if (full.length > max) item.omitted = full.length - max;
  if (extra.title !== undefined && extra.title !== "") item.title = extra.title;
  if (extra.isError === true) item.isError = true;
  return { item, full };
}

/**
 * A user message: the typed text with its attachments named, not their text (src/core/mentions), and its
 * images. Malformed content reads as its text blocks.
 */
function userItem(id: string, content: unknown): FullItem {
  if (!Array.isArray(content)) return make(id, "user", text(content), MAX_TEXT_CHARS);
  const blocks = content.map(record);
  const valid = blocks.flatMap((b): (TextContent | ImageContent)[] =>
    b.type === "text" && typeof b.text === "string"
      ? [{ type: "text", text: b.text }]
      : b.type === "image" && typeof b.data === "string" && typeof b.mimeType === "string"
        ? [{ type: "image", data: b.data, mimeType: b.mimeType }]
        : [],
  );
  const { text: typed, attachments } = splitAttachments(valid);
  const named = attachments
    .filter((a) => a.kind !== "image")
    .map((a) => `[${a.kind === "selection" ? `lines ${a.lines ?? ""} of` : a.kind} ${a.name}]`);
  const full = [typed, ...named].filter((s) => s !== "").join("\n");
  const out = make(id, "user", full, MAX_TEXT_CHARS);
  const images = valid.flatMap((b) => (b.type === "image" ? [{ mimeType: b.mimeType, data: b.data }] : []));
  if (images.length > 0) out.item.images = images;
  return out;
}

function argsText(args: unknown): string {
  try {
    return JSON.stringify(args ?? {}, null, 2) ?? "";
  } catch {
    return String(args);
  }
}

/** The items of one entry (none for bookkeeping entries). Tolerates malformed entries from foreign files. */
export function itemsOfEntry(entry: SessionEntry): FullItem[] {
  const id = entry.id;
  const e = entry as unknown as Record<string, unknown>;
  switch (entry.type) {
    case "message": {
      const m = record(e.message);
      switch (m.role) {
        case "user":
          return [userItem(id, m.content)];
        case "assistant": {
          const blocks = Array.isArray(m.content) ? m.content.map(record) : [];
          const calls = blocks.filter((b) => b.type === "toolCall");
          let body = text(blocks);
          const failed = m.stopReason === "error" || m.stopReason === "aborted";
          if (m.stopReason === "error")
            body += `${body ? "\n\n" : ""}[error: ${typeof m.errorMessage === "string" ? m.errorMessage : "unknown"}]`;
          if (m.stopReason === "aborted") body += `${body ? "\n\n" : ""}[aborted]`;
          const out: FullItem[] = [];
          // A reply of tool calls only is shown by its calls; an empty reply still shows as one.
          if (body !== "" || calls.length === 0)
            out.push(make(id, "assistant", body, MAX_TEXT_CHARS, { isError: failed }));
          for (const c of calls)
            out.push(make(id, "toolCall", argsText(c.arguments), MAX_TOOL_TEXT_CHARS, { title: String(c.name ?? "") }));
          return out;
        }
        case "toolResult":
          return [
            make(id, "toolResult", text(m.content), MAX_TOOL_TEXT_CHARS, {
              title: typeof m.toolName === "string" ? m.toolName : "",
              isError: m.isError === true,
            }),
          ];
        case "bashExecution":
          return [
            make(id, "bash", typeof m.output === "string" ? m.output : "", MAX_TOOL_TEXT_CHARS, {
              title: `$ ${typeof m.command === "string" ? m.command : ""}`,
              isError: typeof m.exitCode === "number" && m.exitCode !== 0,
            }),
          ];
        case "custom":
          return [make(id, "custom", text(m.content), MAX_TEXT_CHARS, { title: String(m.customType ?? "") })];
        case "branchSummary":
          return [make(id, "branchSummary", String(m.summary ?? ""), MAX_TEXT_CHARS)];
        case "compactionSummary":
          return [make(id, "compaction", String(m.summary ?? ""), MAX_TEXT_CHARS)];
        default:
          return [];
      }
    }
    case "custom_message":
      return [make(id, "custom", text(entry.content), MAX_TEXT_CHARS, { title: entry.customType })];
    case "branch_summary":
      return [make(id, "branchSummary", String(entry.summary ?? ""), MAX_TEXT_CHARS)];
    case "compaction":
      return [
        make(id, "compaction", String(entry.summary ?? ""), MAX_TEXT_CHARS, {
          title: typeof entry.tokensBefore === "number" ? `${entry.tokensBefore} tokens before` : "",
        }),
      ];
    case "model_change":
      return [make(id, "model", `${entry.provider}/${entry.modelId}`, MAX_TEXT_CHARS)];
    default:
      return [];
  }
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
