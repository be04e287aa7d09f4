/**
 * The HTML export of big sessions (`npm run bench -- --export-only`, or `node --import tsx
 * bench/export/measure-export.ts`): generated sessions (a 30,000-entry line and a bushy tree; 5,000 entries with
 * --quick) written to a page, its size against the JSONL's, and the page opened in headless Chromium from the
 * file: the time to its first paint of tree and path, a search over the whole tree, and how many elements the page
 * holds. Printed, never written.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { writeSessionHtml } from "../../src/core/export/export-session.js";
import { launchHeadless } from "../../test/util/chromium.js";
import { buildPageScript } from "../../test/core/export/page-script.js";
import { writeBushy, writeLinear } from "../generate/shapes.js";
import { printAlone } from "../print-alone.js";

/** One session's figures. */
export interface ExportCase {
  name: string;
  entries: number;
  jsonlBytes: number;
  htmlBytes: number;
  exportMs: number;
  openMs: number;
  searchMs: number;
  elements: number;
}

/** Export and open each session once (a page takes seconds; the figures are for orientation, not a verdict). */
export async function measureExport(quick = process.argv.includes("--quick")): Promise<ExportCase[]> {
  const dir = mkdtempSync(join(tmpdir(), "agent-tree-bench-export-"));
  const browser = await launchHeadless();
  try {
    const pageScript = await buildPageScript();
    const shapes = [
      { name: "line", write: (p: string) => writeLinear(p, quick ? 5000 : 30_000, 7) },
      { name: "bushy", write: (p: string) => writeBushy(p, quick ? 500 : 3000, 7) },
    ];
    const cases: ExportCase[] = [];
    for (const shape of shapes) {
      const jsonl = join(dir, `${shape.name}.jsonl`);
      shape.write(jsonl);
      const sm = await SessionManager.open(jsonl);
      const html = join(dir, `${shape.name}.html`);
      let t = performance.now();
      const htmlBytes = await writeSessionHtml(sm, html, { pageScript });
      const exportMs = performance.now() - t;
      const entries = sm.getEntries().length;
      await sm.close();
      const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
      // Offline, as a reader opens it: only the file itself.
      await page.route("**/*", (r) => (r.request().url().startsWith("file:") ? r.continue() : r.abort()));
      t = performance.now();
      await page.goto(pathToFileURL(html).href);
      await page.waitForSelector("body[data-ready=true]", { timeout: 120_000 });
      const openMs = performance.now() - t;
      t = performance.now();
      await page.fill("#search", "the");
      await page.evaluate("new Promise((r) => requestAnimationFrame(() => r(0)))");
      const searchMs = performance.now() - t;
      const elements = (await page.evaluate("document.getElementsByTagName('*').length")) as number;
      await page.close();
      cases.push({
        name: shape.name,
        entries,
        jsonlBytes: statSync(jsonl).size,
        htmlBytes,
        exportMs,
        openMs,
        searchMs,
        elements,
      });
    }
    return cases;
  } finally {
    await browser.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The printed lines, one per session. */
export function exportLines(cases: readonly ExportCase[]): string[] {
  return cases.map(
    (c) =>
      `export ${c.name} (${c.entries.toLocaleString("en-US")} entries, ${mb(c.jsonlBytes)} JSONL): page ${mb(c.htmlBytes)} ` +
      `(×${(c.htmlBytes / c.jsonlBytes).toFixed(2)}) written in ${c.exportMs.toFixed(0)} ms; opened in Chromium in ` +
      `${c.openMs.toFixed(0)} ms, a search in ${c.searchMs.toFixed(0)} ms, ${c.elements} elements`,
  );
}

if (process.argv[1]?.endsWith("measure-export.ts")) printAlone(measureExport(), exportLines);
