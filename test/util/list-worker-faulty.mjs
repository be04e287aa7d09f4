// The session listing's worker, made faulty for tests: reading a session whose file name holds "crash" ends the
// worker thread before its answer is sent (as running out of memory on a huge file would); one whose name holds
// "hang" holds the thread for good, as a slow read of a huge file does until the worker is terminated.
import { parentPort } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const hold = new Int32Array(new SharedArrayBuffer(4));
const post = parentPort.postMessage.bind(parentPort);
parentPort.postMessage = (msg) => {
  const file = msg.outcome?.info?.path ?? "";
  if (file.includes("crash")) process.exit(3);
  if (file.includes("hang")) Atomics.wait(hold, 0, 0);
  post(msg);
};
await import("../../src/core/session/list-worker.ts");
