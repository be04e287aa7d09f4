/**
 * The Explore-in-Parallel part of the real-UI bench (see measure-parallel-ui.ts for what a run measures): builds
 * the extension as `npm start` does, runs fresh code-servers one after another, prints one line per run and the
 * lines with the targets. Alone: `node --import tsx bench/ui/run-parallel-ui.ts [runs]`.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
import { codeServerInstalled, REPO_ROOT } from "../../test/util/code-server.js";
import { median } from "../stats.js";
import type { LongFrames } from "./probes.js";
import {
  measureParallelUiRun,
  summariseParallelUi,
  type ParallelUiReport,
  type ParallelUiRun,
} from "./measure-parallel-ui.js";
import { targetsTable } from "../report/table.js";
import { ms, parallelUiLines, parallelUiSection, parallelUiTargets } from "./parallel-ui-report.js";

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Long animation frames, one phrase: how many, their time, where their script time went. */
function longText(l: LongFrames): string {
  const top = l.scripts.map(([source, t]) => `${source} ${ms(t)}`).join(", ");
  return `${l.count} (${ms(l.totalMs)}, rendering ${ms(l.renderMs)}${top ? `; scripts: ${top}` : ""})`;
}

/** Runs `runs` measurements; a failure ends them and is kept in the report (what was measured stays). */
export async function measureParallelUi(runs: number, log: (line: string) => void): Promise<ParallelUiReport> {
  if (!codeServerInstalled())
    return summariseParallelUi([], "code-server is not installed (bash scripts/ensure-deps.sh)");
  const build = spawnSync(process.execPath, ["esbuild.mjs", "--production"], { cwd: REPO_ROOT, encoding: "utf8" });
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
      log(`  long animation frames (workbench page): ${longText(r.longFrames)}`);
    } catch (error) {
      log(`ui parallel run ${i + 1}: ${errorText(error)}`);
      return summariseParallelUi(done, errorText(error));
    }
  }
  return summariseParallelUi(done);
}

if (require.main === module) {
  // Alone: the lines, then the Markdown (its section and target rows) for the result files.
  measureParallelUi(Number(process.argv[2] ?? 1), (l) => console.log(`[bench] ${l}`))
    .then((r) => {
      parallelUiLines(r).forEach((l) => console.log(`[bench] ${l}`));
      console.log(`\n${parallelUiSection(r)}\n\n${targetsTable(parallelUiTargets(r))}`);
    })
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
