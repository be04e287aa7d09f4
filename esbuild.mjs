// One build script, several bundles: the extension host (Node, CJS, `vscode` external)
// and the webview apps (browser IIFE). `--production` minifies and drops source maps.
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    // The session search's worker threads load their own bundle (src/core/search/session-search.ts), and so does the
    // thread that converts a fetched page to Markdown (src/core/tools/web/html-convert.ts).
    entryPoints: {
      extension: "src/host/extension.ts",
      "search-worker": "src/core/search/search-worker.ts",
      "html-worker": "src/core/tools/web/html-worker.ts",
    },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    // jsonc-parser's default (UMD) build loads its parts with a require() esbuild cannot follow; its ES build bundles.
    // web-tree-sitter's ES build finds its files through import.meta.url, which a CJS bundle lacks: its CJS build.
    // Turndown gets DOM nodes (linkedom's), never strings, so its browser build does without the domino parser.
    alias: {
      "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js",
      "web-tree-sitter": "./node_modules/web-tree-sitter/web-tree-sitter.cjs",
      turndown: "./node_modules/turndown/lib/turndown.browser.cjs.js",
    },
    outdir: "dist",
    sourcemap: !production,
    minify: production,
    logLevel: "warning",
  },
  {
    entryPoints: {
      webview: "webview/main.tsx",
      export: "webview/export/main.tsx",
      compare: "webview/compare/main.tsx",
    },
    bundle: true,
    platform: "browser",
    format: "iife",
    target: "chrome120",
    outdir: "dist",
    jsx: "automatic",
    jsxImportSource: "preact",
    loader: { ".ttf": "file" },
    sourcemap: !production,
    minify: production,
    logLevel: "warning",
  },
];

// `--tests`: the extension-host mocha suite (test/extension/index.ts exports run()), run inside VS Code
// by @vscode/test-electron or code-server's extensionTestsPath. mocha stays external (node_modules).
if (process.argv.includes("--tests")) {
  builds.push({
    entryPoints: { "test/extension/index": "test/extension/index.ts" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode", "mocha"],
    outdir: "dist",
    sourcemap: true,
    logLevel: "warning",
  });
}

// The bash grammar of the approval rules (src/core/tools/rules/shell-parts.ts) is WebAssembly that web-tree-sitter
// loads from a file: both files go next to the extension's bundle.
const WASM_FILES = [
  "node_modules/web-tree-sitter/web-tree-sitter.wasm",
  "node_modules/tree-sitter-bash/tree-sitter-bash.wasm",
];
{
  const fs = await import("node:fs");
  const path = await import("node:path");
  fs.mkdirSync("dist", { recursive: true });
  for (const f of WASM_FILES) fs.copyFileSync(f, path.join("dist", path.basename(f)));
}

const existing = [];
for (const b of builds) {
  const fs = await import("node:fs");
  b.entryPoints = Object.fromEntries(Object.entries(b.entryPoints).filter(([, p]) => fs.existsSync(p)));
  if (Object.keys(b.entryPoints).length > 0) existing.push(b);
}

if (watch) {
  for (const b of existing) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(existing.map((b) => esbuild.build(b)));
}
