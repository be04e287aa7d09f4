/**
 * An HTML page as Markdown: the page's main content (Mozilla's Readability, as Firefox's reader view picks it) on
 * linkedom's DOM, then Turndown. Links and images keep their targets, made absolute against the page's URL, so
 * the model can fetch a link it reads; scripts, styles and forms go.
 */
import { Readability } from "@mozilla/readability";
import { parseHTML } from "linkedom";
import TurndownService from "turndown";

/** The Markdown of a page. */
export interface PageMarkdown {
  title?: string;
  markdown: string;
  /** Readability found an article (else the whole body was converted). */
  article: boolean;
}

/** Less text than this in Readability's pick means it missed: the whole body is converted instead. */
const MIN_ARTICLE_CHARS = 200;

/** Structural parts of the interfaces used here (the core is built without the DOM's types). */
interface ElementLike {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
}

/** `href`/`src` made absolute against `base`; `javascript:` links lose their target. */
function absolutize(doc: { querySelectorAll(selector: string): Iterable<ElementLike> }, base: string): void {
  for (const [selector, attr] of [
    ["a[href]", "href"],
    ["img[src]", "src"],
  ] as const) {
    for (const el of doc.querySelectorAll(selector)) {
      const value = el.getAttribute(attr) ?? "";
      let abs: URL;
      try {
        abs = new URL(value, base);
      } catch {
        continue;
      }
      if (abs.protocol === "javascript:") el.removeAttribute(attr);
      else el.setAttribute(attr, abs.href);
    }
  }
}

function turndown(): TurndownService {
  const td = new TurndownService({
    headingStyle: "atx",
    codeBlockStyle: "fenced",
    bulletListMarker: "-",
    emDelimiter: "*",
  });
  td.remove(["script", "style", "noscript", "template", "iframe", "form", "button", "select", "input", "textarea"]);
  return td;
}

/** Collapses the blank-line runs Turndown leaves between removed blocks. */
function tidy(markdown: string): string {
  return markdown.replace(/\n{3,}/g, "\n\n").trim();
}

/** Converts `html` fetched from `url`: see the file comment. */
export function htmlToMarkdown(html: string, url: string): PageMarkdown {
  // linkedom builds a body only for a whole document: a fragment is given one.
  const { document } = parseHTML(/<body[\s>]/i.test(html) ? html : `<!doctype html><html><body>${html}</body></html>`);
  absolutize(document, url);
  const title = (document.title ?? "").trim() || undefined;
  const td = turndown();
  // Readability changes the document it reads: it gets its own copy, the fallback converts the original.
  const { document: copy } = parseHTML(document.toString());
  const article = new Readability(copy as unknown as ConstructorParameters<typeof Readability>[0], {
    charThreshold: MIN_ARTICLE_CHARS,
  }).parse();
  if (article?.content && (article.textContent ?? "").trim().length >= MIN_ARTICLE_CHARS) {
    const { document: content } = parseHTML(`<!doctype html><html><body>${article.content}</body></html>`);
    const markdown = tidy(td.turndown(content.body as unknown as TurndownService.Node));
    return { title: article.title?.trim() || title, markdown, article: true };
  }
  const body = document.body ?? document.documentElement;
  const markdown = body ? tidy(td.turndown(body as unknown as TurndownService.Node)) : "";
  return { ...(title ? { title } : {}), markdown, article: false };
}
