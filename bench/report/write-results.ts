/**
 * Writes the results: bench/results.md (the tables), docs/bench.md (method, chart, tables),
 * docs/bench-chart.svg (open → tree → context and peak RSS against file size: ours, both pi releases and the
 * raw floor) and the README's benchmark section.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as prettier from "prettier";
import type { Impl } from "../child/protocol.js";
import { BENCH_DIR, CHART_FILE, DOCS_FILE, README_FILE, RESULTS_FILE } from "../paths.js";
import { chartSvg, type ChartSeries } from "./chart-svg.js";
import type { BenchReport } from "./summary.js";
import { resultsMarkdown, runLine, summaryTable, targetsTable, uiLine, uiTable } from "./table.js";
import { piName } from "./targets.js";
import { CHECKPOINT_METHOD } from "../checkpoints/checkpoint-report.js";
import { parallelUiSection } from "../ui/parallel-ui-report.js";
import type { TargetCheck } from "./targets.js";

type SeriesSpec = { impl: Impl; name: string; color: string; dashed?: boolean };

/** The chart's lines, pi's named by the versions the report measured. */
function seriesSpecs(report: BenchReport): SeriesSpec[] {
  return [
    { impl: "ours", name: "ours", color: "#1f6feb" },
    { impl: "piLatest", name: piName(report, "piLatest"), color: "#d1242f" },
    { impl: "piLegacy", name: piName(report, "piLegacy"), color: "#bf8700" },
    { impl: "floor", name: "raw floor (read + count lines)", color: "#6e7781", dashed: true },
  ];
}

/** Splits text at spaces into lines of at most `width` characters. */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** The chart for a report. */
export function reportChart(report: BenchReport): string {
  const series = (
    value: (impl: Impl, r: BenchReport["results"][number]) => number | undefined,
    specs: SeriesSpec[] = seriesSpecs(report),
  ): ChartSeries[] =>
    specs.map((s) => ({
      name: s.name,
      color: s.color,
      dashed: s.dashed,
      points: report.results.flatMap((r) => {
        const y = value(s.impl, r);
        return y === undefined || !Number.isFinite(y)
          ? []
          : [
              {
                x: r.dataset.bytes / 1e6,
                y,
                label: `${r.dataset.label}: ${y.toFixed(y < 10 ? 2 : 0)}`,
                // Deep and bushy sessions are other shapes, and the ASCII copy another content: not points on the size series.
                apart: r.dataset.role === "deep" || r.dataset.role === "bushy" || r.dataset.role === "ascii",
              },
            ];
      }),
    }));
  const ok = (impl: Impl, r: BenchReport["results"][number]) => {
    const s = r.stores[impl];
    return s && !s.error ? s : undefined;
  };
  return chartSvg(
    [
      {
        title: "Open → tree → context (floor: read the file)",
        xLabel: "session file size (MB)",
        yLabel: "ms (log)",
        series: series((i, r) => (i === "floor" ? ok(i, r)?.openMs : ok(i, r)?.readyMs)),
      },
      {
        title: "Peak RSS, tree and context built",
        xLabel: "session file size (MB)",
        yLabel: "MB (log)",
        series: series((i, r) => {
          const s = ok(i, r);
          return s ? s.peakRssReady / 1e6 : undefined;
        }),
      },
    ],
    [
      `Medians of ${report.runs} fresh-process runs, ${report.startedAt}; hollow markers: the deep and bushy sessions.`,
      ...wrap(report.machine, 140),
    ],
  );
}

