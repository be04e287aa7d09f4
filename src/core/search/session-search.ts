/**
 * A search over many session files: hits are reported as each file is done, newest files first, until every
 * file is read, `maxHits` are found or the signal aborts.
 *
 * With a worker script the files are spread over worker threads (one file each at a time, the next one
 * handed to whichever is free), so the scan uses every core and the caller's thread only relays hits; the
 * workers stay up for the next search until `dispose()`. Without one — or when the workers cannot start —
 * files are searched in the caller's thread, one by one.
 */
import { availableParallelism } from "node:os";
import { resolve } from "node:path";
import { Worker } from "node:worker_threads";
import { parseSearchQuery, type SearchQuery } from "./search-query.js";
import { searchTarget } from "./search-target.js";
import { addStats, emptyStats, type SearchStats, type SearchTarget, type SessionSearchHit } from "./types.js";
import type { FromSearchWorker, ToSearchWorker } from "./worker-protocol.js";

/** Hits a search reports at most unless told otherwise. */
export const DEFAULT_MAX_HITS = 500;

/** Options of one search. */
export interface SearchRunOptions {
  signal?: AbortSignal;
  /** Stop after this many hits (default {@link DEFAULT_MAX_HITS}). */
  maxHits?: number;
}

/** How a search ended. */
export interface SearchOutcome {
  stats: SearchStats;
  /** Stopped at `maxHits`: more may exist. */
  truncated: boolean;
  /** Stopped by the signal (or by a newer search, or by dispose()). */
  cancelled: boolean;
  /** Worker threads that searched (0: all of it ran in the caller's thread). */
  workers: number;
}

/** Options of a {@link SessionSearch}. */
export interface SessionSearchOptions {
  /** The worker entry (dist/search-worker.js); none: the caller's thread. */
  workerScript?: string;
  /** Worker threads (default: the number of cores, at most 4). */
  workers?: number;
}

/** One worker thread and what it works on. */
interface Slot {
  worker: Worker;
  /** The worker's script has loaded (one that exits before is a script that cannot run). */
  online: boolean;
  /** Search id and target it is on, or undefined when idle. */
  job: { searchId: number; target: SearchTarget } | undefined;
}

/** A search in progress over the workers. */
interface Run {
  id: number;
  /** Position of each target in the search's list. */
  order: Map<SearchTarget, number>;
  queue: SearchTarget[];
  active: number;
  onHit(hit: SessionSearchHit): void;
  stats: SearchStats;
  /** Hands targets to free workers; ends the run when nothing is left. */
  pump(): void;
  /** Ends the run: resolves its promise (`fallback`: the workers failed, the queue is left to the caller). */
  end(how: "done" | "cancelled" | "fallback"): void;
}

/** See the file comment. */
export class SessionSearch {
  private readonly slots: Slot[] = [];
  private run: Run | undefined;
  private nextId = 1;
  private disposed = false;
  private workersFailed = false;

  constructor(private readonly options: SessionSearchOptions = {}) {}

  /**
   * Search `targets` for `query` (the tree's rule: every word, case-insensitive), calling `onHit` per hit.
   * Never rejects for a file's sake (unreadable files are counted as skipped). In workers, starting a search
   * ends the one still running (it resolves as cancelled).
   */
  async search(
    query: string,
    targets: readonly SearchTarget[],
    onHit: (hit: SessionSearchHit) => void,
    opts: SearchRunOptions = {},
  ): Promise<SearchOutcome> {
    if (this.disposed) throw new Error("SessionSearch is disposed");
    const parsed = parseSearchQuery(query);
    const stats = emptyStats();
    const outcome: SearchOutcome = { stats, truncated: false, cancelled: false, workers: 0 };
    if (parsed.tokens.length === 0 || targets.length === 0) return outcome;
    const maxHits = opts.maxHits ?? DEFAULT_MAX_HITS;
    const stop = new AbortController();
    const onAbort = (): void => {
      outcome.cancelled = true;
      stop.abort(opts.signal?.reason);
    };
    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener("abort", onAbort, { once: true });
    const relay = (hit: SessionSearchHit): void => {
      if (stop.signal.aborted) return;
      stats.hits++;
      onHit(hit);
      if (stats.hits >= maxHits) {
        outcome.truncated = true;
        stop.abort();
      }
    };
    try {
      let left: readonly SearchTarget[] = targets;
      if (this.ensureWorkers()) {
        outcome.workers = this.slots.length;
        const ended = await this.searchInWorkers(query, targets, relay, stats, stop.signal);
        if (ended.how === "cancelled" && !stop.signal.aborted) outcome.cancelled = true;
        if (ended.how === "fallback") {
          outcome.workers = 0;
          left = ended.queue;
        } else left = [];
      }
      await this.searchHere(parsed, left, relay, stats, stop.signal);
    } finally {
      opts.signal?.removeEventListener("abort", onAbort);
    }
    return outcome;
  }

