/**
 * The targets, checked against the medians. Per-operation numbers are judged on their median over the
 * operations of a run unless the target names a percentile; the worst case is shown next to it.
 */
import type { DatasetRole } from "../generate/datasets.js";
import type { UiReport, UiSessionSummary } from "../ui/run-ui.js";
import { checkpointTargets } from "../checkpoints/checkpoint-report.js";
import type { CheckpointBench } from "../checkpoints/measure-checkpoints.js";
import type { SearchBenchResult } from "../search/run-search.js";
import { searchCheck } from "../search/search-report.js";
import type { DatasetResult, StoreSummary, WebviewSummary } from "./summary.js";

/** One checked target. */
export interface TargetCheck {
  target: string;
  /** Which session it was measured on. */
  on: string;
  measured: string;
  status: "PASS" | "MISS" | "n/a";
}

const ms = (v: number): string => (Number.isFinite(v) ? `${v < 10 ? v.toFixed(2) : v.toFixed(0)} ms` : "–");

function byRole(results: DatasetResult[], role: DatasetRole): DatasetResult | undefined {
  return results.find((r) => r.dataset.role === role);
}

/** Ours and pi on a session, if both ran without error. */
function pair(r: DatasetResult | undefined): { ours: StoreSummary; pi: StoreSummary } | undefined {
  const ours = r?.stores.ours;
  const pi = r?.stores.pi;
  if (!ours || !pi || ours.error || pi.error) return undefined;
  return { ours, pi };
}

function check(
  target: string,
  r: DatasetResult | undefined,
  value: number | undefined,
  pass: (v: number) => boolean,
  show: (v: number) => string,
): TargetCheck {
  if (r === undefined || value === undefined || !Number.isFinite(value)) {
    return { target, on: r?.dataset.label ?? "-", measured: "not measured", status: "n/a" };
  }
  return { target, on: r.dataset.label, measured: show(value), status: pass(value) ? "PASS" : "MISS" };
}

function webview(r: DatasetResult | undefined): WebviewSummary | undefined {
  return r?.webview && !r.webview.error ? r.webview : undefined;
}

function uiCheck(
  target: string,
  on: string,
  value: number | undefined,
  pass: (v: number) => boolean,
  show: (v: number) => string,
): TargetCheck {
  if (value === undefined || !Number.isFinite(value)) return { target, on, measured: "not measured", status: "n/a" };
  return { target, on, measured: show(value), status: pass(value) ? "PASS" : "MISS" };
}

const seconds = (v: number): string => `${(v / 1000).toFixed(1)} s`;

/**
 * What the user sees, in VS Code (code-server + Chromium), medians: the big session's tree with its active
 * leaf no more than 1 s after the small one's (within a round, see UiReport.leafDelayMs), a click showing the summary choice within 100 ms, a move
 * without summary drawn in tree and chat within 200 ms, the extension host within 250 MB.
 */
export function checkUiTargets(ui: UiReport | undefined): TargetCheck[] {
  const ok = (s: UiSessionSummary | undefined): UiSessionSummary | undefined => (s && !s.error ? s : undefined);
  const small = ok(ui?.small);
  const large = ok(ui?.large);
  const on = ui ? `${ui.large.label} (UI)` : "-";
  const delta = small && large ? ui?.leafDelayMs : undefined;
  return [
    uiCheck(
      "UI: tree with leaf ≤ 1 s after the small session's",
      on,
      delta,
      (v) => v <= 1000,
      (v) =>
        `${v >= 0 ? "+" : "−"}${seconds(Math.abs(v))} per round (medians ${seconds(large!.loadToLeafMs)} vs ${seconds(small!.loadToLeafMs)})`,
    ),
    uiCheck(
      "UI: click → summary choice ≤ 100 ms",
      on,
      large?.clickToChoiceMs,
      (v) => v <= 100,
      (v) => `${ms(v)} (worst ${ms(large!.clickToChoiceMaxMs)}; small session ${ms(small?.clickToChoiceMs ?? NaN)})`,
    ),
    uiCheck(
      "UI: move (no summary) → tree and chat ≤ 200 ms",
      on,
      large?.moveMs,
      (v) => v <= 200,
      (v) => `${ms(v)} (worst ${ms(large!.moveMaxMs)}; small session ${ms(small?.moveMs ?? NaN)})`,
    ),
    uiCheck(
      "UI: extension host RSS ≤ 250 MB",
      on,
      large?.rss,
      (v) => v <= 250e6,
      (v) =>
        `${mb(v)} settled (2 s after open ${mb(large!.rssOpen)}, peak ${mb(large!.peakRss)}; small session ${mb(small?.rss ?? NaN)})`,
    ),
  ];
}

