/**
 * `npm run bench [-- --quick]`: generates sessions, measures our session store against the SessionManager of
 * the newest pi (1.6.0, under the Node it needs) and of pi 0.73.1 (fresh process per measurement), our tree
 * webview in headless Chromium and the real UI (code-server + Chromium, the demo session against the big one, and
 * Explore in Parallel with 4 branches streaming),
 * prints the tables with PASS/MISS per target and writes bench/results.md, docs/bench.md, docs/bench-chart.svg
 * and the README's benchmark section.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { cpus, loadavg, platform, totalmem } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { activationLines, measureActivation } from "./activation/measure-activation.js";
import { measureCheckpoints } from "./checkpoints/measure-checkpoints.js";
import { buildChild, runChild } from "./child-runner.js";
import { measureMentions, mentionsLine } from "./mentions/measure-mentions.js";
import { compareLine, measureCompare } from "./compare/measure-compare.js";
import { measureParallel, parallelLines } from "./parallel/measure-parallel.js";
import { measureSandbox, sandboxLines } from "./parallel/measure-sandbox.js";
import { measurePrompt, promptLine } from "./prompt/measure-prompt.js";
import { bashLines, measureBash } from "./bash/measure-bash.js";
import { exportLines, measureExport } from "./export/measure-export.js";
import { listLines, measureList } from "./sessions-list/measure-list.js";
import { measureStream, streamLines } from "./webview/measure-stream.js";
import { measureStreamUi, streamUiLines } from "./ui/measure-stream-ui.js";
import { mcpLines, measureMcp } from "./mcp/measure-mcp.js";
import type { ChildResult, Impl } from "./child/protocol.js";
import { ensureDatasets, FULL_DATASETS, QUICK_DATASETS, type Dataset } from "./generate/datasets.js";
import { parseOptions, UsageRequested, type BenchOptions } from "./options.js";
import { DATA_DIR, DOCS_FILE, RESULTS_FILE } from "./paths.js";
import { summariseStore, summariseWebview, type BenchReport, type DatasetResult } from "./report/summary.js";
import { resultsMarkdown, storeTable, uiLine, uiTable, webviewTable } from "./report/table.js";
import { checkTargets, checkUiTargets } from "./report/targets.js";
import { measureUi, type UiReport } from "./ui/run-ui.js";
import type { ParallelUiReport } from "./ui/measure-parallel-ui.js";
import { parallelUiLines } from "./ui/parallel-ui-report.js";
import { measureParallelUi } from "./ui/run-parallel-ui.js";
import { writeResults } from "./report/write-results.js";
import { measureSearch, type SearchBenchResult } from "./search/run-search.js";
import { searchSection, writeSearchSection } from "./search/search-report.js";
import { measureWebviewRun, startRig, type WebviewRun } from "./webview/measure-webview.js";
import { buildSnapshot, type HostSnapshot } from "./webview/snapshot.js";
import { ensurePiReleases, type PiReleases } from "../tools/pi/index.js";

const IMPLS: Impl[] = ["floor", "piLegacy", "piLatest", "ours"];
/** The numbers behind the committed result files, for --from-last. */
const LAST_REPORT = join(DATA_DIR, "last-report.json");
/** The numbers of the latest run of any kind (quick, partial or not written). */
const LAST_RUN = join(DATA_DIR, "last-run.json");

/** Runs a measurement whose lines are printed (not part of the result tables); its failure is one line naming it. */
async function printed<T>(name: string, measure: () => Promise<T>, lines: (m: T) => readonly string[]): Promise<void> {
  try {
    for (const line of lines(await measure())) log(line);
  } catch (error) {
    log(`${name}: ${errorText(error)}`);
  }
}

