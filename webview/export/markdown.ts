/**
 * Markdown for message text. The data is not trusted: raw HTML in markdown is rendered as escaped text,
 * link targets are limited to http(s)/mailto/#, images become text (the page may load nothing), and the
 * produced HTML passes an element/attribute allowlist before it reaches the document.
 */
import { Marked, type Tokens } from "marked";

/** Escape text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The href kept for a link, or undefined when its scheme is not allowed (javascript:, data:, vbscript:…). */
export function safeHref(href: string): string | undefined {
  // Browsers ignore control characters and whitespace inside schemes ("java\tscript:"), so drop them first.
  let t = "";
  for (const ch of href) {
    const c = ch.charCodeAt(0);
    if (c > 0x20 && (c < 0x7f || c > 0x9f)) t += ch;
  }
  if (/^(https?:\/\/|mailto:)/i.test(t)) return t;
  if (t.startsWith("#")) return t;
  return undefined;
}

const marked = new Marked({
  gfm: true,
  async: false,
  renderer: {
    html({ text }: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(text);
    },
    link({ href, title, tokens }: Tokens.Link): string {
      const inner = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (safe === undefined) return inner;
      const t = title ? ` title="${escapeHtml(title)}"` : "";
      return `<a href="${escapeHtml(safe)}"${t} target="_blank" rel="noopener noreferrer">${inner}</a>`;
    },
    image({ href, text }: Tokens.Image): string {
      return escapeHtml(`[image: ${text || href}]`);
    },
  },
});

const ALLOWED_TAGS = new Set([
  "A",
  "B",
  "BLOCKQUOTE",
  "BR",
  "CODE",
  "DEL",
  "EM",
  "H1",
  "H2",
  "H3",
  "H4",
  "H5",
  "H6",
  "HR",
  "I",
  "INPUT",
  "LI",
  "OL",
  "P",
  "PRE",
  "S",
  "STRONG",
  "TABLE",
  "TBODY",
  "TD",
  "TH",
  "THEAD",
  "TR",
  "UL",
  "SPAN",
  "SUB",
  "SUP",
]);
const ALLOWED_ATTRS: Readonly<Record<string, ReadonlySet<string>>> = {
  A: new Set(["href", "title", "target", "rel"]),
  CODE: new Set(["class"]),
  INPUT: new Set(["type", "checked", "disabled"]),
  OL: new Set(["start"]),
  TD: new Set(["align"]),
  TH: new Set(["align"]),
};

/** Remove every element and attribute outside the allowlist (elements are replaced by their text). */
export function sanitizeTree(root: ParentNode): void {
  const all = Array.from(root.querySelectorAll("*"));
  for (const el of all) {
    if (!ALLOWED_TAGS.has(el.tagName) || (el.tagName === "INPUT" && el.getAttribute("type") !== "checkbox")) {
      el.replaceWith(document.createTextNode(el.textContent ?? ""));
      continue;
    }
    const allowed = ALLOWED_ATTRS[el.tagName];
    for (const attr of Array.from(el.attributes)) {
      if (!allowed || !allowed.has(attr.name)) el.removeAttribute(attr.name);
    }
    if (el.tagName === "A") {
      const href = el.getAttribute("href");
      if (href !== null && safeHref(href) === undefined) el.removeAttribute("href");
    }
    if (el.tagName === "INPUT") el.setAttribute("disabled", "");
  }
}

/** Render markdown into a sanitized fragment. */
export function renderMarkdown(text: string): DocumentFragment {
  const html = marked.parse(text, { async: false }) as string;
  const tpl = document.createElement("template");
  tpl.innerHTML = html;
  sanitizeTree(tpl.content);
  return tpl.content;
}
