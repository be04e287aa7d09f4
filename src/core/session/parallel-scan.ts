/**
 * The parallel scan of a big session file (session-scan.ts, scanWithHelper): the file is cut into pieces of about
 * `pieceBytes`; the caller's thread scans them from the start, a worker thread (scan-worker.ts) from the end, each
 * claiming a piece in a shared slot before it scans it, so they meet wherever their speeds make them meet (the
 * worker starts tens of milliseconds later and warms its own JIT). The open is synchronous, so the caller waits
 * for the worker's last piece with Atomics.wait and takes its messages with receiveMessageOnPort.
 *
 * Nothing is lost when the worker is missing or fails: a worker that cannot start claims nothing (the caller scans
 * every piece), a piece the worker could not scan comes back as an error and is scanned by the caller, and a worker
 * that delivers nothing for `stallMs` is given up on (its pieces are scanned by the caller). The worker's script is
 * configured by whoever bundles it (the extension: dist/scan-worker.js; the bench's child); without one, every scan
 * is the sequential one.
 */
import { performance } from "node:perf_hooks";
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";
import {
  ABANDONED,
  CLAIMED_BY_CALLER,
  decodePart,
  FINISHED,
  STATUS_SLOTS,
  type PieceMessage,
  type ScanWorkerData,
} from "./scan-transfer.js";
import type { ScanOptions, ScanPart } from "./session-scan.js";

/** When and how a session file is scanned by two threads. */
export interface ParallelScanSettings {
  /** The worker's script (a bundle of scan-worker.ts, or a loader of it); undefined: never in parallel. */
  workerScript?: string;
  /** Files from this size on are scanned in parallel. */
  minBytes: number;
  /** About how much of the file a piece is (the last piece a thread claims is what the other may wait for). */
  pieceBytes: number;
  /** A worker that delivers no piece for this long is given up on (its pieces are scanned by the caller). */
  stallMs: number;
}

const settings: ParallelScanSettings = {
  workerScript: undefined,
  minBytes: 64 * 1024 * 1024,
  pieceBytes: 8 * 1024 * 1024,
  stallMs: 10_000,
};

/** Set where the worker's script is and when it is used (see ParallelScanSettings); returns the settings before. */
export function configureParallelScan(change: Partial<ParallelScanSettings>): ParallelScanSettings {
  const before = { ...settings };
  Object.assign(settings, change);
  return before;
}

/** The pieces' bounds: piece k is the lines that start in [b[k], b[k + 1]); b[0] = 0, the last is the size. */
function pieceBounds(fileSize: number, pieceBytes: number): number[] {
  const count = Math.max(1, Math.round(fileSize / Math.max(1, pieceBytes)));
  const bounds: number[] = [];
  for (let k = 0; k < count; k++) bounds.push(Math.floor((fileSize * k) / count));
  bounds.push(fileSize);
  return bounds;
}

/** A worker scanning pieces of one file from its end (see the file comment). */
export class ScanHelper {
  private constructor(
    /** Piece k is the lines that start in [bounds[k], bounds[k + 1]). */
    readonly bounds: number[],
    private readonly worker: Worker,
    private readonly port: MessagePort,
    private readonly shared: Int32Array,
  ) {}

  /**
   * A worker for the file open as `fd` (`fileSize` bytes), or undefined when the file is scanned by one thread:
   * smaller than minBytes, no worker script, one piece only, or a worker that cannot be made.
   */
  static start(fd: number, fileSize: number, opts: ScanOptions): ScanHelper | undefined {
    const script = settings.workerScript;
    if (script === undefined || fileSize < settings.minBytes) return undefined;
    const bounds = pieceBounds(fileSize, settings.pieceBytes);
    if (bounds.length < 3) return undefined;
    const shared = new Int32Array(new SharedArrayBuffer(4 * (STATUS_SLOTS + bounds.length - 1)));
    const { port1, port2 } = new MessageChannel();
    const pieceOpts: ScanOptions = { parseShort: false };
    if (opts.strict === true) pieceOpts.strict = true;
    if (opts.chunkBytes !== undefined) pieceOpts.chunkBytes = opts.chunkBytes;
    const workerData: ScanWorkerData = { fd, fileSize, bounds, shared, port: port2, opts: pieceOpts };
    let worker: Worker;
    try {
      worker = new Worker(script, { workerData, transferList: [port2] });
    } catch {
      port1.close();
      port2.close();
      return undefined;
    }
    // A worker that fails claims nothing more, and what it did not deliver is scanned by the caller: its error is
    // not the open's. It must not keep the process alive either.
    worker.on("error", () => {});
    worker.unref();
    return new ScanHelper(bounds, worker, port1, shared);
  }

  /** Claim piece `k` for the caller's thread; false when the worker has it. */
  claim(k: number): boolean {
    return Atomics.compareExchange(this.shared, STATUS_SLOTS + k, 0, CLAIMED_BY_CALLER) === 0;
  }

  /**
   * Wait for the worker's pieces, `from` (the first piece the caller did not claim) to the last: their scans, in
   * order, undefined for one the worker did not deliver (the caller scans it).
   */
  finish(from: number): (ScanPart | undefined)[] {
    const parts: (ScanPart | undefined)[] = new Array<ScanPart | undefined>(this.bounds.length - 1 - from);
    let heard = performance.now();
    const take = (): void => {
      for (let m = receiveMessageOnPort(this.port); m !== undefined; m = receiveMessageOnPort(this.port)) {
        const msg = m.message as PieceMessage;
        heard = performance.now();
        if ("part" in msg && msg.piece >= from) parts[msg.piece - from] = decodePart(msg.part);
      }
    };
    for (;;) {
      take();
      if (Atomics.load(this.shared, FINISHED) !== 0) {
        take(); // what was posted before FINISHED was set
        break;
      }
      if (performance.now() - heard > settings.stallMs) break;
      Atomics.wait(this.shared, FINISHED, 0, 50);
    }
    return parts;
  }

  /** Wait up to `ms` for the worker to have claimed and scanned all it will; true when it has (tests hold the race still). */
  settle(ms: number): boolean {
    const until = performance.now() + ms;
    while (Atomics.load(this.shared, FINISHED) === 0 && performance.now() < until)
      Atomics.wait(this.shared, FINISHED, 0, 20);
    return Atomics.load(this.shared, FINISHED) !== 0;
  }

  /** Let the worker go (it stops before its next piece). */
  stop(): void {
    Atomics.store(this.shared, ABANDONED, 1);
    this.port.close();
    void this.worker.terminate();
  }
}
