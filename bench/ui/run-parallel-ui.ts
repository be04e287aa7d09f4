/**
 * The Explore-in-Parallel part of the real-UI bench (see measure-parallel-ui.ts for what a run measures): builds
 * the extension as `npm start` does, runs fresh code-servers one after another, prints one line per run and the
 * lines with the targets. Alone: `node --import tsx bench/ui/run-parallel-ui.ts [runs]`.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { codeServerInstalled, REPO_ROOT } from "../../test/util/code-server.js";
import { median } from "../stats.js";
import {
  FRAME_P99_TARGET_MS,
  HOST_LOOP_P99_TARGET_MS,
  measureParallelUiRun,
  summariseParallelUi,
  type ParallelUiReport,
  type ParallelUiRun,
} from "./measure-parallel-ui.js";

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

const ms = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 1 : 0)} ms` : "–");
const mark = (v: number, target: number): string => (Number.isFinite(v) ? (v <= target ? "PASS" : "MISS") : "n/a");

/** Runs `runs` measurements; a failure ends them and is kept in the report (what was measured stays). */
export async function measureParallelUi(runs: number, log: (line: string) => void): Promise<ParallelUiReport> {
  if (!codeServerInstalled())
    return summariseParallelUi([], "code-server is not installed (bash scripts/ensure-deps.sh)");
  const build = spawnSync(process.execPath, ["esbuild.mjs"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (build.status !== 0)
    return summariseParallelUi([], `building the extension failed: ${build.stderr || build.stdout}`);
  const done: ParallelUiRun[] = [];
  for (let i = 0; i < runs; i++) {
    try {
      const r = await measureParallelUiRun(loadavg()[0]);
      done.push(r);
      log(
        `ui parallel run ${i + 1}: ${(r.streamMs / 1000).toFixed(1)} s streaming, tree frames p99 ${ms(r.tree.p99)} ` +
          `max ${ms(r.tree.max)} (${r.tree.slow}/${r.tree.frames} > 32 ms), chat frames p99 ${ms(r.chat.p99)}, ` +
          `click → selection ${ms(median(r.clickToSelectMs))} (${r.clickToSelectMs.length} clicks), ` +
          `host event loop p99 ${r.loop ? ms(r.loop.p99) : `not measured (${r.loopError ?? "?"})`}; load ${r.load.toFixed(1)}`,
      );
    } catch (error) {
      log(`ui parallel run ${i + 1}: ${errorText(error)}`);
      return summariseParallelUi(done, errorText(error));
    }
  }
  return summariseParallelUi(done);
}

/** The worse of the two webviews' p99 frame times: what the frames target is judged on. */
export function worstFrameP99(r: ParallelUiReport): number {
  return Math.max(r.treeP99Ms, r.chatP99Ms);
}

/** The lines `npm run bench` prints (headline figures: the real UI and the real extension host). */
export function parallelUiLines(r: ParallelUiReport): string[] {
  if (r.runs === 0) return [`ui parallel: not measured (${r.error ?? "no run"})`];
  const setting =
    `real UI, ${r.branches} branches streaming ${r.stream.chunks} chunks ${r.stream.chunkDelayMs} ms apart each, ` +
    `medians of ${r.runs} run${r.runs === 1 ? "" : "s"}, load average ${r.loadMin.toFixed(1)}–${r.loadMax.toFixed(1)}`;
  const frames = worstFrameP99(r);
  const loop = Number.isFinite(r.loopP99Ms)
    ? `p99 ${ms(r.loopP99Ms)}, max ${ms(r.loopMaxMs)} (idle p99 ${ms(r.idleLoopP99Ms)})`
    : `not measured (${r.loopError ?? "no run"})`;
  return [
    `ui parallel (${setting}):`,
    `  webview frames: tree p50 ${ms(r.treeP50Ms)}, p95 ${ms(r.treeP95Ms)}, p99 ${ms(r.treeP99Ms)}, max ${ms(r.treeMaxMs)}, ` +
      `${r.treeSlow} of ${r.treeFrames} > 32 ms (idle p99 ${ms(r.idleTreeP99Ms)}); chat p99 ${ms(r.chatP99Ms)}, ` +
      `max ${ms(r.chatMaxMs)}, ${r.chatSlow} > 32 ms; target p99 ≤ ${FRAME_P99_TARGET_MS} ms (the worse webview) ` +
      mark(frames, FRAME_P99_TARGET_MS),
    `  extension host event-loop delay: ${loop}; target p99 ≤ ${HOST_LOOP_P99_TARGET_MS} ms ${mark(r.loopP99Ms, HOST_LOOP_P99_TARGET_MS)}`,
    `  click on a tree row → selection drawn: ${ms(r.clickToSelectMs)} median, worst ${ms(r.clickToSelectMaxMs)} ` +
      `(${r.clicks} clicks while streaming; no target)`,
    ...(r.error ? [`  stopped early: ${r.error}`] : []),
  ];
}

if (require.main === module) {
  measureParallelUi(Number(process.argv[2] ?? 1), (l) => console.log(`[bench] ${l}`))
    .then((r) => parallelUiLines(r).forEach((l) => console.log(`[bench] ${l}`)))
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
