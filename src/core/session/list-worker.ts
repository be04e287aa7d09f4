/**
 * Entry point of the session listing's worker thread (bundled as dist/list-worker.js): reads the files it is sent,
 * one at a time, and posts each one's SessionInfo back. A file of 100 MB takes about a second to read; here that
 * second is not the extension host's.
 */
import { parentPort } from "node:worker_threads";
import type { FromListWorker, ToListWorker } from "./list-worker-protocol.js";
import { readSessionInfo } from "./session-info.js";

const port = parentPort;
if (!port) throw new Error("list-worker must run in a worker thread");

function post(msg: FromListWorker): void {
  port?.postMessage(msg);
}

port.on("message", (msg: ToListWorker) => {
  post({ type: "read", id: msg.id, outcome: readSessionInfo(msg.file, msg.facts) });
});

post({ type: "ready" });
