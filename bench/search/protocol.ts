/** What the search benchmark sends its child and gets back (bench/search/measure-search.ts). */

/** One query of a child run. */
export interface SearchQuerySpec {
  text: string;
  maxHits?: number;
}

/** The child's configuration (argv[2], JSON). */
export interface SearchChildConfig {
  cwd: string;
  sessionDir: string;
  agentDir: string;
  /** The bundled worker; absent: search in the child's own thread. */
  workerScript?: string;
  workers?: number;
  queries: SearchQuerySpec[];
}

/** Timings of one query (ms from the start of the search; `cpuMs` covers the whole process, workers included). */
export interface QueryTiming {
  query: string;
  firstHitMs: number;
  totalMs: number;
  cpuMs: number;
  hits: number;
  firstHitId?: string;
  truncated: boolean;
  bytes: number;
  files: number;
  candidateLines: number;
}

/** The child's result line. */
export interface SearchChildResult {
  targets: number;
  /** Listing the folders (findSearchTargets). */
  listMs: number;
  timings: QueryTiming[];
}
