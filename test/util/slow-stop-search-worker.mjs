// The search worker, made slow to stop: after each `done` its thread is blocked for half a second in a child
// process, which terminate() cannot interrupt — as a worker still reading a file on a busy machine takes a while.
import { execFileSync } from "node:child_process";
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (msg) => {
  post(msg);
  if (msg.type === "done") execFileSync(process.execPath, ["-e", "setTimeout(() => {}, 500)"]);
};
await import("../../src/core/search/search-worker.ts");
