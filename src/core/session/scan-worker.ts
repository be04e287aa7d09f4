/**
 * Entry point of the parallel scan's worker thread (bundled as dist/scan-worker.js; see parallel-scan.ts): claims
 * the pieces of a big session file from its end towards its start, scans each on its own and posts it, until it
 * meets a piece the caller's thread has claimed.
 */
import { workerData } from "node:worker_threads";
import { ABANDONED, CLAIMED_BY_WORKER, encodePart, FINISHED, STATUS_SLOTS, transferOf } from "./scan-transfer.js";
import type { PieceMessage, ScanWorkerData } from "./scan-transfer.js";
import { scanFilePiece } from "./session-scan.js";
import { errorText } from "../error-text.js";

const { fd, fileSize, bounds, shared, port, opts } = workerData as ScanWorkerData;
try {
  for (let k = bounds.length - 2; k >= 1; k--) {
    if (Atomics.load(shared, ABANDONED) !== 0) break;
    if (Atomics.compareExchange(shared, STATUS_SLOTS + k, 0, CLAIMED_BY_WORKER) !== 0) break;
    let msg: PieceMessage;
    let transfer: ArrayBuffer[] = [];
    try {
      const part = encodePart(scanFilePiece(fd, fileSize, bounds[k], bounds[k + 1], opts));
      msg = { piece: k, part };
      transfer = transferOf(part);
    } catch (e) {
      // The caller scans this piece itself; the pieces below are left to it too.
      port.postMessage({ piece: k, error: errorText(e) } satisfies PieceMessage);
      break;
    }
    port.postMessage(msg, transfer);
  }
} finally {
  Atomics.store(shared, FINISHED, 1);
  Atomics.notify(shared, FINISHED);
  port.close();
}
