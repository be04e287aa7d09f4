/**
 * "Agent: Export Session to HTML" / "Export Branch…": one self-contained HTML file per session.
 * The page script is the esbuild bundle `dist/export.js` (entry webview/export/main.tsx); callers pass it in
 * (`pageScript`) or say where the built assets are (`assetsDir`, normally `<extensionRoot>/dist`).
 */
import { readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildExportData, type ExportOptions, type ExportSource } from "./build-export-data.js";
import { renderExportHtml } from "./html-template.js";
import { errorText } from "../error-text.js";

/** Name of the page bundle inside `assetsDir`. */
export const EXPORT_SCRIPT_FILE = "export.js";

/** Options of {@link exportSessionToHtml}. */
export interface ExportHtmlOptions extends ExportOptions {
  /** The page script's source. */
  pageScript?: string;
  /** Folder holding export.js (used when pageScript is not given). */
  assetsDir?: string;
}

/** Read the page bundle, with an error that says how to produce it. */
export async function loadExportPageScript(assetsDir: string): Promise<string> {
  const path = join(assetsDir, EXPORT_SCRIPT_FILE);
  try {
    return await readFile(path, "utf8");
  } catch (err) {
    const reason = errorText(err);
    throw new Error(`Cannot export: the page script ${path} is missing (run "npm run build"). ${reason}`);
  }
}

/** The export page for a session, as a string. */
export async function exportSessionToHtml(source: ExportSource, opts: ExportHtmlOptions = {}): Promise<string> {
  let script = opts.pageScript;
  if (script === undefined) {
    if (opts.assetsDir === undefined) throw new Error("Cannot export: pass pageScript or assetsDir.");
    script = await loadExportPageScript(opts.assetsDir);
  }
  return renderExportHtml(buildExportData(source, opts), script);
}

/**
 * Write the export page to `outPath` (through a temporary file and a rename, so a failed export never leaves a
 * half-written page behind). Returns the number of bytes written.
 */
export async function writeSessionHtml(
  source: ExportSource,
  outPath: string,
  opts: ExportHtmlOptions = {},
): Promise<number> {
  const html = await exportSessionToHtml(source, opts);
  const tmp = `${outPath}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, html, "utf8");
  await rename(tmp, outPath);
  return Buffer.byteLength(html, "utf8");
}
