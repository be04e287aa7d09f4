/**
 * One session entry as a block of the path view: its view (src/core/entries/entry-view.ts) laid out — the title,
 * facts and label as a heading, then the text (prose as markdown, program output in a folded block), the thinking,
 * the tool calls, how a reply failed. What each part says is the entry view's; this file only places it. The
 * embedded JSON comes from a session file and may hold anything: the entry view checks every field.
 */
import { asRecord, collapsible, h, str } from "./dom.js";
import { renderMarkdown } from "../ui/markdown.js";
import { attachmentLabelOf, attachmentPhrase } from "../../src/core/mentions/user-content.js";
import {
  entryView,
  isHiddenHookMessage,
  type EntryView,
  type ImageView,
  type ToolCallView,
} from "../../src/core/entries/entry-view.js";
import { isConversationKind } from "../../src/core/session/entry-kinds.js";
import { languageOfPath, type LazyHighlighter } from "./highlight.js";
import { zoomable } from "./image-zoom.js";
import { diffBlock, diffCounts, editDiffOf } from "./edit-diff.js";

/** What the page knows beyond the entry: the highlighter, and the arguments of any tool call by its id. */
export interface RenderContext {
  highlighter?: LazyHighlighter;
  /** The arguments of the tool call with this id (a result shows a file read in the file's language). */
  callArgs?: (toolCallId: string) => unknown;
}

/** The tools whose file contents are shown in the file's language. */
const FILE_TOOLS = new Set(["read", "write", "edit"]);

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

function time(entry: Record<string, unknown>): string {
  const ms = Date.parse(str(entry.timestamp));
  return Number.isNaN(ms) ? "" : new Date(ms).toLocaleString();
}

/** The heading: the title, its facts (and `more`), the time, the label. */
function head(v: EntryView, entry: Record<string, unknown>, label: string | undefined, more: string[]): HTMLElement {
  const el = h("div", "head", h("span", "role", v.title));
  for (const x of [...more, ...v.facts, v.note ?? ""]) if (x) el.appendChild(h("span", undefined, x));
  const t = time(entry);
  if (t) el.appendChild(h("span", "time", t));
  if (label) el.appendChild(h("span", "label", label));
  return el;
}

function md(text: string, ctx: RenderContext): HTMLElement {
  const div = h("div", "md");
  div.appendChild(renderMarkdown(text));
  ctx.highlighter?.markFences(div);
  return div;
}

/** `<pre class="out"><code>` of `text`, highlighted as `lang` once shown. */
function code(text: string, lang: string | undefined, ctx: RenderContext): HTMLElement {
  const c = h("code", undefined, text);
  ctx.highlighter?.mark(c, lang);
  return h("pre", "out", c);
}

/** The language of the file a read/write/edit call names. */
function fileLanguage(tool: string, args: unknown): string | undefined {
  const path = asRecord(args)?.path;
  return FILE_TOOLS.has(tool) && typeof path === "string" ? languageOfPath(path) : undefined;
}

function image(img: ImageView): HTMLElement {
  if (!IMAGE_TYPES.has(img.mimeType) || !BASE64.test(img.data))
    return h("div", "note", `[image of type ${img.mimeType || "unknown"}]`);
  const el = h("img", "attached");
  el.alt = "attached image";
  el.src = `data:${img.mimeType};base64,${img.data.replace(/\s/g, "")}`;
  return zoomable(el);
}

/** A text block: an attachment (src/core/mentions) folded under its name, as plain text; else markdown. */
function textBlock(text: string, ctx: RenderContext): HTMLElement {
  const a = attachmentLabelOf(text);
  if (!a) return md(text, ctx);
  // The block without its opening and closing lines.
  const body = text.slice(text.indexOf("\n") + 1, text.lastIndexOf("\n"));
  return collapsible(attachmentPhrase(a), h("pre", "plain", body), "attachment");
}

/**
 * A message someone wrote with attachments or images: its blocks in order, each attachment folded with its text (the
 * view names attachments; the page also shows what they held), images inline.
 */
function blocks(content: unknown, v: EntryView, ctx: RenderContext): HTMLElement {
  const box = h("div");
  let next = 0;
  for (const raw of Array.isArray(content) ? content : []) {
    const b = asRecord(raw);
    if (b?.type === "text") box.appendChild(textBlock(str(b.text), ctx));
    else if (b?.type === "image" && v.images && next < v.images.length) box.appendChild(image(v.images[next++]));
  }
  return box;
}

