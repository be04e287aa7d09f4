// One build script, several bundles: the extension host (Node, CJS, `vscode` external)
// and the webview apps (browser IIFE). `--production` minifies and drops source maps.
import * as esbuild from "esbuild";

const production = process.argv.includes("--production");
const watch = process.argv.includes("--watch");

/**
 * The model library (@earendil-works/pi-ai) is ES modules only and loads each provider's SDK in a lazy chunk. The
 * CommonJS bundles do not include it: `src/core/providers/pi-ai.ts` imports `./pi-ai-runtime.mjs`, which this
 * plugin points at the separate ES module bundle below (`dist/pi-ai/runtime.mjs`), left as a real `import()` that
 * Node runs on the first model use. `fromOut` is the path from the bundle's own folder to `dist/pi-ai`.
 */
function piAiRuntimeExternal(fromOut) {
  return {
    name: "pi-ai-runtime-external",
    setup(build) {
      build.onResolve({ filter: /\/pi-ai-runtime\.mjs$/ }, () => ({ path: `${fromOut}/runtime.mjs`, external: true }));
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

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  {
    // The session search's worker threads load their own bundle (src/core/search/session-search.ts).
    entryPoints: { extension: "src/host/extension.ts", "search-worker": "src/core/search/search-worker.ts" },
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
    define: NODE_GLOBALS,
    // jsonc-parser's default (UMD) build loads its parts with a require() esbuild cannot follow; its ES build bundles.
    alias: { "jsonc-parser": "./node_modules/jsonc-parser/lib/esm/main.js" },
    plugins: [piAiRuntimeExternal("./pi-ai")],
    outdir: "dist",
    sourcemap: !production,
    minify: production,
    logLevel: "warning",
  },
  {
    // The model library, loaded on first model use (see piAiRuntimeExternal): the catalog and pi-ai's runtime in
    // runtime.mjs, each provider's SDK in a chunk of its own that loads with the provider's first request.
    entryPoints: { runtime: "src/core/providers/pi-ai-runtime.mts" },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outdir: "dist/pi-ai",
    outExtension: { ".js": ".mjs" },
    define: NODE_GLOBALS,
    chunkNames: "chunks/[name]-[hash]",
    // Some SDKs call require() for Node built-ins; an ES module has none of its own (pi-ai README, "Bundling").
    banner: {
      js: 'import { createRequire as __piAiRequire } from "node:module"; const require = __piAiRequire(import.meta.url);',
    },
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
    plugins: [piAiRuntimeExternal("../../pi-ai")],
    define: NODE_GLOBALS,
    outdir: "dist",
    sourcemap: true,
    logLevel: "warning",
  });
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