const METHOD = `## How it is measured

\`npm run bench\` (entry \`bench/run.ts\`) generates pi v3 session files into \`bench/.data/\` (once; a manifest
remembers them), then for every session runs **fresh Node processes** — one per implementation and run — so
that peak RSS belongs to that run alone:

- **ours**: \`SessionManager.open()\` from \`src/core/session\`, bundled with esbuild into \`bench/.data/child.mjs\`
  (children start from plain \`node\`, no TypeScript loader in their memory).
- **the newest pi** (npm \`@earendil-works/pi-coding-agent\`, 1.6.x) and **pi 0.73.1** (npm
  \`@mariozechner/pi-coding-agent\`, the first baseline): their \`dist/core/session-manager.js\`, installed by
  \`tools/pi/ensure.mjs\` (pinned versions; \`ensurePiReleases()\` in \`tools/pi/index.ts\`) and imported directly, so
  pi is not charged for loading its CLI. pi 1.6 needs Node 22: its children run under the Node 22 that
  \`tools/pi\` installs from npm; ours, pi 0.73.1 and the floor run under the project's Node.
- **raw floor**: read the file in 4 MB chunks and find every newline — the least any store must do.

Each child times \`open\`, then \`getTree()\` (walking every node and reading its preview where the store has
one: ours reads previews at open; pi's nodes hold whole entries), then \`buildSessionContext()\`. Their sum,
**open → tree → context**, is what a user waits for before the tree is drawn and the next prompt can go out:
the targets compare it. The child reads its peak RSS (\`VmHWM\` from \`/proc/self/status\`) after open and after
the context (the RSS target and chart use the second), then times \`branch(id)\` to 64 entries sampled across the
file (navigation without a summary; ours also persists the leaf with one appended line) and N
\`appendMessage()\` calls (p50/p99). The file is truncated back to its size after every run. The parent reads
the file once right before each child (this machine reclaims idle page cache), so the page cache is warm for
everyone. "Open (CPU)" shows the wall-clock time and, in brackets, the CPU time (user + system) of open, which a
busy machine disturbs less; the targets use wall-clock medians of runs interleaved across implementations.

**Component figures.** The tree webview alone is driven through \`test/webview/harness.ts\`: the bundle built from \`webview/main.tsx\` as
\`esbuild.mjs\` builds it (not minified), served on 127.0.0.1 under the host's CSP, in headless Chromium with a fake
\`acquireVsCodeApi\`, a fresh page per run. The snapshot is what the host sends (our store's envelopes through
\`src/core/rows/row-columns.ts\`; "host snapshot" is that step plus the serialisation VS Code's \`postMessage\` does
(JSON with typed arrays lifted out as binary), timed in the bench process).
**First paint** = posting \`tree/snapshot\` until the frame after the rows exist (rAF, then a task).
**Search** = one keystroke of "branch session" into the search field until the next frame after the re-render;
**filter** = switching the filter dropdown, likewise. **Leaf move** = a \`tree/update\` as the host posts it for a
reply appended at the leaf (ten of them) and for a branch switch (six, between an early user message and the tail)
until the frame after the re-render and the scroll that keeps the active row in view; the bench also prints the
page's work on it alone (handler, renders, layout; no wait for the frame). **DOM rows** counts \`treeitem\` elements
(the list is windowed). Per-operation numbers are judged on their median; the worst is shown too. These figures leave out
VS Code: its extension host, the message channel, the workbench.

**Real UI.** What a user waits for, in VS Code (code-server 4.139.1 unless \`AGENT_TREE_CODE_SERVER=oldest\`
picks 4.100.3, as \`test/util/code-server.ts\` starts it for the end-to-end tests) with the extension installed from
the .vsix of its production build (\`node esbuild.mjs --production\`, as \`npm run package\` builds it), driven by headless Chromium
(\`test/util/workbench.ts\`), on the demo workspace holding either the demo session or a copy of the ~300 MB
session (\`--quick\`: the ~30 MB one). Every run is a fresh code-server, browser profile and copy of the
session; a round is one run of each, back to back (five rounds; one with \`--quick\`), and how much later the
big session's tree shows its leaf is the median over rounds of the difference within a round, so drift
between rounds on a busy machine stays out of it. A run in which the extension had to re-create a view that
stayed blank (code-server's webview start-up race; the recovery waits 8 s) measures that recovery, not the
session: its load times are left out of the medians, and the table says how many there were; the target that the
big session's tree is never more than 1 s later takes the worst round, those included. Times come from the pages themselves (\`bench/ui/probes.ts\`):
each frame notes on its own clock when what is awaited is drawn, so no polling or DevTools round trip is in
them. **Load → tree with leaf**: from loading the workbench URL (the Agent view opened as soon as the
activity bar is there) to the tree's first frame with its active leaf marked; **load → chat** likewise for
the first chat message. **Click → summary choice**: a click on a tree row (an assistant message a few rows
above the leaf) until the frame showing the "Summarize the branch you're leaving?" quick pick. **Move**:
Enter on "No summary" until the tree marks the new leaf and the chat ends with it (the later of the two;
both are shown). Six moves per run, alternating between two rows, half a second apart. **Extension host
RSS**: VmRSS of the extension host process (a child of the code-server process, found in \`/proc\`) two
seconds after the views are drawn, and settled: after the moves and 30 s idle (the target is on this one: an
idle Node process leaves the garbage of a big open — the snapshot's JSON copies — until V8's memory reducer
collects it, 10–30 s later); the peak is its VmHWM.

**Explore in Parallel in the real UI** (\`bench/ui/measure-parallel-ui.ts\`, skipped with \`--no-ui\`): the same
code-server and Chromium on the demo session, the fake OpenAI server of the tests (\`test/util/fake-openai-server.ts\`,
in the bench process) streaming each branch's reply in 300 chunks 10 ms apart. **Explore in Parallel…** is run from the
palette as a user runs it (the prompt, "4" branches, the current model). From the Enter that starts the branches
until every branch's run line in the session file says it ended, each webview's content frame notes the time
between animation frames (\`requestAnimationFrame\` timestamps); the target compares **p99** (the worse of the tree and
the chat) with 32 ms, and the max and the frames over 32 ms are shown beside it. At 60 Hz the times come in steps
of 16.7 ms: a frame over 32 ms is one that skipped at least one refresh. Both webviews are frames of the one
workbench page and are drawn in the same animation frames, so their figures come out alike; both are shown. Meanwhile two tree rows are clicked
alternately, 300 ms apart: **click → selection** is the click event until the frame that shows the row selected.
The **extension host's event-loop delay** (\`monitorEventLoopDelay\`, 5 ms resolution) is measured in the real
extension host by a bench-only preload (\`bench/ui/host-loop-probe.ts\`, loaded with \`--require\` by code-server's Node, active only
in the extension host and only with \`AGENT_TREE_BENCH_LOOP_DIR\` set); the extension itself is unchanged. The same
frames and loop over 3 s idle before the run show what the shared machine's load alone costs; the load average of
each run's start is given with the figures. Per run the bench also prints where the long animation frames
(over 50 ms, Chromium's Long Animation Frames API, as the workbench page sees them) spent their script time, by file
(\`webview.js\` is this extension's webview bundle, \`workbench.js\` VS Code's): not in the tables, it is there to find
the cause of a miss.

Sessions, written as pi writes them: linear sessions with a branch every 40 turns and a label every 97
(everyday sizes, 1 KB tool outputs); a ~300 MB session with 10 KB tool outputs, Anthropic-style thinking with
signatures and whole-file writes; both compacted, as pi compacts, whenever the context since the last compaction
outgrows a 200k-token window less pi's 16k reserve (a compaction keeping the last turn), so every session resumes
with a context a model could take; a deep one where every level is a branch point; a bushy one with one node
holding all branches. The ~300 MB session is measured a second time as an **ASCII-only copy** (its "—" and "✓"
swapped for ASCII of the same byte length, so every entry sits at the same offset): pi 1.6 decodes a 1 MB chunk
that holds one character outside ASCII as a two-byte string, which makes its open 1.6–1.7× dearer (CPU), and a
session of plain ASCII text is its best case (bench/analysis.md); pi 0.73.1 is not run on the copy.

${CHECKPOINT_METHOD}

Run \`npm run bench -- --quick\` for a smoke run (smaller sessions, 2 runs; writes nothing unless \`--write\`),
\`--cpu-prof\` to write CPU profiles of the store children and the webview page to \`bench/.data/profiles/\`
(summarise one with \`node --import tsx bench/profile-summary.ts <file>\`), \`--from-last\` to rewrite these
files from the last run (e.g. after editing \`bench/analysis.md\`), \`--no-ui\` to skip the real-UI figures
(\`--ui-runs N\` sets their rounds), \`--no-checkpoints\` to skip the checkpoint timings and
\`--checkpoints-only\` to run only them (never written), \`--no-search\` to skip the session search (below) and
\`--search-only\` to measure only it (with \`--write\` it rewrites only its section), \`--bash-only\` to time only
the start of a \`bash\` tool call (\`true\` and \`echo hello\` through the tool and as a plain \`spawn\` of
\`bash -c\`, interleaved; printed, never written; target: within 150 ms of the plain spawn), \`--export-only\` to measure only
the HTML export of a 30,000-entry line and a 24,000-entry bushy tree (page size against the JSONL, time to write it,
time until Chromium shows it from the file, a search, elements in the page; printed, never written), \`--list-only\` to
measure only Open Session…'s listing of the search corpus (below), first and again in one process, the longest the event loop
was held, how long it was busy (event-loop utilisation) and the CPU time, with the files read in 2 worker threads (the list worker's bundle) and in one thread, against pi 1.6.0's \`SessionManager.list()\` of the same folders (printed, never written), \`--stream-only\` to measure
only a streamed reply (5, 50 and 200 KB of prose with markdown and of one big fenced code block, 200 bytes per 50 ms post)
and a \`!command\` printing 1 and 5 MB (20 KB per 250 ms update): the host's ChatSync and DTOs per post in plain Node,
the bytes posted, then the chat webview in headless Chromium fed the same posts (per post: main-thread time, median,
p95 and max, and to the next frame; tasks over 50 ms; the page's CPU; printed, never written), \`--ui-stream-only\` to
measure a long reply in the real UI (code-server + Chromium, a fresh one per reply, the prompt sent from the chat, the
fake OpenAI server streaming ~200 KB of that prose or code block in 300-byte chunks 15 ms apart; in the chat webview's
content frame: the time between animation frames, \`longtask\` entries, and the fake server's last chunk to the frame
that first shows the reply's last words; the extension host's CPU time and event-loop delay; up to 3 runs by
\`--ui-runs\`; printed, never written), \`--mcp-only\` to time only
the start of an MCP stdio server (the fixture server to its tools listed, through the pool — on Linux started away
from the extension host — and through the SDK's own \`StdioClientTransport\` with the same environment,
interleaved; printed, never written; target: within 150 ms), \`--stores-only\` to measure only the session stores
(with \`--only a,b\` and \`--runs N\`; the table and its targets are printed; \`--stores-only --write\` measures every
session and puts the stores' figures into the last written run's results, saying when they were measured),
\`--webview-only\` or \`--ui-only\` to measure only the tree webview or the real UI of the sessions chosen with
\`--only\` (printed with the UI's targets; \`--ui-only --write\` measures the real UI and Explore in Parallel's real UI
and puts them into the last written run's results), \`--help\` for the rest.
`;

