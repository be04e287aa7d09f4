/**
 * Medians over runs: what the table, the targets and the chart are made of.
 */
import type { ChildResult, Impl } from "../child/protocol.js";
import type { Dataset } from "../generate/datasets.js";
import type { SearchBenchResult } from "../search/run-search.js";
import { median, medianOf, percentile } from "../stats.js";
import type { ParallelUiReport } from "../ui/measure-parallel-ui.js";
import type { UiReport } from "../ui/run-ui.js";
import type { WebviewRun } from "../webview/measure-webview.js";
import type { CheckpointBench } from "../checkpoints/measure-checkpoints.js";

/** A child's measurements that every run has, summarized by their median (their meaning: ChildResult). */
type ChildMedians = Pick<
  ChildResult,
  "impl" | "entries" | "openMs" | "openCpuMs" | "peakRssOpen" | "readyMs" | "peakRssReady" | "rssBaseline"
>;

/** Medians of one implementation on one session (ms, bytes). NaN where the step does not apply. */
export interface StoreSummary extends ChildMedians {
  runs: number;
  getTreeMs: number;
  buildContextMs: number;
  navigateP50Ms: number;
  navigateMaxMs: number;
  appendP50Ms: number;
  appendP99Ms: number;
  /** Set when the runs failed. */
  error?: string;
}

/** Medians of the webview on one session. */
export interface WebviewSummary {
  runs: number;
  nodes: number;
  /** Host side: envelopes → rows → JSON (one measurement, in the bench process). */
  hostSnapshotMs: number;
  firstPaintMs: number;
  searchP50Ms: number;
  searchMaxMs: number;
  filterP50Ms: number;
  filterMaxMs: number;
  /** A reply appended or a branch switch: the update until the frame after it (with the scroll to the active row). */
  leafMoveP50Ms: number;
  leafMoveMaxMs: number;
  /** The page's work on a leaf move alone (no wait for the frame). */
  leafMoveWorkP50Ms: number;
  leafMoveWorkMaxMs: number;
  domRows: number;
  domRowsAfterSearch: number;
  error?: string;
}

/** Everything measured on one session. */
export interface DatasetResult {
  dataset: Dataset;
  stores: Partial<Record<Impl, StoreSummary>>;
  webview?: WebviewSummary;
}

/** The whole run. */
export interface BenchReport {
  quick: boolean;
  /** The pi releases measured (npm versions). */
  piVersions?: { latest: string; legacy: string };
  runs: number;
  appends: number;
  startedAt: string;
  durationS: number;
  machine: string;
  results: DatasetResult[];
  /**
   * Set when the session stores were measured in a run of their own (`--stores-only --write`) after the rest: when
   * and on what (the rest of the report keeps the run line of its own run).
   */
  storesMeasuredApart?: string;
  /** The real UI (code-server + Chromium): the demo session against the big one; absent when skipped. */
  ui?: UiReport;
  /** Explore in Parallel in the real UI: frames, click → selection, the host's event loop; absent when skipped. */
  parallelUi?: ParallelUiReport;
  /** Workspace checkpoints (absent when skipped). */
  checkpoints?: CheckpointBench;
  /** The session search over ~1 GB (bench/search), unless skipped. */
  search?: SearchBenchResult;
}

/** Medians of a set of child runs of one implementation. */
export function summariseStore(impl: Impl, runs: ChildResult[], error?: string): StoreSummary {
  return {
    impl,
    runs: runs.length,
    entries: medianOf(runs, (r) => r.entries),
    openMs: medianOf(runs, (r) => r.openMs),
    openCpuMs: medianOf(runs, (r) => r.openCpuMs),
    peakRssOpen: medianOf(runs, (r) => r.peakRssOpen),
    readyMs: medianOf(runs, (r) => r.readyMs),
    peakRssReady: medianOf(runs, (r) => r.peakRssReady),
    rssBaseline: medianOf(runs, (r) => r.rssBaseline),
    getTreeMs: medianOf(runs, (r) => r.getTreeMs),
    buildContextMs: medianOf(runs, (r) => r.buildContextMs),
    navigateP50Ms: medianOf(runs, (r) => (r.navigateMs ? median(r.navigateMs) : undefined)),
    navigateMaxMs: medianOf(runs, (r) => (r.navigateMs ? Math.max(...r.navigateMs) : undefined)),
    appendP50Ms: medianOf(runs, (r) => (r.appendMs ? percentile(r.appendMs, 50) : undefined)),
    appendP99Ms: medianOf(runs, (r) => (r.appendMs ? percentile(r.appendMs, 99) : undefined)),
    error,
  };
}

/** Medians of a set of webview runs. */
export function summariseWebview(
  runs: WebviewRun[],
  nodes: number,
  hostSnapshotMs: number,
  error?: string,
): WebviewSummary {
  return {
    runs: runs.length,
    nodes,
    hostSnapshotMs,
    firstPaintMs: medianOf(runs, (r) => r.firstPaintMs),
    searchP50Ms: medianOf(runs, (r) => median(r.searchMs)),
    searchMaxMs: medianOf(runs, (r) => Math.max(...r.searchMs)),
    filterP50Ms: medianOf(runs, (r) => median(r.filterMs)),
    filterMaxMs: medianOf(runs, (r) => Math.max(...r.filterMs)),
    leafMoveP50Ms: medianOf(runs, (r) => median(r.leafMoveMs)),
    leafMoveMaxMs: medianOf(runs, (r) => Math.max(...r.leafMoveMs)),
    leafMoveWorkP50Ms: medianOf(runs, (r) => median(r.leafMoveWorkMs)),
    leafMoveWorkMaxMs: medianOf(runs, (r) => Math.max(...r.leafMoveWorkMs)),
    domRows: medianOf(runs, (r) => r.domRows),
    domRowsAfterSearch: medianOf(runs, (r) => r.domRowsAfterSearch),
    error,
  };
}
