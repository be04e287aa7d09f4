/**
 * A long reply streamed in the real UI (`npm run bench -- --ui-stream-only [--ui-runs N]`, printed, never written):
 * code-server (as published) with the extension's production build and headless Chromium, the demo session, and
 * the fake OpenAI server streaming one long reply ({@link STREAM_UI_CASES}: the prose with markdown and the big
 * fenced code block of bench/webview/measure-stream.ts, ~200 KB, in 300-byte chunks 15 ms apart). A prompt is sent
 * from the chat's input; from its Send click until the run ended (the chat's progress bar gone) and 500 ms more:
 *
 * - **chat frames**: the time between animation frames (requestAnimationFrame) in the chat webview's content
 *   frame: median, p95, max, and how many took longer than 50 ms;
 * - **long tasks**: PerformanceObserver `longtask` entries in that frame (tasks over 50 ms), and the long
 *   animation frames the workbench page saw (its webview frames' scripts included);
 * - **last chunk → shown**: from the fake server writing the reply's last chunk to the frame that first shows the
 *   reply's last words;
 * - **extension host CPU**: its user + system time over the window (/proc), and its event-loop delay
 *   (host-loop-probe.ts).
 *
 * Each run is a fresh code-server per case. Alone: `node --import tsx bench/ui/measure-stream-ui.ts [runs]`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { DEMO_IDS, generateDemo } from "../../demo/generate-demo.js";
import { startAgentWorkbench, type AgentWorkbench } from "../../test/util/agent-ui.js";
import { codeServerInstalled, REPO_ROOT, sleep } from "../../test/util/code-server.js";
import { startFakeOpenAI } from "../../test/util/fake-openai-server.js";
import type { FakeReply, FakeRequestBody, FakeServer } from "../../test/util/fake-provider-common.js";
import { openViewContainer, waitUntil } from "../../test/util/workbench.js";
import { printAlone } from "../print-alone.js";
import { median, percentile } from "../stats.js";
import { codeReply, proseReply } from "../webview/measure-stream.js";
import { extensionHostPids } from "./ext-host.js";
import { loopProbeStart, startLoopProbe, stopLoopProbe, type LoopDelay } from "./host-loop-probe.js";
import {
  armWatch,
  PROBE_TIMEOUT_MS,
  startFrameTimes,
  startLongFrames,
  stopFrameTimes,
  stopLongFrames,
  watchTime,
  webviewFrame,
  type LongFrames,
} from "./probes.js";

/** Bytes per chunk and the pause between chunks: a fast model (~20 KB/s). */
export const STREAM_UI = { chunkBytes: 300, chunkDelayMs: 15 } as const;
/** The reply's last words: the frame that first shows them is "the last text shown". */
const END_MARK = "END-OF-STREAMED-REPLY";
/** The prompt marks the bench's request (a title request, if any, gets a short answer). */
const PROMPT = "STREAM-BENCH: write a long answer";
const AFTER_MS = 500;

/** The replies streamed: ~200 KB each, ending with {@link END_MARK}. */
export const STREAM_UI_CASES: readonly { name: string; text: string }[] = [
  { name: "prose 200 KB", text: `${proseReply(200 * 1024)}\n\nThe end: ${END_MARK}.\n` },
  { name: "code block 200 KB", text: `${codeReply(200 * 1024)}\n// ${END_MARK}\n\`\`\`\n` },
];

/** One run of one case. */
export interface StreamUiRun {
  name: string;
  bytes: number;
  chunks: number;
  /** Send click → the run ended. */
  streamMs: number;
  /** ms between animation frames in the chat's content frame. */
  frames: number[];
  /** Durations of the `longtask` entries in the chat's content frame. */
  longTasks: number[];
  /** Long animation frames as the workbench page saw them. */
  longFrames: LongFrames;
  /** The fake server's last chunk → the first frame showing the reply's last words. */
  lastChunkToShownMs: number;
  /** Extension host user + system CPU over the window, ms. */
  hostCpuMs: number;
  loop?: LoopDelay;
  loopError?: string;
  load: number;
}

function textOfLast(body: FakeRequestBody): string {
  const messages = body.messages as { content?: unknown }[] | undefined;
  return JSON.stringify(messages?.at(-1)?.content ?? "");
}

/** CPU time (user + system) of `pid` so far, ms. */
function cpuMs(pid: number, tick: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / tick;
}

