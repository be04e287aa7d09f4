/**
 * Syntax highlighting of the export page's code: markdown code blocks by their fence's language, file contents in
 * read/write/edit tool calls and results by the file's extension. highlight.js (its common languages, bundled into
 * the page, as pi's export bundles it) does the work; it escapes the text it is given, and its result is still
 * checked to hold nothing but `<span class="hljs-…">` before it reaches the page.
 *
 * Lazily: a block is marked with its language when rendered and highlighted when it first comes near the view (a
 * folded block when it is opened), so a page of thousands of blocks opens as fast as one without highlighting.
 *
 * A code block whose fence names no language (or one highlight.js does not know) gets a guessed one, as pi's page
 * guesses it (`highlightAuto`): only up to {@link AUTO_MAX_CHARS} (guessing tries every language, ~10 ms per KB),
 * and only a confident guess ({@link AUTO_MIN_RELEVANCE}: prose and program output score below it and stay plain,
 * where pi colours them as whatever language came first).
 */
import hljs from "highlight.js/lib/common";

/** Blocks longer than this stay plain (the export cuts texts at 20,000 characters by default anyway). */
const MAX_CHARS = 200_000;
/** Extensions highlight.js knows under another name. */
const EXTENSIONS: Readonly<Record<string, string>> = {
  h: "c",
  hpp: "cpp",
  hh: "cpp",
  cc: "cpp",
  mjs: "javascript",
  cjs: "javascript",
  jsonl: "json",
  jsonc: "json",
  htm: "xml",
  svg: "xml",
  vue: "xml",
  toml: "ini",
  zsh: "bash",
  kts: "kotlin",
};
const WAITING = "data-lang";
/** The waiting mark of a block whose language is to be guessed. */
const AUTO = "auto";
/** Longest block whose language is guessed. */
export const AUTO_MAX_CHARS = 10_000;
/** Least relevance (highlight.js's score of a guess) a guess needs to be used. */
export const AUTO_MIN_RELEVANCE = 5;
/** Fences that say the block is plain on purpose. */
const PLAIN_FENCES = new Set(["text", "plaintext", "plain", "txt", "output", "console", "log"]);

/** The highlight.js language for a fence's info string (`ts`, `language-python`), or undefined. */
export function languageOfFence(info: string): string | undefined {
  const name = info
    .replace(/^language-/, "")
    .trim()
    .toLowerCase();
  if (name === "" || name === "text" || name === "plaintext") return undefined;
  return hljs.getLanguage(name) ? name : undefined;
}

/** The highlight.js language for a file path (by its extension, or its name: `Makefile`), or undefined. */
export function languageOfPath(path: string): string | undefined {
  const base = path.split(/[\\/]/).pop() ?? "";
  if (/^(gnu)?makefile$/i.test(base)) return "makefile";
  const dot = base.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const ext = base.slice(dot + 1).toLowerCase();
  const name = EXTENSIONS[ext] ?? ext;
  return hljs.getLanguage(name) ? name : undefined;
}

/** True when every element of the fragment is a `<span>` whose only attribute is a highlight.js class. */
function onlySpans(root: DocumentFragment): boolean {
  for (const el of root.querySelectorAll("*")) {
    if (el.tagName !== "SPAN") return false;
    for (const attr of el.attributes) if (attr.name !== "class" || !/^[\w\s-]*$/.test(attr.value)) return false;
  }
  return true;
}

/** Highlight one `<code>` element's text now (its text stays as it was when the markup is anything unexpected). */
export function highlightNow(code: HTMLElement): void {
  const lang = code.getAttribute(WAITING);
  code.removeAttribute(WAITING);
  const text = code.textContent ?? "";
  if (!lang || text.length > (lang === AUTO ? AUTO_MAX_CHARS : MAX_CHARS)) return;
  let html: string;
  try {
    if (lang === AUTO) {
      const guess = hljs.highlightAuto(text);
      if (guess.language === undefined || guess.relevance < AUTO_MIN_RELEVANCE) return;
      code.dataset.guessed = guess.language;
      html = guess.value;
    } else if (hljs.getLanguage(lang)) html = hljs.highlight(text, { language: lang, ignoreIllegals: true }).value;
    else return;
  } catch {
    return;
  }
  const template = document.createElement("template");
  template.innerHTML = html;
  if (!onlySpans(template.content) || template.content.textContent !== text) return;
  code.replaceChildren(document.importNode(template.content, true));
  code.classList.add("hljs");
}

/** Highlights marked code blocks as they come near the view (see the file comment). */
export class LazyHighlighter {
  private readonly observer: IntersectionObserver;

  constructor(root: HTMLElement) {
    this.observer = new IntersectionObserver(
      (seen) => {
        for (const s of seen) {
          if (!s.isIntersecting) continue;
          this.observer.unobserve(s.target);
          highlightNow(s.target as HTMLElement);
        }
      },
      { root, rootMargin: "400px 0px" },
    );
  }

  /** Mark `code` as `lang` and highlight it once it is shown. */
  mark(code: HTMLElement, lang: string | undefined): void {
    if (lang === undefined) return;
    code.setAttribute(WAITING, lang);
    this.observer.observe(code);
  }

  /**
   * Watch the code blocks inside `el` (markdown renders them as `<pre><code class="language-x">`, without the
   * class when the fence names no language): by their fence's language, else by a guess (see the file comment).
   */
  markFences(el: HTMLElement): void {
    for (const code of el.querySelectorAll<HTMLElement>("pre > code")) {
      const cls = [...code.classList].find((c) => c.startsWith("language-")) ?? "";
      const named = cls.replace(/^language-/, "").toLowerCase();
      this.mark(code, languageOfFence(cls) ?? (PLAIN_FENCES.has(named) ? undefined : AUTO));
    }
  }

  /** Highlight everything still waiting under `root` now (before printing: paper never scrolls into view). */
  flush(root: HTMLElement): void {
    for (const code of root.querySelectorAll<HTMLElement>(`[${WAITING}]`)) {
      this.observer.unobserve(code);
      highlightNow(code);
    }
  }

  /** Forget blocks no longer in the page. */
  reset(): void {
    this.observer.disconnect();
  }
}
