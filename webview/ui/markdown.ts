/**
 * The only path by which message text becomes HTML, in the chat, the compare panel and the exported page alike.
 * The text is not trusted. Two layers, either of which alone would stop `<img onerror>` or `<script>`: `marked`
 * renders raw HTML as escaped text, keeps only http(s), mailto and in-page (`#`) link targets and shows images as
 * text (the views load nothing the text names); then the parsed, inert fragment passes an element and attribute
 * allow-list before anything reaches the live document.
 */
import { Marked, type Token, type TokensList, type Tokens } from "marked";
import { escapeHtml } from "../../src/core/escape-html.js";

/** The href kept for a link, or undefined when its scheme is not allowed (javascript:, data:, vbscript:…). */
function safeHref(href: string): string | undefined {
  // Browsers ignore control characters and whitespace inside schemes ("java\tscript:"), so drop them first.
  let t = "";
  for (const ch of href) {
    const c = ch.charCodeAt(0);
    if (c > 0x20 && (c < 0x7f || c > 0x9f)) t += ch;
  }
  if (/^(https?:\/\/|mailto:)/i.test(t) || t.startsWith("#")) return t;
  return undefined;
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
      const href = safeHref(token.href);
      if (href === undefined) return inner;
      const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
      // The exported page opens links in a new tab; VS Code's webviews open them in the browser either way.
      return `<a href="${escapeHtml(href)}"${title} target="_blank" rel="noopener noreferrer">${inner}</a>`;
    },
    image(token: Tokens.Image): string {
      // No remote (or any) images from message text: the CSP would block them anyway; show what was meant.
      return escapeHtml(`[image: ${token.text || token.href}]`);
    },
  },
});

/** Elements markdown may produce, with the attributes each may keep. */
const ALLOWED: Readonly<Record<string, readonly string[]>> = {
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
  A: ["href", "title", "target", "rel"],
  TABLE: [],
  THEAD: [],
  TBODY: [],
  TR: [],
  TH: ["align"],
  TD: ["align"],
  INPUT: ["type", "checked", "disabled"],
};

/**
 * Drop every element and attribute outside the allow-list (a dropped element's text is kept as text), every node
 * that is neither element nor text (comments), unsafe link targets, and inputs other than disabled checkboxes.
 * Iterative: message text can nest deeply (a long run of `>` quotes).
 */
function sanitize(root: DocumentFragment): void {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const parent = stack.pop() as Node;
    for (let child = parent.firstChild; child !== null;) {
      const next = child.nextSibling;
      if (child.nodeType === Node.ELEMENT_NODE) {
        const el = child as Element;
        const allowed = ALLOWED[el.tagName];
        if (allowed === undefined) {
          parent.replaceChild(document.createTextNode(el.textContent ?? ""), el);
        } else if (el.tagName === "INPUT" && el.getAttribute("type") !== "checkbox") {
          el.remove();
        } else {
          for (const attr of [...el.attributes]) if (!allowed.includes(attr.name)) el.removeAttribute(attr.name);
          if (el.tagName === "A" && safeHref(el.getAttribute("href") ?? "") === undefined) el.removeAttribute("href");
          if (el.tagName === "INPUT") el.setAttribute("disabled", "");
          stack.push(el);
        }
      } else if (child.nodeType !== Node.TEXT_NODE) {
        parent.removeChild(child);
      }
      child = next;
    }
  }
}

/** Render markdown to a sanitized fragment ready to insert. */
export function renderMarkdown(text: string): DocumentFragment {
  return sanitizedFragment(marked.parse(text, { async: false }) as string);
}

/**
 * The block tokens of `text` (marked's lexer with the options every render uses). Rendering them all with
 * renderMarkdownTokens gives what renderMarkdown gives for `text`; a streamed text renders its blocks apart
 * (markdown-stream.ts).
 */
export function lexMarkdown(text: string): TokensList {
  return marked.lexer(text);
}

/** Render some top-level tokens of lexMarkdown to a sanitized fragment ready to insert. */
export function renderMarkdownTokens(tokens: Token[]): DocumentFragment {
  return sanitizedFragment(marked.parser(tokens));
}

function sanitizedFragment(html: string): DocumentFragment {
  // A <template> parses into an inert document: nothing loads or runs while we sanitize.
  const template = document.createElement("template");
  template.innerHTML = html;
  const fragment = template.content;
  sanitize(fragment);
  return document.importNode(fragment, true);
}