/** Long tasks in `frame` (PerformanceObserver "longtask"), until {@link stopLongTasks}. */
async function startLongTasks(frame: Frame): Promise<void> {
  await frame.evaluate(`(() => {
    const s = { durations: [] };
    s.observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) s.durations.push(e.duration); });
    s.observer.observe({ type: "longtask" });
    window.__agentTreeLongTasks = s;
  })()`);
}

async function stopLongTasks(frame: Frame): Promise<number[]> {
  return (await frame.evaluate(`(() => {
    const s = window.__agentTreeLongTasks;
    for (const e of s.observer.takeRecords()) s.durations.push(e.duration);
    s.observer.disconnect();
    return s.durations;
  })()`)) as number[];
}

/**
 * Arms a note, in `frame`, of the first frame drawn after a DOM change that shows `mark` (a text node holding it,
 * or an added element whose text holds it), read with watchTime under `slot`. Only the changed nodes' text is
 * looked at (the end of a long text node), so the watch costs little per update.
 */
async function armTextShown(frame: Frame, slot: string, mark: string): Promise<void> {
  await frame.evaluate(`(() => {
    const mark = ${JSON.stringify(mark)};
    window.__agentTreeWatch = window.__agentTreeWatch || {};
    window.__agentTreeWatch[${JSON.stringify(slot)}] = new Promise((resolve) => {
      const holds = (node) => node.nodeType === Node.TEXT_NODE
        ? node.data.slice(-4000).includes(mark)
        : node.nodeType === Node.ELEMENT_NODE && (node.textContent || "").includes(mark);
      const observer = new MutationObserver((records) => {
        for (const r of records) {
          const nodes = r.type === "characterData" ? [r.target] : [...r.addedNodes];
          if (!nodes.some(holds)) continue;
          observer.disconnect();
          requestAnimationFrame(() => resolve(performance.timeOrigin + performance.now()));
          return;
        }
      });
      observer.observe(document, { subtree: true, childList: true, characterData: true });
    });
  })()`);
}

