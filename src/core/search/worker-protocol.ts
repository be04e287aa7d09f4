/** Messages between a search and its worker threads (session-search.ts ↔ search-worker.ts). */
import type { SearchStats, SearchTarget, SessionSearchHit } from "./types.js";

/** To a worker: search one target for a search, or stop that search. */
export type ToSearchWorker =
  { type: "search"; searchId: number; query: string; target: SearchTarget } | { type: "cancel"; searchId: number };

/** From a worker: `ready` once loaded; per target, its hits, then `done` (also after a cancel). */
export type FromSearchWorker =
  | { type: "ready" }
  | { type: "hit"; searchId: number; hit: SessionSearchHit }
  | { type: "done"; searchId: number; stats: SearchStats };
