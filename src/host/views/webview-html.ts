/**
 * The HTML shell of both webview views: strict CSP with a per-load nonce, no inline script, the
 * bundle and its stylesheets only. Pure: URIs arrive as strings.
 */
import { randomBytes } from "node:crypto";
import { escapeHtml } from "../../core/escape-html.js";

/** Which app the bundle renders (read from `<body data-view>`); `compare` is the compare panel's own bundle. */
export type WebviewKind = "tree" | "chat" | "compare";

/**
 * What the shell loads for the side-bar views (paths relative to the extension root): the shell sets
 * `<body data-view="tree|chat">`, links `style` (it includes the codicons; their font is emitted next to it in
 * dist/), loads `script` with the CSP nonce, and carries `<meta property="csp-nonce">` so the UI toolkit can nonce
 * the one `<style>` element it creates (the CSP would block it otherwise).
 */
export const WEBVIEW_ASSETS = { script: "dist/webview.js", style: "dist/webview.css" } as const;

/** The compare panel's bundle (its own, so the side-bar views do not carry the compare view), same shell rules. */
export const COMPARE_ASSETS = { script: "dist/compare.js", style: "dist/compare.css" } as const;

/** Inputs of the shell. */
export interface WebviewHtmlOptions {
  view: WebviewKind;
  /** `webview.cspSource`. */
  cspSource: string;
  /** webview URI of dist/webview.js. */
  scriptUri: string;
  /** webview URIs of stylesheets (dist/webview.css, codicons). */
  styleUris: readonly string[];
  nonce: string;
  title: string;
}

/** A fresh CSP nonce (base64url, 128 bits). */
export function makeNonce(): string {
  return randomBytes(16).toString("base64url");
}

/** The Content-Security-Policy of a view. */
export function contentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
  ].join("; ");
}

/** The whole document. */
export function buildWebviewHtml(o: WebviewHtmlOptions): string {
  const nonce = escapeHtml(o.nonce);
  const styles = o.styleUris
    .map((u) => `    <link rel="stylesheet" nonce="${nonce}" href="${escapeHtml(u)}" />`)
    .join("\n");
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, o.nonce))}" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <meta property="csp-nonce" content="${nonce}" />
${styles}
    <title>${escapeHtml(o.title)}</title>
  </head>
  <body data-view="${o.view}">
    <div id="root"></div>
    <script nonce="${nonce}" src="${escapeHtml(o.scriptUri)}"></script>
  </body>
</html>
`;
}

/** Inputs of {@link buildUnavailableHtml}. */
export interface UnavailableHtmlOptions {
  cspSource: string;
  nonce: string;
  /** The view's title ("Session Tree", "Chat"). */
  title: string;
  /** A `command:` URI that reloads the view (allowed by the webview's `enableCommandUris`). */
  reloadCommandUri: string;
}

/**
 * What a view shows when it did not load after its retries: what happened and a "Reload View" link. No
 * script (the bundle is what failed to start), so the link is a command URI.
 */
export function buildUnavailableHtml(o: UnavailableHtmlOptions): string {
  const nonce = escapeHtml(o.nonce);
  const title = escapeHtml(o.title);
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${escapeHtml(contentSecurityPolicy(o.cspSource, o.nonce))}" />
    <style nonce="${nonce}">
      body { padding: 8px 12px; }
      .reload { display: inline-block; margin-top: 4px; }
    </style>
    <title>${title}</title>
  </head>
  <body data-view="unavailable">
    <p role="alert">The ${title} view did not load. VS Code started it several times; the Agent Tree output channel says why.</p>
    <a class="reload" href="${escapeHtml(o.reloadCommandUri)}">Reload View</a>
  </body>
</html>
`;
}
