/**
 * The search benchmark: generates the corpus (corpus.ts), bundles the child and the worker, and runs fresh
 * child processes that search it, with the page cache cold (every file dropped from it first with
 * `dd iflag=nocache count=0`, which asks the kernel to forget that file's cached pages) and warm (every file
 * read right before). Runs alternate cold and warm; medians are taken per setting and query.
 */
import { execFile, execFileSync } from "node:child_process";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { readFloor } from "../child/floor.js";
import { BENCH_DIR, DATA_DIR } from "../paths.js";
import { median } from "../stats.js";
import { CORPUS_CWD, ensureCorpus, FULL_CORPUS, NEEDLE, QUICK_CORPUS, type Corpus } from "./corpus.js";
import type { QueryTiming, SearchChildConfig, SearchChildResult, SearchQuerySpec } from "./protocol.js";

const CHILD_BUNDLE = join(DATA_DIR, "search-child.mjs");
const WORKER_BUNDLE = join(DATA_DIR, "search-worker.mjs");
const CHILD_TIMEOUT_MS = 10 * 60_000;

/**
 * The queries of every run, in order: the needle twice (the first search starts the workers), three words of
 * the needle's message, and two words that are everywhere (stopped at 500 hits, as the extension does).
 */
export const SEARCH_QUERIES: SearchQuerySpec[] = [
  { text: NEEDLE },
  { text: NEEDLE },
  { text: `${NEEDLE} relay queue` },
  { text: "parent index", maxHits: 500 },
];

/** How a run was set up. */
export type SearchSetting = "cold, 2 workers" | "warm, 2 workers" | "warm, in one thread";

/** Medians of one query in one setting. */
export interface SearchSummary {
  setting: SearchSetting;
  query: string;
  /** Index of the query within a run (0: the process's first search). */
  position: number;
  runs: number;
  firstHitMs: number;
  totalMs: number;
  cpuMs: number;
  hits: number;
  /** The first hit is the needle's entry. */
  foundNeedle: boolean;
  bytes: number;
  candidateLines: number;
}

/** Everything the search benchmark measured. */
export interface SearchBenchResult {
  corpus: { name: string; files: number; bytes: number };
  listMs: number;
  summaries: SearchSummary[];
  error?: string;
}

async function bundle(): Promise<void> {
  const common: esbuild.BuildOptions = {
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "error",
    banner: { js: 'import { createRequire as __cr } from "node:module"; const require = __cr(import.meta.url);' },
  };
  await Promise.all([
    esbuild.build({ ...common, entryPoints: [join(BENCH_DIR, "search", "measure-search.ts")], outfile: CHILD_BUNDLE }),
    esbuild.build({
      ...common,
      entryPoints: [join(BENCH_DIR, "..", "src", "core", "search", "search-worker.ts")],
      outfile: WORKER_BUNDLE,
    }),
  ]);
}

function runChild(config: SearchChildConfig): Promise<SearchChildResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [CHILD_BUNDLE, JSON.stringify(config)],
      { timeout: CHILD_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
      (error, out, err) => {
        if (error) return reject(new Error(`search child failed: ${error.message}\n${err.slice(-2000)}`));
        // A throw in this callback would end the whole benchmark; a child without a result fails this setting only.
        try {
          resolve(JSON.parse(out.trim().split("\n").pop() ?? "") as SearchChildResult);
        } catch {
          reject(new Error(`search child printed no result: ${out.slice(-500)}\n${err.slice(-2000)}`));
        }
      },
    );
  });
}

/** Drops every file of the corpus from the page cache. */
function evict(corpus: Corpus): void {
  for (const f of corpus.files) execFileSync("dd", [`if=${f}`, "iflag=nocache", "count=0", "status=none"]);
}

/** Reads every file of the corpus once, so the search finds it in the page cache. */
function warm(corpus: Corpus): void {
  for (const f of corpus.files) readFloor(f);
}

/** Runs the search benchmark (`runs` fresh processes per setting). */
export async function measureSearch(
  quick: boolean,
  runs: number,
  log: (line: string) => void,
): Promise<SearchBenchResult> {
  const corpus = ensureCorpus(quick ? QUICK_CORPUS : FULL_CORPUS, DATA_DIR, log);
  const result: SearchBenchResult = {
    corpus: { name: corpus.spec.name, files: corpus.files.length, bytes: corpus.bytes },
    listMs: Number.NaN,
    summaries: [],
  };
  await bundle();
  const base: SearchChildConfig = {
    cwd: CORPUS_CWD,
    sessionDir: corpus.sessionDir,
    agentDir: corpus.agentDir,
    queries: SEARCH_QUERIES,
  };
  const settings: { setting: SearchSetting; config: SearchChildConfig; prepare: () => void }[] = [
    {
      setting: "cold, 2 workers",
      config: { ...base, workerScript: WORKER_BUNDLE, workers: 2 },
      prepare: () => evict(corpus),
    },
    {
      setting: "warm, 2 workers",
      config: { ...base, workerScript: WORKER_BUNDLE, workers: 2 },
      prepare: () => warm(corpus),
    },
    { setting: "warm, in one thread", config: base, prepare: () => warm(corpus) },
  ];
  const timings = new Map<SearchSetting, QueryTiming[][]>();
  const lists: number[] = [];
  for (let run = 0; run < runs; run++) {
    for (const s of settings) {
      s.prepare();
      const child = await runChild(s.config);
      lists.push(child.listMs);
      const list = timings.get(s.setting) ?? [];
      list.push(child.timings);
      timings.set(s.setting, list);
      const t = child.timings[0];
      log(
        `search ${s.setting}: first hit ${t.firstHitMs.toFixed(0)} ms, done ${t.totalMs.toFixed(0)} ms (${t.hits} hits)`,
      );
    }
  }
  result.listMs = median(lists);
  for (const [setting, perRun] of timings) {
    SEARCH_QUERIES.forEach((q, position) => {
      const of = (pick: (t: QueryTiming) => number): number => median(perRun.map((r) => pick(r[position])));
      result.summaries.push({
        setting,
        query: q.text,
        position,
        runs: perRun.length,
        firstHitMs: of((t) => t.firstHitMs),
        totalMs: of((t) => t.totalMs),
        cpuMs: of((t) => t.cpuMs),
        hits: of((t) => t.hits),
        foundNeedle: q.text.includes(NEEDLE) && perRun.every((r) => r[position].firstHitId === corpus.needleEntryId),
        bytes: of((t) => t.bytes),
        candidateLines: of((t) => t.candidateLines),
      });
    });
  }
  return result;
}
