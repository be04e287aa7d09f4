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
 * falls behind — the scan's thread reads the part it needs itself; it waits at most a few milliseconds for a part
 * the worker claimed (a busy machine may not run the worker). A slot is read over only after the scan released
 * the part in it. The worker reads through the scan's
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
/** The part the worker is reading + 1, 0 when it is not inside a read (close() waits for 0). */
const ACTIVE = 3;
/** Parts the worker read (for tests: the ring works with the worker in it, not only without). */
const WORKER_PARTS = 4;
/** The worker waits for RELEASED to reach this (see release()). */
const WANT = 5;
/** One cell per slot: the part it holds + 1 once read, -(part + 1) when the worker's read failed. */
const READY = 6;

/** How long the scan waits for a part the worker is reading before it reads the part itself (ms, twice). */
const WAIT_MS = 1;
const GIVE_UP_WAITS = 2;

/**
 * The worker's code, run with `eval` (CommonJS): no bundle of its own to find, the same under the extension's
 * bundle, the benchmark's and the tests' TypeScript loader. It only reads.
 *
 * The scan may read a part itself that the worker claimed (it does not wait long for a worker that is starved of
 * CPU), and then moves on and reads later parts into the same slots: so the worker announces the part it is about
 * to read (ACTIVE) before it looks whether that part was released already, and the scan looks at ACTIVE after it
 * released the part and before it reads into that slot. With sequentially consistent atomics one of the two sees
 * the other: the worker skips the part, or the scan waits for the worker's read to end.
 */
const WORKER_SOURCE = `
const { workerData } = require("node:worker_threads");
const { readSync } = require("node:fs");
const { fd, size, slotBytes, slots, batch, shared, control } = workerData;
const ctl = new Int32Array(control);
const data = new Uint8Array(shared);
for (;;) {
  if (Atomics.load(ctl, ${STOP}) !== 0) break;
  const part = Atomics.add(ctl, ${NEXT}, 1);
  const at = part * slotBytes;
  if (at >= size) break;
  // The slot is free once the part read into it before was released. When the ring is full the worker sleeps
  // until several slots are free (WANT), not one: a wake-up per part cost the scan's thread ~1 ms each on a
  // busy machine.
  if (Atomics.load(ctl, ${RELEASED}) <= part - slots) {
    Atomics.store(ctl, ${WANT}, part - slots + batch);
    for (;;) {
      const released = Atomics.load(ctl, ${RELEASED});
      if (released > part - slots || Atomics.load(ctl, ${STOP}) !== 0) break;
      Atomics.wait(ctl, ${RELEASED}, released, 100);
    }
  }
  Atomics.store(ctl, ${ACTIVE}, part + 1);
  const stop = Atomics.load(ctl, ${STOP}) !== 0;
  if (stop || Atomics.load(ctl, ${RELEASED}) > part) {
    // Stopped, or the scan read this part itself and went past it.
    Atomics.store(ctl, ${ACTIVE}, 0);
    Atomics.notify(ctl, ${ACTIVE});
    if (stop) break;
    continue;
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
  if (done === length) Atomics.add(ctl, ${WORKER_PARTS}, 1);
  // READY before ACTIVE: a scan that waited for ACTIVE to clear finds this part's mark set, and its own mark for a
  // later part in this slot is never written over by this one.
  Atomics.store(ctl, ${READY} + (part % slots), done === length ? part + 1 : -(part + 1));
  Atomics.notify(ctl, ${READY} + (part % slots));
  Atomics.store(ctl, ${ACTIVE}, 0);
  Atomics.notify(ctl, ${ACTIVE});
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
        workerData: { fd, size, slotBytes, slots, batch: Math.max(1, slots >> 1), shared, control },
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
    const slot = part % this.slots;
    const cell = READY + slot;
    const from = slot * this.slotBytes;
    const length = Math.min(this.slotBytes, this.size - part * this.slotBytes);
    for (let waited = 0; ; waited++) {
      const state = Atomics.load(this.ctl, cell);
      if (state === part + 1) return this.data.subarray(from, from + length);
      if (
        state === -(part + 1) ||
        Atomics.compareExchange(this.ctl, NEXT, part, part + 1) === part ||
        waited >= GIVE_UP_WAITS
      )
        return this.readHere(part, from, length);
      // The worker claimed it: it is reading it, or about to.
      Atomics.wait(this.ctl, cell, state, WAIT_MS);
    }
  }

  /**
   * Part `part` read by this thread into its slot (not claimed by the worker, or the worker's read failed or is
   * late). A file cut short since its size was taken gives fewer bytes, as a read of this thread would.
   */
  private readHere(part: number, from: number, length: number): Buffer {
    const slot = part % this.slots;
    // The worker may still be reading an earlier part into this slot (see WORKER_SOURCE): that read ends first.
    // The same part is the same bytes: both reads may run.
    for (;;) {
      const active = Atomics.load(this.ctl, ACTIVE);
      if (active === 0 || active === part + 1 || (active - 1) % this.slots !== slot) break;
      Atomics.wait(this.ctl, ACTIVE, active, 100);
    }
    let done = 0;
    while (done < length) {
      const n = fs.readSync(this.fd, this.data, from + done, length - done, part * this.slotBytes + done);
      if (n === 0) break;
      done += n;
    }
    Atomics.store(this.ctl, READY + slot, part + 1);
    return this.data.subarray(from, from + done);
  }

  /** Parts below `part` are not used any more: their slots may be read over. */
  release(part: number): void {
    if (Atomics.load(this.ctl, RELEASED) >= part) return;
    Atomics.store(this.ctl, RELEASED, part);
    // The worker stores WANT before it looks at RELEASED and sleeps: it sees this part released, or this sees
    // that it waits for it.
    if (part >= Atomics.load(this.ctl, WANT)) Atomics.notify(this.ctl, RELEASED);
  }

  /** Stops the worker; returns once it is out of every read (the descriptor may be closed then). */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    Atomics.store(this.ctl, STOP, 1);
    Atomics.notify(this.ctl, RELEASED);
    for (let active = Atomics.load(this.ctl, ACTIVE); active !== 0; active = Atomics.load(this.ctl, ACTIVE))
      Atomics.wait(this.ctl, ACTIVE, active, 100);
    void this.worker?.terminate();
  }
}
