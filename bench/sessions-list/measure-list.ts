/**
 * Open Session…'s listing of a big sessions folder (`npm run bench -- --list-only`, or `node --import tsx
 * bench/sessions-list/measure-list.ts`): the search benchmark's corpus (~1 GB, 304 sessions, half in the
 * extension's folder and half in pi's; --quick: ~70 MB) listed as the picker lists it, in fresh processes: the
 * first listing, a second one in the same process (unchanged files are not read again), and the longest the event
 * loop was held (the extension host's responsiveness meanwhile); the files read in the list worker's threads (as the
 * extension reads them: its bundle, built here like dist/list-worker.js) and in the listing's own thread (as
 * without workers); against pi 1.6.0's `SessionManager.list()` of the same two folders, twice, under its Node.
 * Medians of 3 runs, alternated. Printed, never written.
 */
import { execFile } from "node:child_process";
import * as esbuild from "esbuild";
import { join } from "node:path";
import { promisify } from "node:util";
import { ensurePiReleases } from "../../tools/pi/index.js";
import { DATA_DIR, BENCH_DIR } from "../paths.js";
import { printAlone } from "../print-alone.js";
import { CORPUS_CWD, ensureCorpus, FULL_CORPUS, QUICK_CORPUS } from "../search/corpus.js";
import { defaultSessionDir } from "../../src/core/session/paths.js";
import { median } from "../stats.js";

const run = promisify(execFile);

/** The figures of one implementation, medians over the runs. */
export interface ListFigures {
  sessions: number;
  firstMs: number;
  secondMs: number;
  /** Ours only: the longest the event loop was held during the first listing. */
  maxBlockMs?: number;
  /** Ours only: CPU time of the first listing (the process, its workers included). */
  cpuMs?: number;
  /** Ours only: how long the event loop was busy during the first listing (performance.eventLoopUtilization). */
  busyMs?: number;
}

/** The listing measured on the corpus. */
export interface ListBenchResult {
  files: number;
  megabytes: number;
  /** Read in worker threads, as the extension does. */
  ours: ListFigures;
  /** Read in the listing's thread (no worker). */
  oursInThread: ListFigures;
  pi: ListFigures;
}

/** The list worker's bundle, as esbuild.mjs builds dist/list-worker.js (here as an ES module of its own). */
const WORKER_BUNDLE = join(DATA_DIR, "list-worker.mjs");
/** Worker threads, as the extension starts them on this machine (at most 2). */
const WORKERS = 2;

/** pi's listing: its SessionManager.list() of each folder, twice in one process. */
const PI_CHILD = `
const [mod, cwd, ...dirs] = process.argv.slice(1);
const { SessionManager } = await import(mod);
const once = async () => { let n = 0; for (const d of dirs) n += (await SessionManager.list(cwd, d)).length; return n; };
let t = performance.now(); const sessions = await once(); const firstMs = performance.now() - t;
t = performance.now(); await once(); const secondMs = performance.now() - t;
console.log(JSON.stringify({ sessions, firstMs, secondMs }));
`;

function medians(runs: ListFigures[]): ListFigures {
  const out: ListFigures = {
    sessions: runs[0].sessions,
    firstMs: median(runs.map((r) => r.firstMs)),
    secondMs: median(runs.map((r) => r.secondMs)),
  };
  if (runs[0].maxBlockMs !== undefined) out.maxBlockMs = median(runs.map((r) => r.maxBlockMs ?? 0));
  if (runs[0].cpuMs !== undefined) out.cpuMs = median(runs.map((r) => r.cpuMs ?? 0));
  if (runs[0].busyMs !== undefined) out.busyMs = median(runs.map((r) => r.busyMs ?? 0));
  return out;
}

/** Lists the corpus `runs` times with each implementation, alternating, each in a fresh process. */
export async function measureList(quick = process.argv.includes("--quick"), runs = 3): Promise<ListBenchResult> {
  const corpus = ensureCorpus(quick ? QUICK_CORPUS : FULL_CORPUS, DATA_DIR, (line) => console.log(`[bench] ${line}`));
  const pi = ensurePiReleases().latest;
  const piDir = defaultSessionDir(CORPUS_CWD, corpus.agentDir);
  await esbuild.build({
    entryPoints: [join(BENCH_DIR, "..", "src", "core", "session", "list-worker.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    outfile: WORKER_BUNDLE,
    logLevel: "error",
  });
  const ours: ListFigures[] = [];
  const inThread: ListFigures[] = [];
  const theirs: ListFigures[] = [];
  const child = async (...workerArgs: string[]): Promise<ListFigures> => {
    const script = join(BENCH_DIR, "sessions-list", "list-child.ts");
    const args = ["--import", "tsx", script, CORPUS_CWD, corpus.sessionDir, corpus.agentDir, ...workerArgs];
    const a = await run(process.execPath, args, { maxBuffer: 1 << 20 });
    return JSON.parse(a.stdout.trim().split("\n").pop() ?? "{}") as ListFigures;
  };
  for (let i = 0; i < runs; i++) {
    ours.push(await child(WORKER_BUNDLE, String(WORKERS)));
    inThread.push(await child());
    const b = await run(
      pi.node,
      ["--input-type=module", "-e", PI_CHILD, pi.sessionManager, CORPUS_CWD, corpus.sessionDir, piDir],
      { maxBuffer: 1 << 20 },
    );
    theirs.push(JSON.parse(b.stdout.trim().split("\n").pop() ?? "{}") as ListFigures);
  }
  return {
    files: corpus.files.length,
    megabytes: corpus.bytes / 1e6,
    ours: medians(ours),
    oursInThread: medians(inThread),
    pi: medians(theirs),
  };
}

/** The printed lines. */
export function listLines(r: ListBenchResult): string[] {
  const ms = (n: number): string => `${n.toFixed(0)} ms`;
  return [
    `Open Session… listing: ${r.files} files, ${r.megabytes.toFixed(0)} MB (medians of fresh processes)`,
    ...(
      [
        ["ours, in workers:", r.ours],
        ["ours, in thread:", r.oursInThread],
      ] as const
    ).map(
      ([label, f]) =>
        `  ${label.padEnd(18)}${f.sessions} sessions, first ${ms(f.firstMs)} (CPU ${ms(f.cpuMs ?? 0)}), ` +
        `again ${ms(f.secondMs)}, event loop held at most ${ms(f.maxBlockMs ?? 0)}, busy ${ms(f.busyMs ?? 0)}`,
    ),
    `  ${"pi 1.6.0:".padEnd(18)}${r.pi.sessions} sessions, first ${ms(r.pi.firstMs)}, again ${ms(r.pi.secondMs)}`,
    `  first listing ${(r.pi.firstMs / r.ours.firstMs).toFixed(1)}× pi's, again ${(r.pi.secondMs / r.ours.secondMs).toFixed(0)}×`,
  ];
}

if (process.argv[1]?.endsWith("measure-list.ts")) printAlone(measureList(), listLines);