  /** Stop the workers; a search still running resolves as cancelled. */
  async dispose(): Promise<void> {
    this.disposed = true;
    this.run?.end("cancelled");
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private async searchHere(
    query: SearchQuery,
    targets: readonly SearchTarget[],
    onHit: (hit: SessionSearchHit) => void,
    stats: SearchStats,
    signal: AbortSignal,
  ): Promise<void> {
    for (const t of targets) {
      if (signal.aborted) return;
      await searchTarget(t, query, onHit, stats, signal);
    }
  }

  private searchInWorkers(
    query: string,
    targets: readonly SearchTarget[],
    onHit: (hit: SessionSearchHit) => void,
    stats: SearchStats,
    signal: AbortSignal,
  ): Promise<{ how: "done" | "cancelled" | "fallback"; queue: SearchTarget[] }> {
    this.run?.end("cancelled");
    const id = this.nextId++;
    return new Promise((done) => {
      const run: Run = {
        id,
        order: new Map(targets.map((t, i) => [t, i])),
        queue: [...targets],
        active: 0,
        onHit,
        stats,
        pump: () => {
          if (signal.aborted) return run.end("cancelled");
          for (const slot of this.slots) {
            if (slot.job !== undefined || run.queue.length === 0) continue;
            const target = run.queue.shift() as SearchTarget;
            slot.job = { searchId: id, target };
            slot.worker.ref();
            run.active++;
            this.post(slot, { type: "search", searchId: id, query, target });
          }
          if (run.active === 0 && run.queue.length === 0) run.end("done");
        },
        end: (how) => {
          if (this.run !== run) return;
          this.run = undefined;
          for (const s of this.slots) if (s.job?.searchId === id) this.post(s, { type: "cancel", searchId: id });
          signal.removeEventListener("abort", onAbort);
          done({ how, queue: run.queue });
        },
      };
      const onAbort = (): void => run.end("cancelled");
      this.run = run;
      signal.addEventListener("abort", onAbort, { once: true });
      run.pump();
    });
  }

  private post(slot: Slot, msg: ToSearchWorker): void {
    slot.worker.postMessage(msg);
  }

  /**
   * Starts the workers if there are none; false when the search must run in the caller's thread (no worker
   * script, or it cannot be started: the search still works, only slower).
   */
  private ensureWorkers(): boolean {
    if (this.options.workerScript === undefined || this.workersFailed) return false;
    const want = Math.max(1, this.options.workers ?? Math.min(4, availableParallelism()));
    try {
      while (this.slots.length < want) this.slots.push(this.spawn(this.options.workerScript));
    } catch {
      this.failWorkers();
      return false;
    }
    return true;
  }

  /**
   * The script cannot run: stop the workers; a running search goes on in the caller's thread with what the
   * workers had not finished (`unfinished`, plus what the other workers were on), in the original order.
   */
  private failWorkers(unfinished: SearchTarget[] = []): void {
    this.workersFailed = true;
    const run = this.run;
    for (const s of this.slots.splice(0)) {
      if (run && s.job?.searchId === run.id) unfinished.push(s.job.target);
      void s.worker.terminate();
    }
    if (!run) return;
    unfinished.sort((a, b) => (run.order.get(a) ?? 0) - (run.order.get(b) ?? 0));
    run.queue.unshift(...unfinished);
    run.end("fallback");
  }

  private spawn(script: string): Slot {
    const worker = new Worker(resolve(script));
    const slot: Slot = { worker, online: false, job: undefined };
    worker.unref();
    worker.on("message", (msg: FromSearchWorker) => {
      // A terminated worker's last messages (a `done` that crossed the cancel and the terminate) count for no
      // run, and must not unreference it: terminate() references the worker until it has exited, else a
      // caller awaiting dispose() with nothing else keeping the event loop alive is left hanging.
      if (!this.slots.includes(slot)) return;
      const run = this.run;
      if (msg.type === "ready") {
        slot.online = true;
        return;
      }
      if (msg.type === "hit") {
        if (run?.id === msg.searchId) run.onHit(msg.hit);
        return;
      }
      slot.job = undefined;
      worker.unref();
      if (run?.id === msg.searchId) {
        run.active--;
        addStats(run.stats, msg.stats);
      }
      run?.pump();
    });
    // An exit is reported with its cause below; the error itself needs no handling of its own.
    worker.on("error", () => undefined);
    worker.on("exit", () => {
      const at = this.slots.indexOf(slot);
      if (at < 0) return; // terminated on purpose
      this.slots.splice(at, 1);
      const run = this.run;
      const job = run !== undefined && slot.job?.searchId === run.id ? slot.job : undefined;
      // A script that never started cannot search anything: its target is searched here instead.
      if (!slot.online) return this.failWorkers(job ? [job.target] : []);
      if (run !== undefined && job !== undefined) {
        run.active--;
        run.stats.skippedFiles++;
      }
      // A worker that died on one file (counted as skipped) is replaced.
      if (!this.disposed) this.slots.push(this.spawn(script));
      run?.pump();
    });
    return slot;
  }
}