/**
 * All targets: the store and tree view (issue 6), the real UI (issue 12), workspace checkpoints (issue 15),
 * session search (issue 17).
 */
export function checkTargets(
  results: DatasetResult[],
  more: { ui?: UiReport; checkpoints?: CheckpointBench; search?: SearchBenchResult } = {},
): TargetCheck[] {
  const { ui, checkpoints, search } = more;
  const heavy = byRole(results, "heavy");
  const large = byRole(results, "large");
  const heavyPair = pair(heavy);
  const floor = heavy?.stores.floor;
  const ours = (r: DatasetResult | undefined): StoreSummary | undefined =>
    r?.stores.ours && !r.stores.ours.error ? r.stores.ours : undefined;
  const wv = webview(large);
  return [
    check(
      "Open ≥ 6× faster than pi",
      heavy,
      heavyPair && heavyPair.pi.openMs / heavyPair.ours.openMs,
      (v) => v >= 6,
      (v) => `${v.toFixed(1)}× (${ms(heavyPair!.ours.openMs)} vs ${ms(heavyPair!.pi.openMs)})`,
    ),
    check(
      "Peak RSS ≤ 30 % of pi's",
      heavy,
      heavyPair && heavyPair.ours.peakRssReady / heavyPair.pi.peakRssReady,
      (v) => v <= 0.3,
      (v) => `${(v * 100).toFixed(0)} % (${mb(heavyPair!.ours.peakRssReady)} vs ${mb(heavyPair!.pi.peakRssReady)})`,
    ),
    check(
      "Open within 2× of the raw floor",
      heavy,
      ours(heavy) && floor && ours(heavy)!.openMs / floor.openMs,
      (v) => v <= 2,
      (v) => `${v.toFixed(1)}× (${ms(ours(heavy)!.openMs)} vs floor ${ms(floor!.openMs)})`,
    ),
    check("Tree first paint ≤ 300 ms (component)", large, wv?.firstPaintMs, (v) => v <= 300, ms),
    check(
      "Search ≤ 50 ms per keystroke (component)",
      large,
      wv?.searchP50Ms,
      (v) => v <= 50,
      (v) => `${ms(v)} (worst ${ms(wv!.searchMaxMs)})`,
    ),
    check(
      "Filter ≤ 50 ms per change (component)",
      large,
      wv?.filterP50Ms,
      (v) => v <= 50,
      (v) => `${ms(v)} (worst ${ms(wv!.filterMaxMs)})`,
    ),
    check(
      "Navigate (no summary) ≤ 5 ms",
      large,
      ours(large)?.navigateP50Ms,
      (v) => v <= 5,
      (v) => `${ms(v)} (worst ${ms(ours(large)!.navigateMaxMs)})`,
    ),
    check("Append p99 ≤ 2 ms", large, ours(large)?.appendP99Ms, (v) => v <= 2, ms),
    ...checkUiTargets(ui),
    ...checkpointTargets(checkpoints),
    ...(search ? [searchCheck(search)] : []),
  ];
}

/** Bytes as MB (10^6). */
export function mb(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1e6).toFixed(0)} MB` : "–";
}
