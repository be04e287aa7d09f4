/** Messages between the session listing's reader and its worker thread (session-info-reader.ts ↔ list-worker.ts). */
import type { FileFacts, InfoOutcome } from "./session-info.js";

/** To the worker: read one file's SessionInfo. */
export interface ToListWorker {
  type: "read";
  id: number;
  file: string;
  facts: FileFacts;
}

/** From the worker: `ready` once loaded; per file read, its outcome. */
export type FromListWorker = { type: "ready" } | { type: "read"; id: number; outcome: InfoOutcome };
