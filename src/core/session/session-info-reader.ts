/**
 * Who reads the session files of a listing (session-list.ts): worker threads when given their script, so reading a
 * file of 100 MB (about a second) never holds the caller's event loop, else the caller's thread, a file per turn of
 * its event loop.
 *
 * The workers start on the first read and stay up, idle and unreferenced, for the next listing until `dispose()`. A
 * script that cannot start turns the reader into the in-thread one for good; a worker that dies on a file has that
 * file read here instead (nothing is lost) and is replaced. A read whose signal aborts while a worker is on it
 * terminates that worker: the work stops at once, and a new worker starts for the next read.
 */
import { availableParallelism } from "node:os";
import { resolve as resolvePath } from "node:path";
import { Worker } from "node:worker_threads";
import type { FromListWorker, ToListWorker } from "./list-worker-protocol.js";
import { readSessionInfo, type FileFacts, type InfoOutcome } from "./session-info.js";

/** Options of a {@link SessionInfoReader}. */
export interface SessionInfoReaderOptions {
  /** The worker entry (dist/list-worker.js); none: the caller's thread. */
  workerScript?: string;
  /** Worker threads (default: the number of cores, at most 2). */
  workers?: number;
}

/** One file to read, and the promise waiting for it. */
interface Job {
  id: number;
  file: string;
  facts: FileFacts;
  signal: AbortSignal | undefined;
  resolve(outcome: InfoOutcome): void;
  reject(reason: unknown): void;
  /** Drops the job when its signal aborts. */
  onAbort(): void;
}

/** One worker thread and the file it is on. */
interface Slot {
  worker: Worker;
  /** The script has loaded (one that exits before cannot run at all). */
  online: boolean;
  job: Job | undefined;
}

/** See the file comment. */
export class SessionInfoReader {
  private readonly slots: Slot[] = [];
  /** Files waiting for a free worker. */
  private readonly queue: Job[] = [];
  /** Files read in this thread (no workers, or theirs failed), one per turn of the event loop. */
  private readonly here: Job[] = [];
  private draining = false;
  private failed = false;
  private disposed = false;
  private nextId = 1;
  /** Files a worker read (for tests and the benchmark: the workers did the work). */
  readInWorkers = 0;

  constructor(private readonly options: SessionInfoReaderOptions = {}) {}

  /** How many files a listing hands over at once: one per worker, one in the caller's thread. */
  get parallel(): number {
    return this.usesWorkers() ? this.wanted() : 1;
  }

  /**
   * The SessionInfo of `file` as `facts` (its stat) describe it. Never rejects for the file's sake (an error reading
   * it is the outcome's `error`); rejects with the signal's reason once `signal` aborts, or when disposed.
   */
  read(file: string, facts: FileFacts, signal?: AbortSignal): Promise<InfoOutcome> {
    if (this.disposed) return Promise.reject(new Error("SessionInfoReader is disposed"));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<InfoOutcome>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        file,
        facts,
        signal,
        resolve: (outcome) => {
          signal?.removeEventListener("abort", job.onAbort);
          resolve(outcome);
        },
        reject: (reason) => {
          signal?.removeEventListener("abort", job.onAbort);
          reject(reason);
        },
        onAbort: () => this.drop(job),
      };
      signal?.addEventListener("abort", job.onAbort, { once: true });
      if (this.usesWorkers()) {
        this.queue.push(job);
        this.pump();
      } else this.readHere([job]);
    });
  }

  /** Stop the workers; reads not done reject. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const gone = new Error("SessionInfoReader is disposed");
    for (const job of this.queue.splice(0)) job.reject(gone);
    for (const job of this.here.splice(0)) job.reject(gone);
    const slots = this.slots.splice(0);
    for (const s of slots) s.job?.reject(gone);
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private wanted(): number {
    return Math.max(1, this.options.workers ?? Math.min(2, availableParallelism()));
  }

  private usesWorkers(): boolean {
    return this.options.workerScript !== undefined && !this.failed && !this.disposed;
  }

  /** A job whose signal aborted: forgotten wherever it waits; a worker on it is stopped (it may be mid-file). */
  private drop(job: Job): void {
    const reason = job.signal?.reason;
    for (const list of [this.queue, this.here]) {
      const at = list.indexOf(job);
      if (at >= 0) list.splice(at, 1);
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) {
      this.slots.splice(this.slots.indexOf(slot), 1);
      void slot.worker.terminate();
    }
    job.reject(reason);
  }

  /** Hands waiting files to idle workers, starting workers as needed. */
  private pump(): void {
    if (this.queue.length === 0) return;
    try {
      while (this.slots.length < this.wanted()) this.slots.push(this.spawn(this.options.workerScript as string));
    } catch {
      return this.fail([]);
    }
    for (const slot of this.slots) {
      const job = slot.job === undefined ? this.queue.shift() : undefined;
      if (!job) continue;
      slot.job = job;
      slot.worker.ref();
      // Only what the reading needs, as plain data: an fs.Stats computes its dates in getters a copy would lose.
      const { size, mtime, birthtime } = job.facts;
      const msg: ToListWorker = { type: "read", id: job.id, file: job.file, facts: { size, mtime, birthtime } };
      slot.worker.postMessage(msg);
    }
  }

  /** The script cannot run: every worker stops, and what they had and what waits is read in this thread. */
  private fail(unfinished: Job[]): void {
    this.failed = true;
    for (const s of this.slots.splice(0)) {
      if (s.job) unfinished.push(s.job);
      void s.worker.terminate();
    }
    this.readHere([...unfinished.sort((a, b) => a.id - b.id), ...this.queue.splice(0)]);
  }

  /** Reads `jobs` in this thread, one per turn of the event loop, so a long list never holds it for more than a file. */
  private readHere(jobs: Job[]): void {
    this.here.push(...jobs);
    if (this.draining) return;
    this.draining = true;
    const next = (): void => {
      const job = this.here.shift();
      if (!job) {
        this.draining = false;
        return;
      }
      job.resolve(readSessionInfo(job.file, job.facts));
      setImmediate(next);
    };
    setImmediate(next);
  }

  private spawn(script: string): Slot {
    const worker = new Worker(resolvePath(script));
    const slot: Slot = { worker, online: false, job: undefined };
    worker.unref();
    worker.on("message", (msg: FromListWorker) => {
      // A worker stopped on purpose (an aborted read, dispose) may still have a message under way: it counts for
      // nothing, and must not unreference a worker terminate() keeps referenced until it has exited.
      if (!this.slots.includes(slot)) return;
      if (msg.type === "ready") {
        slot.online = true;
        return;
      }
      const job = slot.job;
      if (job?.id !== msg.id) return;
      slot.job = undefined;
      worker.unref();
      this.readInWorkers++;
      job.resolve(msg.outcome);
      this.pump();
    });
    // An exit is handled below with its cause; the error itself needs nothing of its own.
    worker.on("error", () => undefined);
    worker.on("exit", () => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return; // stopped on purpose
      this.slots.splice(at, 1);
      const job = slot.job;
      if (!slot.online) return this.fail(job ? [job] : []);
      // Died on a file (out of memory, say): that file is read here, and the next worker takes the rest.
      if (job) this.readHere([job]);
      this.pump();
    });
    return slot;
  }
}
