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
      plugins: [piAiRuntimeExternal("../../pi-ai")],
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

const existing = [];
for (const b of builds) {
  const fs = await import("node:fs");
  b.entryPoints = Object.fromEntries(Object.entries(b.entryPoints).filter(([, p]) => fs.existsSync(p)));
  if (Object.keys(b.entryPoints).length > 0) existing.push(b);
}

// The model library's chunks are named by their content's hash: without this, a build would leave the previous
// build's chunks beside its own, and the .vsix would carry both.
if (!watch) (await import("node:fs")).rmSync("dist/pi-ai", { recursive: true, force: true });

if (watch) {
  for (const b of existing) await (await esbuild.context(b)).watch();
} else {
  await Promise.all(existing.map((b) => esbuild.build(b)));
}
if (tests) {
  const fs = await import("node:fs");
  fs.copyFileSync("test/extension-runner/package.json", "dist/test/extension-runner/package.json");
}
