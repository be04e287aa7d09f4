/** What the benchmark parent sends a measuring child (as one JSON argument) and what it prints back. */

/**
 * Which implementation a child measures: ours, the newest pi (1.6.x, under the Node it needs), pi 0.73.1 (the
 * first baseline), or the raw floor (read the file in chunks and count newlines).
 */
export type Impl = "ours" | "piLatest" | "piLegacy" | "floor";

/** The child's job. */
export interface ChildConfig {
  impl: Impl;
  /** Session file to open. Mutating steps append to it; the parent truncates it back afterwards. */
  file: string;
  /** Entry ids to branch to, one timing each. */
  navTargets: string[];
  /** How many appends to time. */
  appends: number;
  /** Folder for anything the store wants to create besides the file. */
  scratchDir: string;
  /** Absolute path of pi's session-manager.js (pi implementations). */
  piModule?: string;
}

/** Times in milliseconds, memory in bytes. Optional fields are absent when a step does not apply. */
export interface ChildResult {
  impl: Impl;
  /** Entries the store reports after open (floor: lines minus the header). */
  entries: number;
  openMs: number;
  /** CPU time (user + system, all threads) spent in open: less sensitive to a busy machine than openMs. */
  openCpuMs: number;
  /** Peak RSS right after open. */
  peakRssOpen: number;
  /**
   * Open, then getTree() (every node with its preview: ours reads them at open, pi has the whole entries),
   * then buildSessionContext(): when a user can see the tree and send the next prompt.
   */
  readyMs: number;
  /** Peak RSS once open, tree and context are done (the number the RSS target uses). */
  peakRssReady: number;
  /** Peak RSS of the process before open (Node itself plus the loaded code). */
  rssBaseline: number;
  /** Peak RSS at the end of all steps. */
  peakRssEnd?: number;
  getTreeMs?: number;
  buildContextMs?: number;
  /** branch(id) to each target: all timings (ms). */
  navigateMs?: number[];
  /** appendMessage: all timings (ms). */
  appendMs?: number[];
}
