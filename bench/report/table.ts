/** The results as Markdown tables (also printed to the terminal). */
import type { Impl } from "../child/protocol.js";
import { checkpointTable } from "../checkpoints/checkpoint-report.js";
import { searchSection } from "../search/search-report.js";
import { failedCells, mdHead, mdRow as row } from "./markdown.js";
import { mb, piName, type TargetCheck } from "./targets.js";
import type { BenchReport, StoreSummary } from "./summary.js";
import { parallelUiSection } from "../ui/parallel-ui-report.js";
import type { UiSessionSummary } from "../ui/run-ui.js";

/** The name of an implementation in the tables. */
function implName(report: BenchReport, impl: Impl): string {
  if (impl === "ours") return "**ours**";
  if (impl === "floor") return "raw floor";
  return piName(report, impl);
}

function ms(v: number): string {
  if (!Number.isFinite(v)) return "–";
  if (v < 0.1) return `${(v * 1000).toFixed(1)} µs`;
  if (v < 1) return `${v.toFixed(3)} ms`;
  if (v < 10) return `${v.toFixed(2)} ms`;
  return `${Math.round(v).toLocaleString("en-US")} ms`;
}

function pairMs(a: number, b: number): string {
  return Number.isFinite(a) ? `${ms(a)} / ${ms(b)}` : "–";
}

/** How many times faster `s` is than `them` from open to tree and context ("" when either is missing). */
function times(s: StoreSummary, them: StoreSummary | undefined): string {
  return them && !them.error && them !== s ? `${(them.readyMs / s.readyMs).toFixed(1)}×` : "";
}

function storeRow(report: BenchReport, s: StoreSummary, stores: Partial<Record<Impl, StoreSummary>>): string[] {
  const name = implName(report, s.impl);
  if (s.error) return failedCells(name, s.error, 10, 120);
  const { piLatest, piLegacy, floor } = stores;
  if (s.impl === "floor")
    return [name, "–", "–", "–", `${ms(s.openMs)} (${ms(s.openCpuMs)})`, "–", mb(s.peakRssOpen), "", "–", "–"];
  const vs =
    s.impl === "ours"
      ? [times(s, piLatest), times(s, piLegacy)].map((t, i) => t && `${t} ${i === 0 ? "newest pi" : "pi 0.73"}`)
      : [];
  const vsFloor = floor && !floor.error ? `${(s.readyMs / floor.openMs).toFixed(1)}× floor` : "";
  const rssShare =
    s.impl === "ours" && piLatest && !piLatest.error
      ? `${((s.peakRssReady / piLatest.peakRssReady) * 100).toFixed(0)} %`
      : "";
  return [
    name,
    `${ms(s.openMs)} (${ms(s.openCpuMs)})`,
    ms(s.getTreeMs),
    ms(s.buildContextMs),
    `**${ms(s.readyMs)}**`,
    [...vs, vsFloor].filter(Boolean).join(", "),
    s.peakRssReady > s.peakRssOpen * 1.02 ? `${mb(s.peakRssOpen)} → ${mb(s.peakRssReady)}` : mb(s.peakRssOpen),
    rssShare,
    pairMs(s.navigateP50Ms, s.navigateMaxMs),
    pairMs(s.appendP50Ms, s.appendP99Ms),
  ];
}

const STORE_ORDER: Impl[] = ["ours", "piLatest", "piLegacy", "floor"];

/** The store table: one block of rows per session. */
export function storeTable(report: BenchReport): string {
  const lines = mdHead([
    "Session",
    "Impl",
    "Open (CPU)",
    "getTree",
    "buildSessionContext",
    "Open → tree → context",
    "Faster than / floor",
    "Peak RSS (open → context)",
    "RSS vs newest pi",
    "navigate p50 / worst",
    "append p50 / p99",
  ]);
  for (const r of report.results) {
    const title = `${r.dataset.label}<br>${r.dataset.entries.toLocaleString("en-US")} entries, ${mb(r.dataset.bytes)}`;
    let first = true;
    for (const impl of STORE_ORDER) {
      const s = r.stores[impl];
      if (!s) continue;
      lines.push(row([first ? title : "", ...storeRow(report, s, r.stores)]));
      first = false;
    }
  }
  return lines.join("\n");
}

