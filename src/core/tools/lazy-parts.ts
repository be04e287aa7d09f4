/**
 * The parts of the tools that are loaded on their first use, not when the extension starts: web_fetch's HTTP client
 * (web/http-fetch.ts, with undici), the bash grammar that approval rules split commands with (rules/shell-parts.ts,
 * with web-tree-sitter) and the HTML conversion (web/html-to-markdown.ts, with Readability, linkedom and Turndown).
 * Together they are larger than the rest of the extension host's bundle. As pi-ai is (providers/pi-ai.ts), each is
 * reached only through a dynamic `import()` here: in the extension host, esbuild.mjs points these imports at the
 * parts' ES module bundles (dist/tools/<part>.mjs), so activation reads none of them; from source (tests, the core
 * used as a library) they import the modules themselves (docs/tools.md, "Loaded on first use"). Value imports of
 * these modules elsewhere would bundle them into the extension again: import their types only.
 */
import { errorText } from "../error-text.js";

/** web_fetch's download (web/http-fetch.ts). */
export type HttpFetchPart = typeof import("./web/http-fetch.js");
/** The bash command splitter of the approval rules (rules/shell-parts.ts). */
export type ShellPartsPart = typeof import("./rules/shell-parts.js");
/** The HTML conversion, for the caller's thread (web/html-to-markdown.ts). */
export type HtmlConvertPart = typeof import("./web/html-to-markdown.js");

/**
 * Loads one part once. A failed load is not kept, so a later call tries again (a file restored by a reinstall).
 */
function loadOnce<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((e: unknown) => {
      loading = undefined;
      throw new Error(`Could not load ${what}: ${errorText(e)}`, { cause: e });
    });
    return loading;
  };
}

/** web_fetch's download, loaded on the first fetch. */
export const loadHttpFetch: () => Promise<HttpFetchPart> = loadOnce(
  "web_fetch's HTTP client",
  () => import("./web/http-fetch.js"),
);

/** The bash command splitter, loaded on the first bash command a rule judges. */
export const loadShellParts: () => Promise<ShellPartsPart> = loadOnce(
  "the bash parser of the tool rules",
  () => import("./rules/shell-parts.js"),
);

/** The HTML conversion, loaded when a page is converted in the caller's thread (no worker bundle). */
export const loadHtmlConvert: () => Promise<HtmlConvertPart> = loadOnce(
  "the HTML conversion",
  () => import("./web/html-to-markdown.js"),
);
