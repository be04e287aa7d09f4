/**
 * Entry point of a search worker thread (bundled as dist/search-worker.js): searches the targets it is sent,
 * one at a time, posting hits as each file is done, until told to cancel.
 */
import { parentPort } from "node:worker_threads";
import { parseSearchQuery } from "./search-query.js";
import { searchTarget } from "./search-target.js";
import { emptyStats } from "./types.js";
import type { FromSearchWorker, ToSearchWorker } from "./worker-protocol.js";

const port = parentPort;
if (!port) throw new Error("search-worker must run in a worker thread");

let current: { searchId: number; abort: AbortController } | undefined;

function post(msg: FromSearchWorker): void {
  port?.postMessage(msg);
}

port.on("message", (msg: ToSearchWorker) => {
  if (msg.type === "cancel") {
    if (current?.searchId === msg.searchId) current.abort.abort();
    return;
  }
  const { searchId } = msg;
  const abort = new AbortController();
  current = { searchId, abort };
  const stats = emptyStats();
  void searchTarget(
    msg.target,
    parseSearchQuery(msg.query),
    (hit) => post({ type: "hit", searchId, hit }),
    stats,
    abort.signal,
  ).then(() => {
    if (current?.abort === abort) current = undefined;
    post({ type: "done", searchId, stats });
  });
});

post({ type: "ready" });
