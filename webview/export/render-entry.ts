/**
 * One session entry as a block of the path view. Every field is checked before use: the embedded JSON comes
 * from a session file and may hold anything.
 */
import { asRecord, collapsible, h, str } from "./dom.js";
import { renderMarkdown } from "../ui/markdown.js";
import { attachmentLabelOf } from "../../src/core/mentions/user-content.js";

const IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp"]);
const BASE64 = /^[A-Za-z0-9+/=\s]*$/;

function time(entry: Record<string, unknown>): string {
  const ms = Date.parse(str(entry.timestamp));
  return Number.isNaN(ms) ? "" : new Date(ms).toLocaleString();
}

function head(
  role: string,
  entry: Record<string, unknown>,
  label: string | undefined,
  ...extra: string[]
): HTMLElement {
  const el = h("div", "head", h("span", "role", role));
  for (const x of extra) if (x) el.appendChild(h("span", undefined, x));
  const t = time(entry);
  if (t) el.appendChild(h("span", "time", t));
  if (label) el.appendChild(h("span", "label", label));
  return el;
}

function md(text: string): HTMLElement {
  const div = h("div", "md");
  div.appendChild(renderMarkdown(text));
  return div;
}

function image(block: Record<string, unknown>): HTMLElement {
  const mime = str(block.mimeType);
  const data = str(block.data);
  if (!IMAGE_TYPES.has(mime) || !BASE64.test(data)) return h("div", "note", `[image of type ${mime || "unknown"}]`);
  const img = h("img", "attached");
  img.alt = "attached image";
  img.src = `data:${mime};base64,${data.replace(/\s/g, "")}`;
  return img;
}

/** User-side content (string or text/image blocks) rendered as markdown and images. */
function userContent(content: unknown): HTMLElement {
  const box = h("div");
  if (typeof content === "string") {
    box.appendChild(md(content));
    return box;
  }
  if (!Array.isArray(content)) return box;
  for (const raw of content) {
    const b = asRecord(raw);
    if (!b) continue;
    if (b.type === "text") box.appendChild(textBlock(str(b.text)));
    else if (b.type === "image") box.appendChild(image(b));
  }
  return box;
}

/** A text block: an attachment (src/core/mentions) folded under its name, as plain text; else markdown. */
function textBlock(text: string): HTMLElement {
  const a = attachmentLabelOf(text);
  if (!a) return md(text);
  const what =
    a.kind === "selection"
      ? `Lines ${a.lines ?? ""} of ${a.name}`
      : `${a.kind === "folder" ? "Folder" : "File"} ${a.name}`;
  // The block without its opening and closing lines.
  const body = text.slice(text.indexOf("\n") + 1, text.lastIndexOf("\n"));
  return collapsible(what, h("pre", "plain", body), "attachment");
}

/** Tool output: text in a preformatted block (never markdown: it is program output), images inline. */
function toolOutput(content: unknown): HTMLElement {
  const box = h("div");
  if (typeof content === "string") {
    box.appendChild(h("pre", "out", content));
    return box;
  }
  if (!Array.isArray(content)) return box;
  const texts: string[] = [];
  for (const raw of content) {
    const b = asRecord(raw);
    if (!b) continue;
    if (b.type === "text") texts.push(str(b.text));
    else if (b.type === "image") box.appendChild(image(b));
  }
  if (texts.length > 0) box.insertBefore(h("pre", "out", texts.join("\n")), box.firstChild);
  if (box.childNodes.length === 0) box.appendChild(h("div", "note", "(no output)"));
  return box;
}

/** A one-line hint of what a tool call does: its command, path or pattern, else its first string argument. */
function argsHint(args: unknown): string {
  const a = asRecord(args);
  if (!a) return "";
  const pick = [a.command, a.path, a.file_path, a.pattern, a.url, a.query].find((v) => typeof v === "string");
  const first = pick ?? Object.values(a).find((v) => typeof v === "string");
  const text = typeof first === "string" ? first.replace(/\s+/g, " ").trim() : "";
  return text.length > 120 ? text.slice(0, 119) + "…" : text;
}

/** "(N lines)" for tool output, so a collapsed result still tells how big it is. */
function outputSize(content: unknown): string {
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content))
    text = content.map((b) => (asRecord(b)?.type === "text" ? str(asRecord(b)?.text) : "")).join("\n");
  if (text === "") return "(no output)";
  const lines = text.split("\n").length;
  return lines === 1 ? `(${text.length} chars)` : `(${lines} lines)`;
}

function argsText(args: unknown): string {
  try {
    return JSON.stringify(args, null, 2) ?? "";
  } catch {
    return String(args);
  }
}