/** The webview table. */
export function webviewTable(report: Pick<BenchReport, "results">): string {
  const lines = mdHead([
    "Session",
    "Tree nodes",
    "Host snapshot",
    "First paint",
    "Search / keystroke p50 / worst",
    "Filter change p50 / worst",
    "Leaf move p50 / worst",
    "DOM rows (after search)",
  ]);
  for (const r of report.results) {
    const w = r.webview;
    if (!w) continue;
    if (w.error) {
      lines.push(row(failedCells(r.dataset.label, w.error, 8)));
      continue;
    }
    lines.push(
      row([
        r.dataset.label,
        w.nodes.toLocaleString("en-US"),
        ms(w.hostSnapshotMs),
        ms(w.firstPaintMs),
        pairMs(w.searchP50Ms, w.searchMaxMs),
        pairMs(w.filterP50Ms, w.filterMaxMs),
        pairMs(w.leafMoveP50Ms, w.leafMoveMaxMs),
        `${w.domRows} (${w.domRowsAfterSearch})`,
      ]),
    );
  }
  return lines.join("\n");
}

function seconds(v: number): string {
  return Number.isFinite(v) ? `${(v / 1000).toFixed(1)} s` : "–";
}

/** A difference in seconds with its sign: "+0.4 s", "−1.2 s". */
function signedSeconds(v: number): string {
  return Number.isFinite(v) ? `${v < 0 ? "−" : "+"}${seconds(Math.abs(v))}` : "–";
}

function ratio(a: number, b: number): string {
  return Number.isFinite(a / b) ? `${(a / b).toFixed(1)}×` : "–";
}

/** The real-UI table: the small and the big session, and the big one's figures as multiples of the small's. */
export function uiTable(report: Pick<BenchReport, "ui">): string {
  const ui = report.ui;
  if (!ui) return "";
  const lines = mdHead([
    "Session",
    "Load → tree with leaf",
    "Load → chat",
    "Click → summary choice p50 / worst",
    "Move → tree + chat p50 / worst (tree, chat)",
    "Extension host RSS settled (2 s after open; peak)",
  ]);
  const line = (s: UiSessionSummary): string[] =>
    s.error
      ? failedCells(s.label, s.error, 6)
      : [
          s.label,
          seconds(s.loadToLeafMs),
          seconds(s.loadToChatMs),
          pairMs(s.clickToChoiceMs, s.clickToChoiceMaxMs),
          `${pairMs(s.moveMs, s.moveMaxMs)} (${ms(s.moveTreeMs)}, ${ms(s.moveChatMs)})`,
          `${mb(s.rss)} (${mb(s.rssOpen)}; ${mb(s.peakRss)})`,
        ];
  lines.push(row(line(ui.small)), row(line(ui.large)));
  if (!ui.small.error && !ui.large.error) {
    const { small: a, large: b } = ui;
    lines.push(
      row([
        "big ÷ small",
        `${ratio(b.loadToLeafMs, a.loadToLeafMs)} (${signedSeconds(ui.leafDelayMs)} per round)`,
        ratio(b.loadToChatMs, a.loadToChatMs),
        ratio(b.clickToChoiceMs, a.clickToChoiceMs),
        ratio(b.moveMs, a.moveMs),
        ratio(b.rss, a.rss),
      ]),
    );
  }
  return lines.join("\n");
}

/** How the real-UI figures were made, one line. */
export function uiLine(report: Pick<BenchReport, "ui">): string {
  const ui = report.ui;
  if (!ui) return "";
  const recovered = ui.small.recovered + ui.large.recovered;
  return (
    `Real UI: ${ui.codeServer ?? "code-server 4.100.3 (VS Code 1.100)"} with the extension's production build installed from its .vsix, driven by headless Chromium; medians of ` +
    `${ui.large.runs} run${ui.large.runs === 1 ? "" : "s"} per session, each a fresh code-server; the big session is "${ui.large.label}".` +
    (ui.measuredApart ? ` Measured in a run of its own (\`--ui-only --write\`): ${ui.measuredApart}.` : "") +
    (recovered > 0
      ? ` In ${recovered} of ${ui.small.runs + ui.large.runs} runs a view stayed blank at first and was re-created after 8 s ` +
        `(code-server's webview start-up race; demo ${ui.small.recovered}, big ${ui.large.recovered}): their load times are left out.`
      : "")
  );
}