/** Formats Markdown as the repository's Prettier config does, so `npm run lint` stays clean. */
async function formatted(file: string, markdown: string): Promise<string> {
  const options = (await prettier.resolveConfig(file)) ?? {};
  return prettier.format(markdown, { ...options, parser: "markdown" });
}

/** Writes all result files. */
export async function writeResults(report: BenchReport, checks: TargetCheck[]): Promise<void> {
  const tables = resultsMarkdown(report, checks);
  const results = `# Benchmark results\n\nGenerated by \`npm run bench\`; see [docs/bench.md](../docs/bench.md).\n\n${tables}`;
  writeFileSync(RESULTS_FILE, await formatted(RESULTS_FILE, results));
  writeFileSync(CHART_FILE, reportChart(report));
  const analysisFile = join(BENCH_DIR, "analysis.md");
  const analysis = existsSync(analysisFile) ? `\n${readFileSync(analysisFile, "utf8").trim()}\n` : "";
  const chart = "![Open → tree → context and peak RSS against file size](bench-chart.svg)";
  const docs = `# Benchmarks: our session store and tree view against pi, the real UI, and workspace checkpoints\n\n${METHOD}\n## Results\n\n${chart}\n\n${tables}${analysis}`;
  writeFileSync(DOCS_FILE, await formatted(DOCS_FILE, docs));
  writeFileSync(README_FILE, await formatted(README_FILE, readmeWithResults(report, checks)));
}

const README_START = "<!-- bench:start (written by npm run bench) -->";
const README_END = "<!-- bench:end -->";

/** The README with its benchmark section (between the markers) replaced by this run's chart and tables. */
function readmeWithResults(report: BenchReport, checks: TargetCheck[]): string {
  const readme = readFileSync(README_FILE, "utf8");
  const start = readme.indexOf(README_START);
  const end = readme.indexOf(README_END);
  if (start < 0 || end < start)
    throw new Error(`${README_FILE} has no benchmark markers (${README_START} … ${README_END})`);
  const body = [
    README_START,
    "",
    "![Open → tree → context and peak RSS against file size: ours, the newest pi, pi 0.73.1 and the raw floor](docs/bench-chart.svg)",
    "",
    runLine(report),
    "",
    targetsTable(checks),
    "",
    summaryTable(report),
    "",
    ...(report.ui ? [uiLine(report), "", uiTable(report), ""] : []),
    ...(report.parallelUi ? [parallelUiSection(report.parallelUi), ""] : []),
  ].join("\n");
  return readme.slice(0, start) + body + readme.slice(end);
}
