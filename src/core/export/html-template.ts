/** Assembles the self-contained export page: CSP, inline stylesheet, embedded JSON, inline page script. */
import { randomBytes } from "node:crypto";
import { escapeHtml } from "../escape-html.js";
import { EXPORT_DATA_ELEMENT_ID, type ExportData } from "./export-data.js";
import { EXPORT_CSS } from "./export-styles.js";

/**
 * JSON for a `<script type="application/json">` element. Every `<` becomes `\u003c`, so no message text can
 * close the element (`</script>`) or open a comment; U+2028/2029 are escaped too for old parsers.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/**
 * Make bundled JavaScript safe inside an inline `<script>`: `</script` and `<!--` would end or confuse the
 * element. A `\u` escape means the same character in strings, templates and regular expressions (the only
 * places these sequences occur in valid code besides comments, where it is harmless).
 */
export function inlineScript(js: string): string {
  // A development build ends with a source map reference; inlined, it would point at a file next to the page.
  return js
    .replace(/^\/\/# sourceMappingURL=.*$/gm, "")
    .replace(/<\/script/gi, (m) => "<\\u002f" + m.slice(2))
    .replace(/<!--/g, "<\\u0021--");
}

/** A fresh CSP nonce. */
export function makeNonce(): string {
  return randomBytes(18).toString("base64");
}

/** The page's Content-Security-Policy: nothing but the inline script and style with this nonce, and data: images. */
export function exportCsp(nonce: string): string {
  return `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src data:; base-uri 'none'; form-action 'none'`;
}

/** The whole page. */
export function renderExportHtml(data: ExportData, pageScript: string, nonce: string = makeNonce()): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(exportCsp(nonce))}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<meta name="generator" content="Agent Tree">',
    `<title>${escapeHtml(data.title)}</title>`,
    `<style nonce="${escapeHtml(nonce)}">${EXPORT_CSS}</style>`,
    "</head>",
    "<body>",
    '<div id="app"><noscript>This export needs JavaScript to show the session.</noscript></div>',
    `<script type="application/json" id="${EXPORT_DATA_ELEMENT_ID}">${embedJson(data)}</script>`,
    `<script nonce="${escapeHtml(nonce)}">${inlineScript(pageScript)}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