function log(line: string): void {
  console.log(`[bench] ${line}`);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The Node binary and module of each implementation (ours and the floor run under this Node). */
function runnerOf(impl: Impl, pi: PiReleases): { node: string; piModule?: string } {
  if (impl === "piLatest") return { node: pi.latest.node, piModule: pi.latest.sessionManager };
  if (impl === "piLegacy") return { node: pi.legacy.node, piModule: pi.legacy.sessionManager };
  return { node: process.execPath };
}

/** Runs are interleaved across implementations so slow drift on a shared machine hits all of them alike. */
async function measureStores(
  dataset: Dataset,
  options: BenchOptions,
  pi: PiReleases,
): Promise<DatasetResult["stores"]> {
  const runs: Record<Impl, ChildResult[]> = { floor: [], piLegacy: [], piLatest: [], ours: [] };
  const errors: Partial<Record<Impl, string>> = {};
  // The ASCII-only copy of the heavy session is there for the newest pi's best case: pi 0.73.1 is left out.
  const impls = dataset.role === "ascii" ? IMPLS.filter((i) => i !== "piLegacy") : IMPLS;
  for (let run = 0; run < options.runs; run++) {
    for (const impl of impls) {
      if (errors[impl] !== undefined) continue;
      try {
        runs[impl].push(
          await runChild({
            impl,
            ...runnerOf(impl, pi),
            file: dataset.path,
            navTargets: dataset.navTargets,
            appends: options.appends,
            cpuProf: options.cpuProf && run === 0,
            tag: `${dataset.name}-${impl}`,
          }),
        );
      } catch (error) {
        errors[impl] = errorText(error);
        log(`${dataset.name} ${impl}: ${errors[impl]}`);
      }
    }
  }
  const stores: DatasetResult["stores"] = {};
  for (const impl of impls) stores[impl] = summariseStore(impl, runs[impl], errors[impl]);
  return stores;
}

async function measureWebviews(results: DatasetResult[], options: BenchOptions): Promise<void> {
  const rig = await startRig();
  const profileDir = join(DATA_DIR, "profiles");
  if (options.cpuProf) mkdirSync(profileDir, { recursive: true });
  try {
    for (const result of results) {
      let snapshot: HostSnapshot | undefined;
      const runs: WebviewRun[] = [];
      try {
        snapshot = await buildSnapshot(result.dataset.path);
        const p = snapshot.posted;
        log(
          `${result.dataset.name} host snapshot: ${snapshot.hostMs.toFixed(0)} ms (encode ${snapshot.encodeMs.toFixed(0)} ms), ` +
            `posted as ${p.jsonChars} characters of JSON${p.jsonTwoByte ? " (two-byte)" : ""} + ` +
            `${p.buffers} buffers of ${(p.bufferBytes / 1e6).toFixed(2)} MB`,
        );
        for (let run = 0; run < options.runs; run++) {
          const profile =
            options.cpuProf && run === 0 ? join(profileDir, `webview-${result.dataset.name}.cpuprofile`) : undefined;
          runs.push(await measureWebviewRun(rig, snapshot.message, profile));
        }
        result.webview = summariseWebview(runs, snapshot.message.rows.count, snapshot.hostMs);
      } catch (error) {
        const nodes = snapshot?.message.rows.count ?? 0;
        result.webview = summariseWebview(runs, nodes, snapshot?.hostMs ?? Number.NaN, errorText(error));
        log(`${result.dataset.name} webview: ${errorText(error)}`);
      }
      const w = result.webview;
      log(
        `${result.dataset.name} webview: first paint ${w.firstPaintMs.toFixed(0)} ms, search ${w.searchP50Ms.toFixed(1)} ms, ` +
          `leaf move ${w.leafMoveP50Ms.toFixed(1)} ms (worst ${w.leafMoveMaxMs.toFixed(1)} ms; ` +
          `work ${w.leafMoveWorkP50Ms.toFixed(2)} ms, worst ${w.leafMoveWorkMaxMs.toFixed(2)} ms)`,
      );
    }
  } finally {
    await rig.close();
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.fromLast) {
    // Re-render the committed files (e.g. after editing bench/analysis.md) without measuring again.
    if (!existsSync(LAST_REPORT)) throw new Error(`--from-last: no earlier run (${LAST_REPORT} is missing)`);
    const last = JSON.parse(readFileSync(LAST_REPORT, "utf8")) as { report: BenchReport };
    await writeResults(
      last.report,
      checkTargets(last.report, {
        ui: last.report.ui,
        parallelUi: last.report.parallelUi,
        checkpoints: last.report.checkpoints,
        search: last.report.search,
      }),
    );
    log(
      "rewrote bench/results.md, docs/bench.md, docs/bench-chart.svg and the README's benchmark section from the last run",
    );
    return;
  }
  if (options.searchOnly) return searchOnly(options);
  if (options.bashOnly) {
    bashLines(await measureBash(options.quick ? 10 : 30)).forEach((line) => log(line));
    return;
  }
  if (options.webviewOnly) return webviewOnly(options);
  if (options.uiOnly) return uiOnly(options);
  if (options.mcpOnly) {
    mcpLines(await measureMcp(options.quick ? 5 : 20)).forEach((line) => log(line));
    return;
  }
  if (options.exportOnly) {
    exportLines(await measureExport(options.quick)).forEach((line) => log(line));
    return;
  }
  if (options.listOnly) {
    listLines(await measureList(options.quick)).forEach((line) => log(line));
    return;
  }
  if (options.streamOnly) {
    streamLines(await measureStream(options.quick)).forEach((line) => log(line));
    return;
  }
  if (options.uiStreamOnly) {
    // Runs of 2 code-servers each: --ui-runs says how many (a quick run, one).
    streamUiLines(await measureStreamUi(options.quick ? 1 : Math.min(options.uiRuns, 3), log)).forEach((l) => log(l));
    return;
  }
  if (options.activationOnly) return activationOnly(options);
  const started = performance.now();
  const loadAtStart = loadavg()[0];
  const startedAt = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  let specs = options.quick ? QUICK_DATASETS : FULL_DATASETS;
  if (options.only) specs = specs.filter((s) => options.only!.includes(s.name));
  if (options.checkpointsOnly) specs = [];
  else if (specs.length === 0) throw new Error("no dataset selected (see --only)");
  let pi: PiReleases | undefined;
  if (specs.length > 0) {
    log("pi releases: installing what is missing (tools/pi/ensure.mjs)");
    pi = ensurePiReleases();
    await buildChild();
  }
  const datasets = ensureDatasets(specs, DATA_DIR, log);

  const results: DatasetResult[] = [];
  for (const dataset of datasets) {
    const stores = await measureStores(dataset, options, pi as PiReleases);
    results.push({ dataset, stores });
    const fmt = (impl: Impl) => {
      const s = stores[impl];
      return s && !s.error
        ? `${impl} ${s.readyMs.toFixed(0)} ms/${(s.peakRssReady / 1e6).toFixed(0)} MB`
        : `${impl} failed`;
    };
    log(
      `${dataset.name}: open → tree → context ${IMPLS.filter((i) => stores[i])
        .map(fmt)
        .join(", ")}`,
    );
  }
  if (options.storesOnly) {
    printStores(results, options, pi as PiReleases, loadAtStart, startedAt, started);
    if (options.write) await writeStoresApart(results, `${startedAt}, ${machineLine(loadAtStart)}`);
    return;
  }
  // Activation and the bundles (and the model library's first use): printed, not part of the result tables.
  await printed(
    "activation",
    () => measureActivation(options.quick ? 3 : 15, options.activationBaseline, log),
    activationLines,
  );
  // The chat input's @ list on a 100k-file workspace: printed, not part of the result tables.
  await printed(
    "mentions",
    () => measureMentions(DATA_DIR),
    (m) => [mentionsLine(m)],
  );
  // The compare tab on long branches: printed, not part of the result tables.
  await printed(
    "compare",
    () => measureCompare(DATA_DIR, options.quick ? 2_000 : 10_000, options.runs),
    (cases) => cases.map(compareLine),
  );
  // Explore in Parallel: a branch's copy of a 10k-file workspace, and the event loop with four branches streaming.
  await printed("parallel", () => measureParallel(options.quick ? 2 : 5), parallelLines);
  // The branches' confinement: a command's start in the sandbox, and one check of the copies' size cap.
  await printed("sandbox", () => measureSandbox(options.quick ? 3 : 10), sandboxLines);
  // The system prompt before each model call (20 instruction files, 50 skills): printed, not part of the tables.
  await printed(
    "system prompt",
    () => measurePrompt(options.quick ? 50 : 200),
    (m) => [promptLine(m)],
  );
  // A bash tool call against a plain spawn of the same command: printed, not part of the tables.
  await printed("bash", () => measureBash(options.quick ? 10 : 30), bashLines);
  // An MCP stdio server's start through the pool (away from this process) against the SDK's own: printed.
  await printed("mcp", () => measureMcp(options.quick ? 5 : 20), mcpLines);
  if (!options.skipWebview && results.length > 0) {
    // No Chromium (or a broken bundle) must not cost the store results: the webview targets show "n/a".
    // The ASCII-only copy draws the same tree as the heavy session: not measured twice.
    const drawn = results.filter((r) => r.dataset.role !== "ascii");
    await measureWebviews(drawn, options).catch((error: unknown) => log(`webview: ${errorText(error)}`));
  }

  let ui: UiReport | undefined;
  const heavy = datasets.find((d) => d.role === "heavy");
  if (options.skipUi) log("ui: skipped (--no-ui)");
  else if (!heavy) {
    if (!options.checkpointsOnly) log("ui: skipped (no heavy session selected)");
  } else
    ui = await measureUi(
      { label: heavy.label, file: heavy.path },
      { runs: options.uiRuns, moves: options.uiMoves },
      log,
    );
  // Explore in Parallel in the real UI: webview frames and the extension host's event loop with 4 branches streaming.
  let parallelUi: ParallelUiReport | undefined;
  if (!options.skipUi && !options.checkpointsOnly) {
    parallelUi = await measureParallelUi(options.uiRuns, log);
    parallelUiLines(parallelUi).forEach((line) => log(line));
  }

  const checkpoints = options.checkpoints ? await measureCheckpoints(options.quick ? 3 : 10, log) : undefined;
  const search = options.skipSearch || options.checkpointsOnly ? undefined : await measureSearchSafely(options);

  const report: BenchReport = {
    ...storesReport(results, options, pi, loadAtStart, startedAt, started),
    ui,
    parallelUi,
    checkpoints,
    search,
  };
  const checks = checkTargets(report, { ui, parallelUi, checkpoints, search });
  const markdown = resultsMarkdown(report, checks);
  console.log(`\n${markdown}`);
  for (const c of checks) console.log(`${c.status.padEnd(4)}  ${c.target} — ${c.measured} (${c.on})`);

  mkdirSync(DATA_DIR, { recursive: true });
  writeFileSync(LAST_RUN, JSON.stringify({ report, checks }, null, 2));
  writeFileSync(join(DATA_DIR, "last-results.md"), markdown);
  if (options.write) {
    await writeResults(report, checks);
    writeFileSync(LAST_REPORT, JSON.stringify({ report, checks }, null, 2));
    log("wrote bench/results.md, docs/bench.md and docs/bench-chart.svg");
  } else {
    log("results in bench/.data/last-results.md (pass --write to update bench/results.md and docs/)");
  }
}

/**
 * `--stores-only`: the session stores alone (open → tree → context against pi and the floor, side by side in
 * this run), printed with the targets they bear on; nothing is written.
 */
function printStores(
  results: DatasetResult[],
  options: BenchOptions,
  pi: PiReleases,
  loadAtStart: number,
  startedAt: string,
  started: number,
): void {
  const report = storesReport(results, options, pi, loadAtStart, startedAt, started);
  console.log(`\nStores only, ${startedAt}: medians of ${options.runs} runs; ${machineLine(loadAtStart)}.\n`);
  console.log(`${storeTable(report)}\n`);
  for (const c of checkTargets(report).filter((t) => t.status !== "n/a"))
    console.log(`${c.status.padEnd(4)}  ${c.target} — ${c.measured} (${c.on})`);
}

/**
 * `--stores-only --write`: the stores just measured replace those of the last written run (sessions matched by name;
 * their webview figures and every other part of that run are kept), and the result files are written again.
 */
async function writeStoresApart(results: DatasetResult[], measuredApart: string): Promise<void> {
  if (!existsSync(LAST_REPORT))
    throw new Error(`--stores-only --write: no earlier written run (${LAST_REPORT} is missing)`);
  const last = JSON.parse(readFileSync(LAST_REPORT, "utf8")) as { report: BenchReport };
  const fresh = new Map(results.map((r) => [r.dataset.name, r.stores]));
  const missing = last.report.results.filter((r) => !fresh.has(r.dataset.name)).map((r) => r.dataset.name);
  if (missing.length > 0)
    throw new Error(`--stores-only --write measures every session of the written run; missing: ${missing.join(", ")}`);
  const report: BenchReport = {
    ...last.report,
    results: last.report.results.map((r) => ({ ...r, stores: fresh.get(r.dataset.name) ?? r.stores })),
    storesMeasuredApart: measuredApart,
  };
  const checks = checkTargets(report, {
    ui: report.ui,
    parallelUi: report.parallelUi,
    checkpoints: report.checkpoints,
    search: report.search,
  });
  await writeResults(report, checks);
  writeFileSync(LAST_REPORT, JSON.stringify({ report, checks }, null, 2));
  log("wrote the session stores' figures into bench/results.md, docs/bench.md and the README's benchmark section");
}

/** A report of the stores' results: how the run went (its options, pi's releases, when, how long, on what). */
function storesReport(
  results: DatasetResult[],
  options: BenchOptions,
  pi: PiReleases | undefined,
  loadAtStart: number,
  startedAt: string,
  started: number,
): BenchReport {
  return {
    quick: options.quick,
    piVersions: pi ? { latest: pi.latest.version, legacy: pi.legacy.version } : undefined,
    runs: options.runs,
    appends: options.appends,
    startedAt,
    durationS: (performance.now() - started) / 1000,
    machine: machineLine(loadAtStart),
    results,
  };
}

function machineLine(loadAtStart: number): string {
  const cpu = cpus();
  return `${cpu.length}× ${cpu[0]?.model.trim() ?? "unknown CPU"}, ${Math.round(totalmem() / 1e9)} GB, Node ${process.version}, ${platform()}; 1-min load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end (other work shares this machine)`;
}

/** The session search, or its failure as a result (a failed search must not cost the other results). */
async function measureSearchSafely(options: BenchOptions): Promise<SearchBenchResult> {
  try {
    return await measureSearch(options.quick, options.runs, log);
  } catch (error) {
    log(`search: ${errorText(error)}`);
    return { corpus: { name: "", files: 0, bytes: 0 }, listMs: Number.NaN, summaries: [], error: errorText(error) };
  }
}

/** `--activation-only`: the activation figures (before → after with --activation-baseline), printed only. */
async function activationOnly(options: BenchOptions): Promise<void> {
  const load = loadavg()[0];
  const report = await measureActivation(options.quick ? 3 : 15, options.activationBaseline, log);
  for (const line of activationLines(report)) log(line);
  log(`machine: ${machineLine(load)}`);
}

/**
 * `--search-only`: measures the session search only; with --write, replaces the search section of
 * bench/results.md and docs/bench.md (the other results stay as the last full run wrote them).
 */
async function searchOnly(options: BenchOptions): Promise<void> {
  const loadAtStart = loadavg()[0];
  const startedAt = new Date().toISOString().replace(/\.\d+Z$/, "Z");
  const search = await measureSearchSafely(options);
  const when =
    `${options.quick ? "Quick search run (--quick: ~70 MB, not a verdict)" : "Search run"}, ${startedAt}, ` +
    `medians of ${options.runs} runs. Machine: ${machineLine(loadAtStart)}.`;
  const section = searchSection(search, when);
  console.log(`\n${section}`);
  if (!options.write) return;
  for (const file of [RESULTS_FILE, DOCS_FILE]) await writeSearchSection(file, section);
  log("wrote the search section of bench/results.md and docs/bench.md");
}

/**
 * `--webview-only`: the headless tree webview figures of the selected sessions (generated when missing), printed;
 * no stores, no real UI, nothing written.
 */
async function webviewOnly(options: BenchOptions): Promise<void> {
  // The ASCII-only copy draws the same tree as the heavy session: not measured twice.
  let specs = (options.quick ? QUICK_DATASETS : FULL_DATASETS).filter((s) => s.role !== "ascii");
  if (options.only) specs = specs.filter((s) => options.only!.includes(s.name));
  if (specs.length === 0) throw new Error("no dataset selected (see --only)");
  const loadAtStart = loadavg()[0];
  const results: DatasetResult[] = ensureDatasets(specs, DATA_DIR, log).map((dataset) => ({ dataset, stores: {} }));
  await measureWebviews(results, options);
  console.log(
    `\n${webviewTable({ results })}\n\nMedians of ${options.runs} runs. Machine: ${machineLine(loadAtStart)}.`,
  );
}

/**
 * `--ui-only`: the real-UI figures (the demo session against the big one of the selected sessions, generated when
 * missing), printed with the UI's targets; nothing else measured. With `--write`, the real-UI figures (this one and
 * Explore in Parallel's) replace those of the last written run, and the result files are written again from it.
 */
async function uiOnly(options: BenchOptions): Promise<void> {
  let specs = options.quick ? QUICK_DATASETS : FULL_DATASETS;
  if (options.only) specs = specs.filter((s) => options.only!.includes(s.name));
  const heavy = ensureDatasets(
    specs.filter((s) => s.role === "heavy"),
    DATA_DIR,
    log,
  )[0];
  if (heavy === undefined) throw new Error("--ui-only needs the big session (see --only)");
  const started = performance.now();
  const loadAtStart = loadavg()[0];
  const ui = await measureUi(
    { label: heavy.label, file: heavy.path },
    { runs: options.uiRuns, moves: options.uiMoves },
    log,
  );
  console.log(`\n${uiTable({ ui })}\n\n${uiLine({ ui })} Machine: ${machineLine(loadAtStart)}.\n`);
  for (const c of checkUiTargets(ui)) console.log(`${c.status.padEnd(4)}  ${c.target} — ${c.measured} (${c.on})`);
  if (!options.write) return;
  // The last written run is the base: only its real-UI part is measured again.
  if (!existsSync(LAST_REPORT))
    throw new Error(`--ui-only --write: no earlier written run (${LAST_REPORT} is missing)`);
  const parallelUi = await measureParallelUi(options.uiRuns, log);
  parallelUiLines(parallelUi).forEach((line) => log(line));
  const startedAt = new Date(Date.now() - (performance.now() - started)).toISOString().replace(/\.\d+Z$/, "Z");
  ui.measuredApart = `${startedAt}, ${machineLine(loadAtStart)}`;
  const last = JSON.parse(readFileSync(LAST_REPORT, "utf8")) as { report: BenchReport };
  const report: BenchReport = { ...last.report, ui, parallelUi };
  const checks = checkTargets(report, {
    ui,
    parallelUi,
    checkpoints: report.checkpoints,
    search: report.search,
  });
  await writeResults(report, checks);
  writeFileSync(LAST_REPORT, JSON.stringify({ report, checks }, null, 2));
  log("wrote the real-UI figures into bench/results.md, docs/bench.md and the README's benchmark section");
}

main().catch((error: unknown) => {
  if (error instanceof UsageRequested) {
    console.log(error.message);
    return;
  }
  // The message says what went wrong; set BENCH_STACK=1 for the stack.
  const detail = error instanceof Error && process.env.BENCH_STACK ? error.stack : errorText(error);
  console.error(`[bench] ${detail}`);
  process.exitCode = 1;
});
