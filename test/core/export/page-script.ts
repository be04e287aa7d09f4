/** Builds the export page script (webview/export/main.tsx) with esbuild's API, as esbuild.mjs does. */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { tempDir } from "../../util/temp-dir.js";

/** The bundled page script's source. */
export async function buildPageScript(): Promise<string> {
  const out = tempDir("agent-tree-export-js-").dir;
  try {
    await esbuild.build({
      entryPoints: { export: join(__dirname, "../../../webview/export/main.tsx") },
      bundle: true,
      platform: "browser",
      format: "iife",
      target: "chrome120",
      outdir: out,
      jsx: "automatic",
      jsxImportSource: "preact",
      minify: true,
      logLevel: "silent",
    });
    return await readFile(join(out, "export.js"), "utf8");
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}
