/**
 * Builds the tree webview exactly as the extension ships it (esbuild, browser IIFE, minified) into
 * bench/.data/webview/, with a page that loads the probe (fake acquireVsCodeApi + timers) before the bundle.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import * as esbuild from "esbuild";
import { BENCH_DIR, DATA_DIR, REPO_DIR } from "../paths.js";

/** Folder holding the built page. */
export const WEBVIEW_DIR = join(DATA_DIR, "webview");
/** The page to open. */
export const WEBVIEW_PAGE = join(WEBVIEW_DIR, "index.html");

/** A sidebar-sized viewport (the tree lives in a side bar view). */
export const VIEWPORT = { width: 400, height: 800 };

/**
 * Builds webview/main.tsx and writes the page. Returns the page's file URL.
 * `readable` skips minification so CPU profiles show the source's function names.
 */
export async function buildWebviewPage(readable = false): Promise<string> {
  mkdirSync(WEBVIEW_DIR, { recursive: true });
  await esbuild.build({
    entryPoints: { webview: join(REPO_DIR, "webview", "main.tsx") },
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "chrome120",
    outdir: WEBVIEW_DIR,
    jsx: "automatic",
    jsxImportSource: "preact",
    loader: { ".ttf": "file" },
    minify: !readable,
    logLevel: "error",
  });
  const probe = pathToFileURL(join(BENCH_DIR, "webview", "probe.js")).href;
  writeFileSync(
    WEBVIEW_PAGE,
    `<!doctype html>
<html>
<head><meta charset="utf-8"><link rel="stylesheet" href="webview.css"></head>
<body data-view="tree"><div id="root"></div>
<script src="${probe}"></script>
<script src="webview.js"></script>
</body>
</html>
`,
  );
  return pathToFileURL(WEBVIEW_PAGE).href;
}
