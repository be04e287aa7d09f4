/**
 * Runs the HTML conversion (html-to-markdown.ts) in a worker thread when its bundle is there
 * (dist/tools/html-worker.mjs, beside the extension's bundle): a 3 MB page takes seconds, during which the extension
 * host must keep serving the UI. Without the bundle (tests, the core used as a library) it runs in the caller's
 * thread, the converter loaded then (lazy-parts.ts). A conversion that outlives its time limit, or whose call is
 * aborted, is stopped by ending the worker.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { loadHtmlConvert } from "../lazy-parts.js";
import type { PageMarkdown } from "./html-to-markdown.js";

/** What the worker is given. */
export interface HtmlWorkerTask {
  html: string;
  url: string;
}

/** What the worker answers. */
export type HtmlWorkerReply = { ok: true; page: PageMarkdown } | { ok: false; error: string };

/** Options of `convertHtml`. */
export interface HtmlConvertOptions {
  /** The worker's script; `false`: in this thread; default: dist/tools/html-worker.mjs when it is there. */
  workerScript?: string | false;
  /** Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** A conversion that did not finish (time limit, abort, the worker failed). */
export class HtmlConvertError extends Error {}

const DEFAULT_TIMEOUT_MS = 30_000;
/** The worker's heap: a page of a few MB needs far less; a pathological one fails instead of growing the host. */
const WORKER_HEAP_MB = 512;

/** The worker's bundle (dist/tools, see lazy-parts.ts) next to the extension's, if this code runs from one. */
function bundledWorker(): string | undefined {
  if (typeof __dirname !== "string") return undefined;
  const script = path.join(__dirname, "tools", "html-worker.mjs");
  return existsSync(script) ? script : undefined;
}

/** Converts `html` fetched from `url`: see the file comment. */
export async function convertHtml(html: string, url: string, options: HtmlConvertOptions = {}): Promise<PageMarkdown> {
  const script = options.workerScript === undefined ? bundledWorker() : options.workerScript;
  if (script === false || script === undefined) return (await loadHtmlConvert()).htmlToMarkdown(html, url);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const task: HtmlWorkerTask = { html, url };
  const worker = new Worker(script, { workerData: task, resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
  return new Promise<PageMarkdown>((resolve, reject) => {
    let settled = false;
    const finish = (fn: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      fn();
    };
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(new HtmlConvertError(`Converting the page took over ${timeoutMs / 1000} seconds; stopped.`)),
        ),
      timeoutMs,
    );
    const onAbort = (): void => finish(() => reject(new HtmlConvertError("Aborted.")));
    if (options.signal?.aborted) return onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    worker.once("message", (reply: HtmlWorkerReply) =>
      finish(() =>
        reply.ok ? resolve(reply.page) : reject(new HtmlConvertError(`Converting the page failed: ${reply.error}`)),
      ),
    );
    worker.once("error", (e) => finish(() => reject(new HtmlConvertError(`Converting the page failed: ${e.message}`))));
    worker.once("exit", (code) =>
      finish(() => reject(new HtmlConvertError(`Converting the page failed: the worker ended (code ${code}).`))),
    );
  });
}
