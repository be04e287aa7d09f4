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
/** pi's own package folder (its own package.json and lock file). */
export const PI_DIR = join(BENCH_DIR, "pi");
/** pi's SessionManager module. Imported by file so pi's CLI module graph is not charged to its RSS. */
export const PI_SESSION_MANAGER = join(
  PI_DIR,
  "node_modules",
  "@mariozechner",
  "pi-coding-agent",
  "dist",
  "core",
  "session-manager.js",
);
/** The committed results table. */
export const RESULTS_FILE = join(BENCH_DIR, "results.md");
/** The published results page and chart. */
export const DOCS_FILE = join(REPO_DIR, "docs", "bench.md");
export const CHART_FILE = join(REPO_DIR, "docs", "bench-chart.svg");
/** The README: its benchmark section (between markers) is rewritten with the chart and summary tables. */
export const README_FILE = join(REPO_DIR, "README.md");