function renderAssistant(entry: Record<string, unknown>, m: Record<string, unknown>, label?: string): HTMLElement {
  const usage = asRecord(m.usage);
  const tokens = usage ? `${Number(usage.input) || 0} in / ${Number(usage.output) || 0} out` : "";
  const model = [str(m.provider), str(m.model)].filter((x) => x).join("/");
  const failed = m.stopReason === "error" || m.stopReason === "aborted";
  const el = h("div", `msg assistant${failed ? " error" : ""}`, head("Assistant", entry, label, model, tokens));
  const content = Array.isArray(m.content) ? m.content : [];
  for (const raw of content) {
    const b = asRecord(raw);
    if (!b) continue;
    if (b.type === "text") el.appendChild(md(str(b.text)));
    else if (b.type === "thinking")
      el.appendChild(collapsible("thinking", h("div", undefined, str(b.thinking)), "thinking"));
    else if (b.type === "toolCall")
      el.appendChild(
        collapsible(`→ ${str(b.name)} ${argsHint(b.arguments)}`, h("pre", "out", argsText(b.arguments)), "tool-call"),
      );
  }
  if (failed) el.appendChild(h("div", "error-text", str(m.errorMessage) || `(${str(m.stopReason)})`));
  return el;
}

function renderMessage(entry: Record<string, unknown>, m: Record<string, unknown>, label?: string): HTMLElement {
  switch (m.role) {
    case "user":
      return h("div", "msg user", head("User", entry, label), userContent(m.content));
    case "assistant":
      return renderAssistant(entry, m, label);
    case "toolResult": {
      const isError = m.isError === true;
      const el = h(
        "div",
        `msg tool-result${isError ? " error" : ""}`,
        head("Tool result", entry, label, str(m.toolName)),
      );
      const d = collapsible(
        `${isError ? "✗" : "✓"} ${str(m.toolName) || "tool"} output ${outputSize(m.content)}`,
        toolOutput(m.content),
        isError ? "is-error" : "",
      );
      el.appendChild(d);
      return el;
    }
    case "bashExecution": {
      const code = typeof m.exitCode === "number" ? `exit ${m.exitCode}` : "";
      const el = h("div", "msg bash", head("Shell", entry, label, code), h("pre", "out", `$ ${str(m.command)}`));
      el.appendChild(collapsible("output", toolOutput(str(m.output)), "", true));
      return el;
    }
    case "custom":
      return h("div", "msg custom", head("Extension message", entry, label, str(m.customType)), userContent(m.content));
    case "branchSummary":
      return h("div", "msg summary", head("Branch summary", entry, label), md(str(m.summary)));
    case "compactionSummary":
      return h("div", "msg compaction", head("Compaction summary", entry, label), md(str(m.summary)));
    default:
      return h("div", "msg note", head(`Message (${str(m.role) || "unknown role"})`, entry, label));
  }
}

/** The block for one entry. `label` is the resolved label of the entry, if any. */
export function renderEntry(raw: unknown, label?: string): HTMLElement {
  const entry = asRecord(raw) ?? {};
  switch (entry.type) {
    case "message": {
      const m = asRecord(entry.message);
      return m ? renderMessage(entry, m, label) : h("div", "msg note", "(message without body)");
    }
    case "compaction": {
      const tokens =
        typeof entry.tokensBefore === "number" ? `${entry.tokensBefore.toLocaleString()} tokens before` : "";
      return h("div", "msg compaction", head("Compaction", entry, label, tokens), md(str(entry.summary)));
    }
    case "branch_summary":
      return h("div", "msg summary", head("Branch summary", entry, label), md(str(entry.summary)));
    case "custom_message": {
      const hidden = entry.display === false ? "hidden from the chat" : "";
      return h(
        "div",
        "msg custom",
        head("Extension message", entry, label, str(entry.customType), hidden),
        userContent(entry.content),
      );
    }
    case "model_change":
      return h("div", "msg note", head("Model", entry, label, `${str(entry.provider)}/${str(entry.modelId)}`));
    case "thinking_level_change":
      return h("div", "msg note", head("Thinking level", entry, label, str(entry.thinkingLevel)));
    case "session_info":
      return h("div", "msg note", head("Session name", entry, label, str(entry.name)));
    case "label":
      return h(
        "div",
        "msg note",
        head("Label", entry, label, `${str(entry.targetId)}: ${str(entry.label) || "(cleared)"}`),
      );
    case "custom":
      return h("div", "msg note", head("Extension state", entry, label, str(entry.customType)));
    default:
      return h("div", "msg note", head(`Entry (${str(entry.type) || "unknown type"})`, entry, label));
  }
}