/** One case on a fresh code-server. */
async function measureCase(c: { name: string; text: string }, tick: number): Promise<StreamUiRun> {
  const tmp = mkdtempSync(join(tmpdir(), "agent-tree-bench-stream-ui-"));
  const chunks = Math.ceil(c.text.length / STREAM_UI.chunkBytes);
  let lastChunkAt: number | undefined;
  let fake: FakeServer | undefined;
  let wb: AgentWorkbench | undefined;
  try {
    const reply = (body: FakeRequestBody): FakeReply =>
      textOfLast(body).includes("STREAM-BENCH")
        ? { text: c.text, chunks, chunkDelayMs: STREAM_UI.chunkDelayMs }
        : { text: "Short answer.", chunkDelayMs: 0 };
    fake = await startFakeOpenAI({
      defaultReply: reply,
      onReplyEnd: (body) => {
        if (textOfLast(body).includes("STREAM-BENCH")) lastChunkAt = Date.now();
      },
    });
    const demo = generateDemo(join(tmp, "demo"), { baseUrl: fake.baseURL });
    const loopDir = join(tmp, "loop");
    mkdirSync(loopDir);
    wb = await startAgentWorkbench({
      workspace: demo.workspace,
      profileDir: join(tmp, "profile"),
      ...loopProbeStart(loopDir),
    });
    const { page } = wb;
    await openViewContainer(page, "Agent");
    const tree = await webviewFrame(page, '[role="tree"]');
    const chat = await webviewFrame(page, ".chat-messages");
    await armWatch(tree, "leaf", { kind: "leaf", id: DEMO_IDS.leaf });
    await watchTime(tree, "leaf", "the demo session's leaf");
    const pids = wb.server.process.pid === undefined ? [] : extensionHostPids(wb.server.process.pid);
    if (pids.length !== 1) throw new Error(`expected one extension host, found ${pids.length}`);
    const pid = pids[0];
    let loopError: string | undefined;
    try {
      startLoopProbe(loopDir, pid);
    } catch (error) {
      loopError = error instanceof Error ? error.message : String(error);
    }

    const load = loadavg()[0];
    await chat.locator('textarea[aria-label="Message"]').fill(PROMPT);
    await armTextShown(chat, "end", END_MARK);
    await Promise.all([startFrameTimes(chat), startLongTasks(chat), startLongFrames(page)]);
    const cpuBefore = cpuMs(pid, tick);
    const started = Date.now();
    await chat.getByRole("button", { name: "Send" }).click();
    const shownAt = await watchTime(chat, "end", "the reply's last words");
    await waitUntil(
      async () => ((await chat.locator('[role="progressbar"]').count()) === 0 ? true : undefined),
      "the run to end",
      PROBE_TIMEOUT_MS,
    );
    const streamMs = Date.now() - started;
    await sleep(AFTER_MS);
    const [frames, longTasks, longFrames] = await Promise.all([
      stopFrameTimes(chat),
      stopLongTasks(chat),
      stopLongFrames(page),
    ]);
    const hostCpuMs = cpuMs(pid, tick) - cpuBefore;
    const loop = loopError === undefined ? await stopLoopProbe(loopDir, pid) : undefined;
    if (lastChunkAt === undefined) throw new Error("the fake server never ended the reply");
    return {
      name: c.name,
      bytes: c.text.length,
      chunks,
      streamMs,
      frames,
      longTasks,
      longFrames,
      lastChunkToShownMs: shownAt - lastChunkAt,
      hostCpuMs,
      loop,
      loopError,
      load,
    };
  } finally {
    await wb?.close();
    await fake?.close();
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Builds the production extension and measures each case `runs` times (cases alternating). */
export async function measureStreamUi(runs: number, log: (line: string) => void): Promise<StreamUiRun[]> {
  if (!codeServerInstalled()) throw new Error("code-server is not installed (bash scripts/ensure-deps.sh)");
  const build = spawnSync(process.execPath, ["esbuild.mjs", "--production"], { cwd: REPO_ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`building the extension failed: ${build.stderr || build.stdout}`);
  const tick = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  const out: StreamUiRun[] = [];
  for (let i = 0; i < runs; i++) {
    for (const c of STREAM_UI_CASES) {
      const r = await measureCase(c, tick);
      out.push(r);
      log(streamUiLine(r));
    }
  }
  return out;
}

const ms = (x: number): string => (Number.isNaN(x) ? "–" : x < 10 ? x.toFixed(1) : x.toFixed(0));

/** One run, one line. */
export function streamUiLine(r: StreamUiRun): string {
  const slow = r.frames.filter((d) => d > 50).length;
  const lf = r.longFrames;
  return (
    `ui stream ${r.name}: ${r.chunks} chunks of ${STREAM_UI.chunkBytes} B every ${STREAM_UI.chunkDelayMs} ms, ` +
    `${(r.streamMs / 1000).toFixed(1)} s to the run's end; chat frames median ${ms(median(r.frames))} ` +
    `p95 ${ms(percentile(r.frames, 95))} max ${ms(Math.max(...r.frames))} ms, ${slow}/${r.frames.length} > 50 ms; ` +
    `long tasks in the chat frame ${r.longTasks.length} (max ${ms(r.longTasks.length > 0 ? Math.max(...r.longTasks) : 0)} ms, ` +
    `${ms(r.longTasks.reduce((a, b) => a + b, 0))} ms in all); long animation frames (page) ${lf.count} ` +
    `(${ms(lf.totalMs)} ms; ${lf.scripts.map(([s, t]) => `${s} ${ms(t)}`).join(", ")}); ` +
    `last chunk → shown ${ms(r.lastChunkToShownMs)} ms; extension host CPU ${(r.hostCpuMs / 1000).toFixed(2)} s ` +
    `(${((100 * r.hostCpuMs) / r.streamMs).toFixed(0)}% of the stream), event loop p99 ` +
    `${r.loop ? `${ms(r.loop.p99)} ms` : `not measured (${r.loopError ?? "?"})`}; load ${r.load.toFixed(1)}`
  );
}

/** The summary lines: per case, medians over the runs. */
export function streamUiLines(runs: readonly StreamUiRun[]): string[] {
  return STREAM_UI_CASES.map((c) => {
    const rs = runs.filter((r) => r.name === c.name);
    const of = (pick: (r: StreamUiRun) => number): string => ms(median(rs.map(pick)));
    const count = (pick: (r: StreamUiRun) => number): string => String(median(rs.map(pick)));
    return (
      `ui stream ${c.name} (median of ${rs.length}): chat frames p95 ${of((r) => percentile(r.frames, 95))} ` +
      `max ${of((r) => Math.max(...r.frames))} ms, ${count((r) => r.frames.filter((d) => d > 50).length)} > 50 ms; ` +
      `long tasks ${count((r) => r.longTasks.length)}; last chunk → shown ${of((r) => r.lastChunkToShownMs)} ms; ` +
      `extension host CPU ${of((r) => (100 * r.hostCpuMs) / r.streamMs)}% of the stream`
    );
  });
}

if (process.argv[1]?.endsWith("measure-stream-ui.ts"))
  printAlone(
    measureStreamUi(Number(process.argv[2] ?? 1), (l) => console.log(`[bench] ${l}`)),
    streamUiLines,
  );
