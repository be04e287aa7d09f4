/**
 * How the Explore-in-Parallel figures of the real UI (measure-parallel-ui.ts) are shown: the lines `npm run bench`
 * prints, the two targets of issue 27 it checks (webview frames p99 ≤ 32 ms, judged on the worse of the tree and
 * the chat; the extension host's event-loop delay p99 ≤ 50 ms) and the section of the result files.
 */
import { mdHead, mdRow } from "../report/markdown.js";
import type { TargetCheck } from "../report/targets.js";
import {
  FRAME_P99_TARGET_MS,
  HOST_LOOP_P99_TARGET_MS,
  type FrameStats,
  type ParallelUiReport,
} from "./measure-parallel-ui.js";

/** Milliseconds as shown in these lines ("–" when not measured). */
export const ms = (v: number): string => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 1 : 0)} ms` : "–");
const load = (r: ParallelUiReport): string =>
  r.loadMin === r.loadMax
    ? `load average ${r.loadMin.toFixed(1)}`
    : `load average ${r.loadMin.toFixed(1)}–${r.loadMax.toFixed(1)}`;
const status = (v: number, target: number): TargetCheck["status"] =>
  Number.isFinite(v) ? (v <= target ? "PASS" : "MISS") : "n/a";

/** The worse of the two webviews' p99 frame times: what the frames target is judged on. */
export function worstFrameP99(r: ParallelUiReport): number {
  return Math.max(r.tree.p99, r.chat.p99);
}

function frames(f: FrameStats): string {
  return `p50 ${ms(f.p50)}, p95 ${ms(f.p95)}, p99 ${ms(f.p99)}, max ${ms(f.max)}, ${f.slow} of ${f.frames} > 32 ms`;
}

/** What was run, one phrase. */
function setting(r: ParallelUiReport): string {
  return (
    `${r.branches} branches streaming ${r.stream.chunks} chunks ${r.stream.chunkDelayMs} ms apart each, ` +
    `medians of ${r.runs} run${r.runs === 1 ? "" : "s"}`
  );
}

function loopText(r: ParallelUiReport): string {
  return Number.isFinite(r.loopP99Ms)
    ? `p99 ${ms(r.loopP99Ms)}, max ${ms(r.loopMaxMs)} (idle p99 ${ms(r.idleLoopP99Ms)})`
    : `not measured (${r.loopError ?? r.error ?? "no run"})`;
}

/** The lines `npm run bench` prints (headline figures: the real UI and the real extension host). */
export function parallelUiLines(r: ParallelUiReport): string[] {
  if (r.runs === 0) return [`ui parallel: not measured (${r.error ?? "no run"})`];
  return [
    `ui parallel (real UI, ${setting(r)}, ${load(r)}):`,
    `  webview frames: tree ${frames(r.tree)} (idle p99 ${ms(r.treeIdle.p99)}); chat ${frames(r.chat)}; ` +
      `target p99 ≤ ${FRAME_P99_TARGET_MS} ms (the worse webview) ${status(worstFrameP99(r), FRAME_P99_TARGET_MS)}`,
    `  extension host event-loop delay: ${loopText(r)}; target p99 ≤ ${HOST_LOOP_P99_TARGET_MS} ms ` +
      status(r.loopP99Ms, HOST_LOOP_P99_TARGET_MS),
    `  click on a tree row → selection drawn: ${ms(r.clickToSelectMs)} median, worst ${ms(r.clickToSelectMaxMs)} ` +
      `(${r.clicks} clicks while streaming; no target)`,
    ...(r.error ? [`  stopped early: ${r.error}`] : []),
  ];
}

/** The targets it checks (n/a when not measured). */
export function parallelUiTargets(r: ParallelUiReport | undefined): TargetCheck[] {
  const on = `demo session, ${r?.branches ?? 4} branches streaming (UI)`;
  const measured = (v: number, text: string): string => (Number.isFinite(v) ? text : "not measured");
  const frameP99 = r ? worstFrameP99(r) : Number.NaN;
  const loopP99 = r?.loopP99Ms ?? Number.NaN;
  return [
    {
      target: `UI: webview frames p99 ≤ ${FRAME_P99_TARGET_MS} ms, 4 branches streaming`,
      on,
      measured: measured(
        frameP99,
        r
          ? `tree ${ms(r.tree.p99)}, chat ${ms(r.chat.p99)} (${r.tree.slow} of ${r.tree.frames} frames > 32 ms, max ${ms(Math.max(r.tree.max, r.chat.max))}; ${load(r)}; idle before: p99 ${ms(r.treeIdle.p99)})`
          : "",
      ),
      status: status(frameP99, FRAME_P99_TARGET_MS),
    },
    {
      target: `UI: extension host event-loop delay p99 ≤ ${HOST_LOOP_P99_TARGET_MS} ms, 4 branches streaming`,
      on,
      measured: measured(
        loopP99,
        r ? `${ms(loopP99)} (max ${ms(r.loopMaxMs)}, idle p99 ${ms(r.idleLoopP99Ms)}; ${load(r)})` : "",
      ),
      status: status(loopP99, HOST_LOOP_P99_TARGET_MS),
    },
  ];
}

/** The section of bench/results.md and docs/bench.md. */
export function parallelUiSection(r: ParallelUiReport): string {
  if (r.runs === 0) return `Explore in Parallel in the real UI: not measured (${r.error ?? "no run"}).`;
  return [
    `Real UI (code-server + Chromium, the real extension host), ${setting(r)}; ${load(r)}. Frames: time between ` +
      `animation frames in each webview from the Enter that starts the branches until all ${r.branches} ended ` +
      `(median ${(r.streamMs / 1000).toFixed(1)} s). Click → selection: ${ms(r.clickToSelectMs)} median, worst ` +
      `${ms(r.clickToSelectMaxMs)} (${r.clicks} clicks while streaming). Extension host event-loop delay: ${loopText(r)}.` +
      (r.error ? ` Stopped early: ${r.error}` : ""),
    "",
    ...mdHead(["Webview", "Frame p50", "p95", "p99", "max", "Frames > 32 ms"]),
    ...(
      [
        ["tree, 4 branches streaming", r.tree],
        ["chat, 4 branches streaming", r.chat],
        ["tree, idle before", r.treeIdle],
      ] as const
    ).map(([name, f]) => mdRow([name, ms(f.p50), ms(f.p95), ms(f.p99), ms(f.max), `${f.slow} of ${f.frames}`])),
  ].join("\n");
}
