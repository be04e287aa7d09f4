/**
 * Open Session…'s listing of a big sessions folder (`npm run bench -- --list-only`, or `node --import tsx
 * bench/sessions-list/measure-list.ts`): the search benchmark's corpus (~1 GB, 304 sessions, half in the
 * extension's folder and half in pi's; --quick: ~70 MB) listed as the picker lists it, in fresh processes: the
 * first listing, a second one in the same process (unchanged files are not read again), and the longest the event
 * loop was held (the extension host's responsiveness meanwhile); against pi 1.6.0's `SessionManager.list()` of the
 * same two folders, twice, under its Node. Medians of 3 runs, alternated. Printed, never written.
 */
import { execFile } from "node:child_process";
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
}

/** The listing measured on the corpus. */
export interface ListBenchResult {
  files: number;
  megabytes: number;
  ours: ListFigures;
  pi: ListFigures;
}

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
  return out;
}

/** Lists the corpus `runs` times with each implementation, alternating, each in a fresh process. */
export async function measureList(quick = process.argv.includes("--quick"), runs = 3): Promise<ListBenchResult> {
  const corpus = ensureCorpus(quick ? QUICK_CORPUS : FULL_CORPUS, DATA_DIR, (line) => console.log(`[bench] ${line}`));
  const pi = ensurePiReleases().latest;
  const piDir = defaultSessionDir(CORPUS_CWD, corpus.agentDir);
  const ours: ListFigures[] = [];
  const theirs: ListFigures[] = [];
  for (let i = 0; i < runs; i++) {
    const a = await run(
      process.execPath,
      [
        "--import",
        "tsx",
        join(BENCH_DIR, "sessions-list", "list-child.ts"),
        CORPUS_CWD,
        corpus.sessionDir,
        corpus.agentDir,
      ],
      { maxBuffer: 1 << 20 },
    );
    ours.push(JSON.parse(a.stdout.trim().split("\n").pop() ?? "{}") as ListFigures);
    const b = await run(
      pi.node,
      ["--input-type=module", "-e", PI_CHILD, pi.sessionManager, CORPUS_CWD, corpus.sessionDir, piDir],
      { maxBuffer: 1 << 20 },
    );
    theirs.push(JSON.parse(b.stdout.trim().split("\n").pop() ?? "{}") as ListFigures);
  }
  return { files: corpus.files.length, megabytes: corpus.bytes / 1e6, ours: medians(ours), pi: medians(theirs) };
}

/** The printed lines. */
export function listLines(r: ListBenchResult): string[] {
  const ms = (n: number): string => `${n.toFixed(0)} ms`;
  return [
    `Open Session… listing: ${r.files} files, ${r.megabytes.toFixed(0)} MB (medians of fresh processes)`,
    `  ours:     ${r.ours.sessions} sessions, first ${ms(r.ours.firstMs)}, again ${ms(r.ours.secondMs)}, ` +
      `event loop held at most ${ms(r.ours.maxBlockMs ?? 0)}`,
    `  pi 1.6.0: ${r.pi.sessions} sessions, first ${ms(r.pi.firstMs)}, again ${ms(r.pi.secondMs)}`,
    `  first listing ${(r.pi.firstMs / r.ours.firstMs).toFixed(1)}× pi's, again ${(r.pi.secondMs / r.ours.secondMs).toFixed(0)}×`,
  ];
}

if (process.argv[1]?.endsWith("measure-list.ts")) printAlone(measureList(), listLines);
