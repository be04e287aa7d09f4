/**
 * The only path by which message text becomes HTML: `marked` with raw HTML escaped, links limited to
 * http(s)/mailto, images shown as text; then an allow-list pass over the parsed (inert) fragment before
 * anything reaches the live document. Either layer alone would stop `<img onerror>` / `<script>`.
 */
import { Marked, type Tokens } from "marked";

const SAFE_URL = /^(https?:|mailto:)/i;

/** Escape text for HTML. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    html(token: Tokens.HTML | Tokens.Tag): string {
      return escapeHtml(token.text);
    },
    link(token: Tokens.Link): string {
      const inner = this.parser.parseInline(token.tokens);
      const href = token.href.trim();
      if (!SAFE_URL.test(href)) return inner;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      return `<a href="${escapeHtml(href)}"${title}>${inner}</a>`;
    },
    image(token: Tokens.Image): string {
      // No remote (or any) images from message text: the CSP would block them anyway; show what was meant.
      return escapeHtml(`[image: ${token.text || token.href}]`);
    },
  },
});

/** Elements markdown may produce, with the attributes each may keep. */
const ALLOWED: Record<string, readonly string[]> = {
  P: [],
  BR: [],
  HR: [],
  H1: [],
  H2: [],
  H3: [],
  H4: [],
  H5: [],
  H6: [],
  STRONG: [],
  EM: [],
  DEL: [],
  CODE: ["class"],
  PRE: [],
  BLOCKQUOTE: [],
  UL: [],
  OL: ["start"],
  LI: [],
  A: ["href", "title"],
  TABLE: [],
  THEAD: [],
  TBODY: [],
  TR: [],
  TH: ["align"],
  TD: ["align"],
  INPUT: ["type", "checked", "disabled"],
};

/** Drop every element and attribute outside the allow-list (children of dropped elements are kept as text). */
function sanitize(root: DocumentFragment): void {
  const walk = (parent: Node): void => {
    let child = parent.firstChild;
    while (child !== null) {
      const next = child.nextSibling;
      if (child.nodeType === Node.ELEMENT_NODE) {
        const el = child as Element;
        const allowed = ALLOWED[el.tagName];
        if (allowed === undefined) {
          parent.replaceChild(document.createTextNode(el.textContent ?? ""), el);
        } else {
          for (const attr of [...el.attributes]) {
            if (!allowed.includes(attr.name)) el.removeAttribute(attr.name);
          }
          if (el.tagName === "A" && !SAFE_URL.test(el.getAttribute("href") ?? "")) el.removeAttribute("href");
          if (el.tagName === "INPUT") {
            if (el.getAttribute("type") !== "checkbox") {
              el.remove();
              child = next;
              continue;
            }
            el.setAttribute("disabled", "");
          }
          walk(el);
        }
      } else if (child.nodeType !== Node.TEXT_NODE) {
        parent.removeChild(child);
      }
      child = next;
    }
  };
  walk(root);
}

/** Render markdown to a sanitized fragment ready to insert. */
export function renderMarkdown(text: string): DocumentFragment {
  const html = marked.parse(text) as string;
  // A <template> parses into an inert document: nothing loads or runs while we sanitize.
  const template = document.createElement("template");
  template.innerHTML = html;
  const fragment = template.content;
  sanitize(fragment);
  return document.importNode(fragment, true);
}
