// One build script, several bundles: the extension host (Node, CJS, `vscode` external)
// and the webview apps (browser IIFE). `--production` minifies and drops source maps.
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

/**
 * Code the extension host loads on first use lives in ES module bundles of its own, outside dist/extension.js, so
 * activation reads none of it:
 *
 * - the model library (@earendil-works/pi-ai, ES modules only, each provider's SDK in a lazy chunk):
 *   `src/core/providers/pi-ai.ts` imports `./pi-ai-runtime.mjs`, pointed at `dist/pi-ai/runtime.mjs`;
 * - the heavy parts of the tools (`src/core/tools/lazy-parts.ts`): web_fetch's HTTP client (undici), the bash
 *   parser of the approval rules (web-tree-sitter) and the HTML conversion (Readability, linkedom, Turndown), each
 *   `import()`ed there and pointed at `dist/tools/<part>.mjs`.
 *
 * The CommonJS bundles leave those imports as real `import()`s that Node runs on first use. `fromOut` is the path
 * from the bundle's own folder to `dist`.
 */
const TOOL_PARTS = {
  "http-fetch": "src/core/tools/web/http-fetch.ts",
  "shell-parts": "src/core/tools/rules/shell-parts.ts",
  "html-to-markdown": "src/core/tools/web/html-to-markdown.ts",
  // The worker thread of the conversion (src/core/tools/web/html-convert.ts) shares the converter's chunk.
  "html-worker": "src/core/tools/web/html-worker.ts",
};

function lazyBundlesExternal(fromOut) {
  const parts = new RegExp(`/(${Object.keys(TOOL_PARTS).join("|")})\\.js$`);
  return {
    name: "lazy-bundles-external",
    setup(build) {
      build.onResolve({ filter: /\/pi-ai-runtime\.mjs$/ }, () => ({
        path: `${fromOut}/pi-ai/runtime.mjs`,
        external: true,
      }));
      // Only lazy-parts.ts's dynamic imports: a static import of a part would be a mistake to see in the size check.
      build.onResolve({ filter: parts }, (args) =>
        args.kind === "dynamic-import"
          ? { path: `${fromOut}/tools/${parts.exec(args.path)[1]}.mjs`, external: true }
          : undefined,
      );
    },
  };
}

/**
 * The extension host is Node, not a browser. Libraries written for both (zod, bundled with the MCP SDK, probes
 * `navigator.userAgent` for Cloudflare when its first schema is built; the SDKs look for React Native in error
 * paths) read the global `navigator` to tell where they run. Node >= 21 has one, and VS Code >= 1.101 replaces it in
 * its extension host with a getter that reports every read as a deprecation (PendingMigrationError "navigator is
 * now a global in nodejs", logged for a development extension, sent to telemetry for an installed one) and returns
 * undefined. So the Node bundles say what is true there at build time: no browser `navigator`. The probes become
 * dead code and nothing reads the global.
 */
const NODE_GLOBALS = { navigator: "undefined", "globalThis.navigator": "undefined" };

