/**
 * Entry point of the worker thread that turns a fetched HTML page into Markdown (bundled as dist/tools/html-worker.mjs):
 * a large page takes seconds of CPU, which must not stop the extension host. Converts the one page it is given
 * (`workerData`), posts the result and ends.
 */
import { parentPort, workerData } from "node:worker_threads";
import { errorText } from "../../error-text.js";
import { htmlToMarkdown } from "./html-to-markdown.js";
import type { HtmlWorkerReply, HtmlWorkerTask } from "./html-convert.js";

const port = parentPort;
if (!port) throw new Error("html-worker must run in a worker thread");
const task = workerData as HtmlWorkerTask;
let reply: HtmlWorkerReply;
try {
  reply = { ok: true, page: htmlToMarkdown(task.html, task.url) };
} catch (e) {
  reply = { ok: false, error: errorText(e) };
}
port.postMessage(reply);