/** "(N lines)" for output, so a folded block still tells how big it is. */
function outputSize(text: string): string {
  if (text === "") return "(no output)";
  const lines = text.split("\n").length;
  return lines === 1 ? `(${text.length} chars)` : `(${lines} lines)`;
}

/**
 * Program output: folded under what it is about, marked ✓ or ✗, its images inline; a file read in its language; an
 * edit as its recorded diff (edit-diff.ts).
 */
function output(v: EntryView, message: Record<string, unknown>, ctx: RenderContext): HTMLElement {
  const toolCallId = str(message.toolCallId);
  const diff = v.kind === "toolResult" && v.isError !== true ? editDiffOf(v.toolName, message.details) : undefined;
  if (diff !== undefined)
    return collapsible(`✓ ${v.subject ?? v.title} diff (${diffCounts(diff)})`, diffBlock(diff), "output");
  const lang =
    v.kind === "toolResult" && v.isError !== true && v.toolName !== undefined && toolCallId !== ""
      ? fileLanguage(v.toolName, ctx.callArgs?.(toolCallId))
      : undefined;
  const box = h("div", undefined, code(v.text, lang, ctx));
  for (const img of v.images ?? []) box.appendChild(image(img));
  const what = `${v.isError === true ? "✗" : "✓"} ${v.subject ?? v.title} output ${outputSize(v.text)}`;
  return collapsible(what, box, v.isError === true ? "output is-error" : "output");
}

/**
 * A tool call's arguments: as JSON, except the file contents of write (`content`) and edit (`oldText`, `newText`),
 * shown as text in the file's language below the other arguments.
 */
function callBody(c: ToolCallView, ctx: RenderContext): HTMLElement {
  const lang = fileLanguage(c.name, c.args);
  const args = asRecord(c.args);
  const texts = (c.name === "write" ? ["content"] : c.name === "edit" ? ["oldText", "newText"] : []).filter(
    (k) => typeof args?.[k] === "string",
  );
  if (!args || texts.length === 0) return code(c.argsText, "json", ctx);
  const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !texts.includes(k)));
  const box = h("div", undefined, code(JSON.stringify(rest, null, 2), "json", ctx));
  for (const k of texts) box.append(h("div", "arg-name", k), code(str(args[k]), lang, ctx));
  return box;
}

/** What a conversation entry shows under its heading. */
function body(el: HTMLElement, v: EntryView, message: Record<string, unknown>, ctx: RenderContext): void {
  if (v.thinking !== undefined) el.appendChild(collapsible("thinking", h("div", undefined, v.thinking), "thinking"));
  if (!v.prose) el.appendChild(output(v, message, ctx));
  else if (v.attachments !== undefined || v.images !== undefined) el.appendChild(blocks(message.content, v, ctx));
  else if (v.text !== "") el.appendChild(md(v.text, ctx));
  for (const c of v.toolCalls ?? []) el.appendChild(collapsible(`→ ${c.summary}`, callBody(c, ctx), "tool-call"));
  if (v.failure !== undefined) el.appendChild(h("div", "error-text", v.failure));
}

/** The block for one entry. `label` is the resolved label of the entry, if any. */
export function renderEntry(raw: unknown, label?: string, ctx: RenderContext = {}): HTMLElement {
  const entry = asRecord(raw) ?? {};
  const v = entryView(raw);
  const cls = `msg kind-${v.kind}${v.isError === true ? " error" : ""}${isHiddenHookMessage(raw) ? " hidden-msg" : ""}`;
  if (v.kind === "unknown") {
    const el = h("div", `${cls} note`, head(v, entry, label, []));
    el.appendChild(collapsible("JSON", h("pre", "out", v.text)));
    return el;
  }
  if (!isConversationKind(v.kind)) {
    // Bookkeeping: one line, its text beside the title; a longer text (another extension's data) folded below.
    const [first, ...rest] = v.text.split("\n");
    const el = h("div", `${cls} note`, head(v, entry, label, [first]));
    if (rest.length > 0) el.appendChild(collapsible("details", h("pre", "out", v.text)));
    return el;
  }
  const el = h("div", cls, head(v, entry, label, []));
  body(el, v, asRecord(entry.message) ?? entry, ctx);
  return el;
}