/** What the ES module bundles share: code splitting, `.mjs` files, `require` for the CommonJS code they bundle. */
const lazyEsm = {
  bundle: true,
  splitting: true,
  platform: "node",
  format: "esm",
  target: "node20",
  define: NODE_GLOBALS,
  outExtension: { ".js": ".mjs" },
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: !production,
  minify: production,
  logLevel: "warning",
};

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    // The session search's worker threads load their own bundle (src/core/search/session-search.ts), as do the
    // session listing's (src/core/session/session-info-reader.ts).
    entryPoints: {
      extension: "src/host/extension.ts",
      "search-worker": "src/core/search/search-worker.ts",
      "list-worker": "src/core/session/list-worker.ts",
    },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    define: NODE_GLOBALS,
    // jsonc-parser's default (UMD) build loads its parts with a require() esbuild cannot follow; its ES build bundles.
    alias: { "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js" },
    plugins: [lazyBundlesExternal(".")],
    outdir: "dist",
    sourcemap: !production,
    minify: production,
    logLevel: "warning",
  },
  {
    // The model library, loaded on first model use (see lazyBundlesExternal): the catalog and pi-ai's runtime in
    // runtime.mjs, each provider's SDK in a chunk of its own that loads with the provider's first request.
    ...lazyEsm,
    entryPoints: { runtime: "src/core/providers/pi-ai-runtime.mts" },
    outdir: "dist/pi-ai",
    // Some SDKs call require() for Node built-ins; an ES module has none of its own (pi-ai README, "Bundling").
    banner: {
      js: 'import { createRequire as __piAiRequire } from "node:module"; const require = __piAiRequire(import.meta.url);',
    },
  },
  {
    // The tools' parts, loaded on first use (see lazyBundlesExternal); code they share goes into chunks.
    ...lazyEsm,
    entryPoints: TOOL_PARTS,
    outdir: "dist/tools",
    // undici and the others are CommonJS and require() Node's built-ins; the bash grammar's files are found next to
    // the bundle (__dirname, src/core/tools/rules/shell-parts.ts). Neither exists in an ES module of its own.
    banner: {
      js: [
        'import { createRequire as __toolsRequire } from "node:module";',
        'import { fileURLToPath as __toolsPath } from "node:url";',
        "const require = __toolsRequire(import.meta.url);",
        'const __dirname = __toolsPath(new URL(".", import.meta.url));',
      ].join(" "),
    },
    // web-tree-sitter's ES build finds its files through import.meta.url, which would be the bundle's: its CJS build,
    // told where they are. Turndown gets DOM nodes (linkedom's), never strings, so its browser build does without
    // the domino parser.
    alias: {
      "web-tree-sitter": "./node_modules/web-tree-sitter/web-tree-sitter.cjs",
      turndown: "./node_modules/turndown/lib/turndown.browser.cjs.js",
    },
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

// `--tests`: the extension-host mocha suite (test/extension/index.ts exports run()), run inside VS Code by
// @vscode/test-electron (mocha stays external: node_modules), and the test-runner extension that runs the same suite
// in code-server next to the installed .vsix (test/extension-runner/: mocha bundled in, since an installed extension
// has no node_modules; its package.json is copied beside the bundle, and the suite packs that folder with vsce).
// The tests' fixtures travel in the bundles as text.
const tests = process.argv.includes("--tests");
if (tests) {
  const testBuild = {
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    define: NODE_GLOBALS,
    loader: { ".jsonl": "text" },
    logLevel: "warning",
  };
  builds.push(
    {
      ...testBuild,
      entryPoints: { "test/extension/index": "test/extension/index.ts" },
      external: ["vscode", "mocha"],
      plugins: [lazyBundlesExternal("../..")],
      outdir: "dist",
      sourcemap: true,
    },
    {
      ...testBuild,
      entryPoints: { extension: "test/extension-runner/extension.ts" },
      external: ["vscode"],
      // mocha's parallel mode (worker processes it finds with require.resolve) is bundled but never used here.
      logOverride: { "require-resolve-not-external": "silent" },
      outdir: "dist/test/extension-runner",
    },
  );
}

// The bash grammar of the approval rules (src/core/tools/rules/shell-parts.ts) is WebAssembly that web-tree-sitter
// loads from a file: both files go next to the part's bundle.
const WASM_FILES = [
  "node_modules/web-tree-sitter/web-tree-sitter.wasm",
  "node_modules/tree-sitter-bash/tree-sitter-bash.wasm",
];
{
  const fs = await import("node:fs");
  const path = await import("node:path");
  // The lazy bundles' chunks are named by their content's hash: without this, a build would leave the previous
  // build's chunks beside its own, and the .vsix would carry both.
  if (!watch) for (const dir of ["dist/pi-ai", "dist/tools"]) fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync("dist/tools", { recursive: true });
  for (const f of WASM_FILES) fs.copyFileSync(f, path.join("dist/tools", path.basename(f)));
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
if (tests) {
  const fs = await import("node:fs");
  fs.copyFileSync("test/extension-runner/package.json", "dist/test/extension-runner/package.json");
}
