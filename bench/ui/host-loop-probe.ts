/**
 * The event-loop delay of the real extension host, without touching the extension: code-server's Node is started
 * with `--require <this preload>` (code-server forks its server with its own `execArgv`, and the server starts each
 * extension host with its `execArgv`; NODE_OPTIONS would not do: VS Code's server deletes it from an extension
 * host's environment, as code-server 4.139 does), and the preload does something only in a process whose command line says `--type=extensionHost` and only when
 * AGENT_TREE_BENCH_LOOP_DIR is set. There it notes that it loaded (`loop-<pid>.ready`), and on SIGUSR2 starts a
 * `monitorEventLoopDelay` histogram (5 ms resolution, as bench/parallel uses); on the next SIGUSR2 it writes the
 * histogram to `loop-<pid>.json`. The bench signals a process only when its `.ready` file exists: SIGUSR2 would
 * end a Node process that does not listen for it.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sleep } from "../../test/util/code-server.js";

/** The environment variable that names the folder the preload writes into (the guard). */
export const LOOP_DIR_ENV = "AGENT_TREE_BENCH_LOOP_DIR";

/** The preload, CommonJS (code-server's Node loads it before anything else). */
const PRELOAD = `"use strict";
(() => {
  const dir = process.env.${LOOP_DIR_ENV};
  // Worker threads of the host inherit its command line: only its main thread listens.
  if (!dir || !process.argv.includes("--type=extensionHost") || !require("node:worker_threads").isMainThread) return;
  const { writeFileSync } = require("node:fs");
  const { join } = require("node:path");
  const { monitorEventLoopDelay } = require("node:perf_hooks");
  let histogram;
  process.on("SIGUSR2", () => {
    if (histogram === undefined) {
      histogram = monitorEventLoopDelay({ resolution: 5 });
      histogram.enable();
      return;
    }
    histogram.disable();
    const ms = (ns) => ns / 1e6;
    const out = { p50: ms(histogram.percentile(50)), p95: ms(histogram.percentile(95)), p99: ms(histogram.percentile(99)),
      max: ms(histogram.max), mean: ms(histogram.mean), count: histogram.count };
    histogram = undefined;
    writeFileSync(join(dir, "loop-" + process.pid + ".json"), JSON.stringify(out));
  });
  writeFileSync(join(dir, "loop-" + process.pid + ".ready"), "");
})();
`;

/** Event-loop delay over a window, ms (`count`: samples). */
export interface LoopDelay {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
  count: number;
}

/** How code-server is started so that its extension host loads the probe. */
export interface LoopProbeStart {
  /** The guard's folder, passed on to the extension host (VS Code keeps variables it does not know of). */
  env: Record<string, string>;
  /** `--require <preload>` for code-server's Node. */
  nodeArgs: string[];
}

/** Writes the preload into `dir` and returns how to start code-server so that its extension host loads it. */
export function loopProbeStart(dir: string): LoopProbeStart {
  const file = join(dir, "loop-probe.cjs");
  writeFileSync(file, PRELOAD);
  return { env: { [LOOP_DIR_ENV]: dir }, nodeArgs: ["--require", file] };
}

/** True when the preload runs in extension host `pid` (so it may be signalled). */
export function loopProbeLoaded(dir: string, pid: number): boolean {
  return existsSync(join(dir, `loop-${pid}.ready`));
}

/** Starts the histogram in extension host `pid`; throws when the preload did not load there. */
export function startLoopProbe(dir: string, pid: number): void {
  if (!loopProbeLoaded(dir, pid)) throw new Error(`the event-loop probe did not load in extension host ${pid}`);
  process.kill(pid, "SIGUSR2");
}

/** Stops the histogram in extension host `pid` and reads it (waits up to 10 s for the file). */
export async function stopLoopProbe(dir: string, pid: number): Promise<LoopDelay> {
  const file = join(dir, `loop-${pid}.json`);
  rmSync(file, { force: true });
  process.kill(pid, "SIGUSR2");
  for (let i = 0; i < 100; i++) {
    if (existsSync(file)) {
      // Written in one synchronous call, but it may be caught half-written: parse until it parses.
      try {
        return JSON.parse(readFileSync(file, "utf8")) as LoopDelay;
      } catch {
        // not complete yet
      }
    }
    await sleep(100);
  }
  throw new Error(`extension host ${pid} wrote no event-loop figures within 10 s`);
}
