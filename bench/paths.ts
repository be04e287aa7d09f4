/**
 * Where the benchmark keeps things. Generated sessions and build output live under bench/.data (gitignored);
 * results are written next to the code and into docs/.
 */
import { dirname, join } from "node:path";

/** bench/ (the package is CommonJS under tsx, so __dirname is this folder). */
export const BENCH_DIR = __dirname;
/** The repository root. */
export const REPO_DIR = dirname(BENCH_DIR);
/** Generated data (sessions, bundles, CPU profiles). */
export const DATA_DIR = join(BENCH_DIR, ".data");
/** The committed results table. */
export const RESULTS_FILE = join(BENCH_DIR, "results.md");
/** The published results page and chart. */
export const DOCS_FILE = join(REPO_DIR, "docs", "bench.md");
export const CHART_FILE = join(REPO_DIR, "docs", "bench-chart.svg");
/** The README: its benchmark section (between markers) is rewritten with the chart and summary tables. */
export const README_FILE = join(REPO_DIR, "README.md");
