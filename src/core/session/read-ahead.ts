/**
 * Reading a big session file ahead of its scan, on another thread. Copying a 300 MB file out of the page cache
 * costs ~50 ms of the thread that reads it (the raw floor's own cost), and the scan of its lines is JavaScript
 * that cannot start on a part before that part is read: a worker thread reads the next parts into a ring of
 * slots in shared memory while the scan reads the current one, so on a machine with a core to spare the copy
 * leaves the scan's thread.
 *
 * The file is cut into parts of `slotBytes` (part i is bytes [i × slotBytes, (i + 1) × slotBytes)), read in order
 * into slot i mod `slots`. Either thread claims the next part to read with one atomic add: the worker claims
 * them as soon as it runs, and until it does (a worker thread takes tens of milliseconds to start) — or when it
 * falls behind — the scan's thread reads the part it needs itself, so waiting for the worker is never slower than
 * reading. A slot is read over only after the scan released the part in it. The worker reads through the scan's
 * own descriptor (the very file that was opened and checked), and is out of every read before close() returns,
 * so the descriptor can be closed after.
 *
 * A read the worker could not do (an I/O error) is marked, and the scan's thread reads that part again itself:
 * the error is thrown where it would have been without the worker.
 */
import * as fs from "node:fs";
import { Worker } from "node:worker_threads";

// Cells of the control array.
/** The next part nobody claimed yet. */
const NEXT = 0;
/** Parts below this were released by the scan (their slots may be read over). */
const RELEASED = 1;
/** Set by close(): the worker stops. */
const STOP = 2;
/** 1 while the worker is inside a read (close() waits for 0). */
const ACTIVE = 3;
/** Parts the worker read (for tests: the ring works with the worker in it, not only without). */
const WORKER_PARTS = 4;
/** One cell per slot: the part it holds + 1 once read, -(part + 1) when the worker's read failed. */
const READY = 5;

/** Longest wait for a change of the control array (then it is looked at again). */
const WAIT_MS = 100;
/** Waits for the worker's read of a part before the part is read here instead (2 s). */
const GIVE_UP_WAITS = 20;

/**
 * The worker's code, run with `eval` (CommonJS): no bundle of its own to find, the same under the extension's
 * bundle, the benchmark's and the tests' TypeScript loader. It only reads.
 */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { readSync } = require("node:fs");
const { fd, size, slotBytes, slots, shared, control } = workerData;
const ctl = new Int32Array(control);
const data = new Uint8Array(shared);
for (;;) {
  if (Atomics.load(ctl, ${STOP}) !== 0) break;
  const part = Atomics.add(ctl, ${NEXT}, 1);
  const at = part * slotBytes;
  if (at >= size) break;
  // The slot is free once the part read into it before was released.
  for (;;) {
    const released = Atomics.load(ctl, ${RELEASED});
    if (released > part - slots || Atomics.load(ctl, ${STOP}) !== 0) break;
    Atomics.wait(ctl, ${RELEASED}, released, 100);
  }
  Atomics.store(ctl, ${ACTIVE}, 1);
  if (Atomics.load(ctl, ${STOP}) !== 0) {
    Atomics.store(ctl, ${ACTIVE}, 0);
    Atomics.notify(ctl, ${ACTIVE});
    break;
  }
  const length = Math.min(slotBytes, size - at);
  const from = (part % slots) * slotBytes;
  let done = 0;
  try {
    while (done < length) {
      const n = readSync(fd, data, from + done, length - done, at + done);
      if (n === 0) break;
      done += n;
    }
  } catch {
    done = -1;
  }
  Atomics.store(ctl, ${ACTIVE}, 0);
  Atomics.notify(ctl, ${ACTIVE});
  if (done === length) Atomics.add(ctl, ${WORKER_PARTS}, 1);
  Atomics.store(ctl, ${READY} + (part % slots), done === length ? part + 1 : -(part + 1));
  Atomics.notify(ctl, ${READY} + (part % slots));
}
`;

/** Reads `size` bytes of the open file `fd` ahead of their use (see the file comment). */
export class ReadAhead {
  private readonly ctl: Int32Array;
  private readonly data: Buffer;
  private readonly worker: Worker | undefined;
  private closed = false;

  constructor(
    private readonly fd: number,
    private readonly size: number,
    readonly slotBytes: number,
    private readonly slots: number,
  ) {
    const shared = new SharedArrayBuffer(slotBytes * slots);
    const control = new SharedArrayBuffer(4 * (READY + slots));
    this.ctl = new Int32Array(control);
    this.data = Buffer.from(shared);
    try {
      this.worker = new Worker(WORKER_SOURCE, {
        eval: true,
        workerData: { fd, size, slotBytes, slots, shared, control },
      });
      // Never keeps the process alive, and a failure to start only means this thread reads every part.
      this.worker.unref();
      this.worker.on("error", () => undefined);
    } catch {
      this.worker = undefined;
    }
  }

  /** The number of parts. */
  get parts(): number {
    return Math.ceil(this.size / this.slotBytes);
  }

  /** How many parts the worker read so far. */
  get partsReadByWorker(): number {
    return Atomics.load(this.ctl, WORKER_PARTS);
  }

  /**
   * The bytes of part `part` (a view of its slot: valid until the part is released). Parts are asked for in
   * order, each after the ones before it were released.
   */
  part(part: number): Buffer {
    const cell = READY + (part % this.slots);
    const from = (part % this.slots) * this.slotBytes;
    const length = Math.min(this.slotBytes, this.size - part * this.slotBytes);
    for (let waited = 0; ; waited++) {
      const state = Atomics.load(this.ctl, cell);
      if (state === part + 1) return this.data.subarray(from, from + length);
      if (
        state === -(part + 1) ||
        Atomics.compareExchange(this.ctl, NEXT, part, part + 1) === part ||
        // A worker that claimed the part and did not read it in seconds (stopped, or starved of CPU): the part is
        // read here too (the same bytes into the same slot, so whichever write lands last writes what the other did).
        waited >= GIVE_UP_WAITS
      ) {
        // Not claimed by the worker (or its read failed): read here. A file cut short since its size was taken
        // gives fewer bytes, as a read of this thread would.
        let done = 0;
        while (done < length) {
          const n = fs.readSync(this.fd, this.data, from + done, length - done, part * this.slotBytes + done);
          if (n === 0) break;
          done += n;
        }
        Atomics.store(this.ctl, cell, part + 1);
        return this.data.subarray(from, from + done);
      }
      // The worker is reading it.
      Atomics.wait(this.ctl, cell, state, WAIT_MS);
    }
  }

  /** Parts below `part` are not used any more: their slots may be read over. */
  release(part: number): void {
    if (Atomics.load(this.ctl, RELEASED) >= part) return;
    Atomics.store(this.ctl, RELEASED, part);
    Atomics.notify(this.ctl, RELEASED);
  }

  /** Stops the worker; returns once it is out of every read (the descriptor may be closed then). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.ctl, STOP, 1);
    Atomics.notify(this.ctl, RELEASED);
    while (Atomics.load(this.ctl, ACTIVE) === 1) Atomics.wait(this.ctl, ACTIVE, 1, 100);
    void this.worker?.terminate();
  }
}
