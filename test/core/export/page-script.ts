/** Builds the export page script (webview/export/main.tsx) with esbuild's API, as esbuild.mjs does. */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as esbuild from "esbuild";

/** The bundled page script's source. */
export async function buildPageScript(): Promise<string> {
  const out = await mkdtemp(join(tmpdir(), "agent-tree-export-js-"));
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