/** The targets table. */
export function targetsTable(checks: TargetCheck[]): string {
  return [
    ...mdHead(["Target", "Session", "Measured", "Result"]),
    ...checks.map((c) =>
      row([c.target, c.on, c.measured, c.status === "PASS" ? "PASS" : c.status === "MISS" ? "**MISS**" : "n/a"]),
    ),
  ].join("\n");
}

/** The README's summary: per session, open → tree → context of ours against both pi releases, and peak RSS. */
export function summaryTable(report: BenchReport): string {
  const latest = piName(report, "piLatest");
  const legacy = piName(report, "piLegacy");
  const lines = mdHead([
    "Session",
    `Open → tree → context: ours / ${latest} / ${legacy}`,
    `Peak RSS: ours / ${latest} / ${legacy}`,
  ]);
  for (const r of report.results) {
    const { ours, piLatest, piLegacy } = r.stores;
    if (!ours || ours.error) continue;
    const them = [piLatest, piLegacy];
    const readyCells = them.map((s) =>
      s && !s.error ? `${ms(s.readyMs)} (${(s.readyMs / ours.readyMs).toFixed(1)}×)` : "–",
    );
    const rssCells = them.map((s) => (s && !s.error ? mb(s.peakRssReady) : "–"));
    lines.push(
      row([
        `${r.dataset.label} (${mb(r.dataset.bytes)})`,
        [ms(ours.readyMs), ...readyCells].join(" / "),
        [mb(ours.peakRssReady), ...rssCells].join(" / "),
      ]),
    );
  }
  return lines.join("\n");
}

/** How the run was made, one paragraph. */
export function runLine(report: BenchReport): string {
  const checkpoints = report.checkpoints ? ` Checkpoints: ${report.checkpoints.rounds} rounds per workspace.` : "";
  if (report.results.length === 0)
    return (
      `Checkpoint timings only (\`--checkpoints-only\`), ${report.startedAt}, ${report.durationS.toFixed(0)} s.` +
      `${checkpoints} Machine: ${report.machine}.`
    );
  return (
    `${report.quick ? "Quick smoke run (`--quick`: smaller sessions, fewer runs — not a verdict)" : "Full run"}, ` +
    `${report.startedAt}, ${report.durationS.toFixed(0)} s. Medians of ${report.runs} runs, each a fresh Node process ` +
    `per implementation and session; ${report.appends} appends per run.${checkpoints} Machine: ${report.machine}.` +
    (report.storesMeasuredApart
      ? ` The session stores (open → tree → context, navigate, append) were measured again in a run of their own ` +
        `(\`--stores-only --write\`): ${report.storesMeasuredApart}.`
      : "")
  );
}

/** All tables as one Markdown document body. */
export function resultsMarkdown(report: BenchReport, checks: TargetCheck[]): string {
  return [
    runLine(report),
    "",
    "### Targets",
    "",
    targetsTable(checks),
    "",
    "### Session store",
    "",
    storeTable(report),
    "",
    "### Tree webview (component figures: the webview alone in headless Chromium, 400×800 viewport)",
    "",
    webviewTable(report),
    "",
    ...(report.ui ? ["### Real UI (code-server + Chromium)", "", uiLine(report), "", uiTable(report), ""] : []),
    ...(report.parallelUi
      ? ["### Explore in Parallel in the real UI", "", parallelUiSection(report.parallelUi), ""]
      : []),
    ...(report.checkpoints ? ["### Workspace checkpoints", "", checkpointTable(report.checkpoints), ""] : []),
    ...(report.search ? [searchSection(report.search, runLine(report)), ""] : []),
  ].join("\n");
}
