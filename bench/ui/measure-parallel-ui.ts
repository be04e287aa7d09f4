/**
 * Explore in Parallel in the real UI (issue 27, "fast with several at once"): code-server (as published) with the
 * extension and headless Chromium, the demo session, the fake OpenAI server streaming four slow replies
 * ({@link STREAM}). **Explore in Parallel…** is run from the palette with 4 branches, answering its input box and
 * quick picks as a user does; from the Enter that starts the branches until every branch's run line says it ended:
 *
 * - **webview frames**: the time between animation frames (requestAnimationFrame timestamps) in the tree's and
 *   the chat's webview content frames; p50/p95/p99/max and how many took longer than 32 ms (two frames at 60 Hz);
 * - **click → selection**: clicks on tree rows (two rows alternately, 300 ms apart) until the frame that shows
 *   the clicked row selected; only clicks whose selection showed while the branches still ran count;
 * - **extension host event-loop delay**: `monitorEventLoopDelay` in the real extension host, loaded by a
 *   bench-only preload (host-loop-probe.ts), not by the extension.
 *
 * The same frame and loop figures over 3 s idle before the run show what the shared machine's load alone costs.
 * Alone: `node --import tsx bench/ui/measure-parallel-ui.ts [runs]` (esbuild.mjs must have built dist/).
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Frame, Page } from "playwright-core";
import { DEMO_IDS, generateDemo } from "../../demo/generate-demo.js";
import { branchRunDataOf } from "../../src/core/parallel/branch-run-lines.js";
import type { SessionEntry } from "../../src/core/session/types.js";
import { readSession, startAgentWorkbench, type AgentWorkbench } from "../../test/util/agent-ui.js";
import { sleep } from "../../test/util/code-server.js";
import { startFakeOpenAI } from "../../test/util/fake-openai-server.js";
import type { FakeReply, FakeRequestBody, FakeServer } from "../../test/util/fake-provider-common.js";
import { answerExploreQuestions } from "../../test/util/explore-ui.js";
import { openViewContainer, runCommand } from "../../test/util/workbench.js";
import { median, medianOf, percentile } from "../stats.js";
import { extensionHostPids } from "./ext-host.js";
import { loopProbeStart, startLoopProbe, stopLoopProbe, type LoopDelay } from "./host-loop-probe.js";
import { moveTargets } from "./measure-ui.js";
import {
  armInput,
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

/** Branches started. */
export const PARALLEL_BRANCHES = 4;
/** Each branch's reply: 300 chunks, 10 ms apart (4 × 100 chunks a second into the extension host). */
export const STREAM = { chunks: 300, chunkDelayMs: 10 } as const;
/** Target: frame times of the webviews, compared at p99 (the worse of tree and chat). */
export const FRAME_P99_TARGET_MS = 32;
/** Target: the extension host's event-loop delay p99. */
export const HOST_LOOP_P99_TARGET_MS = 50;
/** A frame slower than this is counted (two frames at 60 Hz). */
const SLOW_FRAME_MS = 32;
const IDLE_MS = 3000;
const BETWEEN_CLICKS_MS = 300;
/** The prompt marks the branches' requests (other requests, e.g. a title, get a short answer). */
const PROMPT = "EXPLORE: stream a long answer";

/** Frame times over a window, ms. */
export interface FrameStats {
  frames: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  /** Frames longer than 32 ms. */
  slow: number;
}

/** One run's numbers. */
export interface ParallelUiRun {
  /** Enter on the models question → every branch ended. */
  streamMs: number;
  tree: FrameStats;
  chat: FrameStats;
  treeIdle: FrameStats;
  /** Click → selection drawn, for clicks while the branches streamed. */
  clickToSelectMs: number[];
  loop?: LoopDelay;
  loopIdle?: LoopDelay;
  /** Why the host's loop was not measured. */
  loopError?: string;
  /**
   * Long animation frames while streaming, as the workbench page sees them (the scripts of its webview frames
   * included; the webviews' own documents report none): where frames went, printed per run to find the cause of a
   * miss, not in the result files.
   */
  longFrames: LongFrames;
  /** 1-min load average at the start of the run. */
  load: number;
}

/** Medians over runs (NaN where nothing was measured). */
export interface ParallelUiReport {
  runs: number;
  branches: number;
  stream: { chunks: number; chunkDelayMs: number };
  streamMs: number;
  /** Per field, the median over runs. */
  tree: FrameStats;
  chat: FrameStats;
  treeIdle: FrameStats;
  /** Median over runs of each run's median click → selection, its worst, and how many clicks in all. */
  clickToSelectMs: number;
  clickToSelectMaxMs: number;
  clicks: number;
  loopP99Ms: number;
  loopMaxMs: number;
  idleLoopP99Ms: number;
  loopError?: string;
  /** Load average range over the runs' starts. */
  loadMin: number;
  loadMax: number;
  error?: string;
}

/** Percentiles of the times between frames. */
export function frameStats(deltas: number[]): FrameStats {
  return {
    frames: deltas.length,
    p50: percentile(deltas, 50),
    p95: percentile(deltas, 95),
    p99: percentile(deltas, 99),
    max: deltas.length > 0 ? Math.max(...deltas) : Number.NaN,
    slow: deltas.filter((d) => d > SLOW_FRAME_MS).length,
  };
}

function textOfLast(body: FakeRequestBody): string {
  const messages = body.messages as { content?: unknown }[] | undefined;
  return JSON.stringify(messages?.at(-1)?.content ?? "");
}

/** The branches' replies stream slowly; anything else is answered at once. */
function replies(body: FakeRequestBody): FakeReply {
  if (!textOfLast(body).includes("EXPLORE")) return { text: "Short answer.", chunkDelayMs: 0 };
  return { text: "A streamed answer with a few words in each chunk. ".repeat(60), ...STREAM };
}

/** The states of the branch runs in the session file, latest per branch. */
function runStates(file: string): string[] {
  const states = new Map<string, string>();
  for (const line of readSession(file)) {
    const data = branchRunDataOf(line as unknown as SessionEntry);
    if (data && typeof line.parentId === "string") states.set(line.parentId, data.state);
  }
  return [...states.values()];
}

const running = (file: string): boolean => runStates(file).some((s) => s === "running");

async function until(test: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + PROBE_TIMEOUT_MS;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${PROBE_TIMEOUT_MS} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** Starts the branches through the palette: the prompt, "4", the current model (the returned step starts them). */
async function askForBranches(page: Page): Promise<() => Promise<void>> {
  await runCommand(page, "Agent: Explore in Parallel…");
  return answerExploreQuestions(page, PROMPT, PARALLEL_BRANCHES);
}

/** Clicks rows alternately while the branches run; the click → selection times of those drawn while they ran. */
async function clickWhileStreaming(tree: Frame, file: string): Promise<number[]> {
  const targets = await moveTargets(tree);
  const times: number[] = [];
  for (let i = 0; running(file) && i < 200; i++) {
    const id = targets[i % 2];
    await armInput(tree, "click", "click");
    await armWatch(tree, "selected", { kind: "selected", id });
    await tree.locator(`[role="treeitem"][data-entry-id="${id}"]`).click();
    const clickAt = await watchTime(tree, "click", "the click on the tree row");
    const shownAt = await watchTime(tree, "selected", `the tree to show ${id} selected`);
    if (running(file)) times.push(shownAt - clickAt);
    await sleep(BETWEEN_CLICKS_MS);
  }
  return times;
}

/** The one extension host's pid. */
function hostPid(wb: AgentWorkbench): number {
  const pids = wb.server.process.pid === undefined ? [] : extensionHostPids(wb.server.process.pid);
  if (pids.length !== 1) throw new Error(`expected one extension host, found ${pids.length}`);
  return pids[0];
}

/** One run on a fresh code-server. */
export async function measureParallelUiRun(load: number): Promise<ParallelUiRun> {
  const tmp = mkdtempSync(join(tmpdir(), "agent-tree-bench-parallel-ui-"));
  let fake: FakeServer | undefined;
  let wb: AgentWorkbench | undefined;
  try {
    fake = await startFakeOpenAI({ defaultReply: replies });
    const demo = generateDemo(join(tmp, "demo"), {
      baseUrl: fake.baseURL,
      // A click moves the leaf at once (no summary question): the click's own work runs beside the streams.
      settings: { "agentTree.branchSummary.ask": "never" },
    });
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

    // The extension host's loop, if the preload loaded there (else the frames are still measured).
    let pid: number | undefined;
    let loopError: string | undefined;
    try {
      pid = hostPid(wb);
      startLoopProbe(loopDir, pid);
    } catch (error) {
      loopError = error instanceof Error ? error.message : String(error);
      pid = undefined;
    }
    await startFrameTimes(tree);
    await sleep(IDLE_MS);
    const treeIdle = frameStats(await stopFrameTimes(tree));
    const loopIdle = pid === undefined ? undefined : await stopLoopProbe(loopDir, pid);

    const start = await askForBranches(page);
    await Promise.all([startFrameTimes(tree), startFrameTimes(chat), startLongFrames(page)]);
    if (pid !== undefined) startLoopProbe(loopDir, pid);
    const started = Date.now();
    await start();
    await until(() => runStates(demo.sessionFile).length === PARALLEL_BRANCHES, "the branches to start");
    const clicks = await clickWhileStreaming(tree, demo.sessionFile);
    await until(() => !running(demo.sessionFile), "every branch to end");
    const streamMs = Date.now() - started;
    const [treeDeltas, chatDeltas, longFrames] = await Promise.all([
      stopFrameTimes(tree),
      stopFrameTimes(chat),
      stopLongFrames(page),
    ]);
    const loop = pid === undefined ? undefined : await stopLoopProbe(loopDir, pid);
    const states = runStates(demo.sessionFile);
    if (states.some((s) => s !== "done")) throw new Error(`branches ended ${states.join(", ")} (expected done)`);
    return {
      streamMs,
      tree: frameStats(treeDeltas),
      chat: frameStats(chatDeltas),
      treeIdle,
      clickToSelectMs: clicks,
      loop,
      loopIdle,
      loopError,
      longFrames,
      load,
    };
  } finally {
    await wb?.close();
    await fake?.close();
    rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** Each field's median over runs. */
function medianFrames(runs: ParallelUiRun[], pick: (r: ParallelUiRun) => FrameStats): FrameStats {
  const of = (field: keyof FrameStats): number => medianOf(runs, (r) => pick(r)[field]);
  return { frames: of("frames"), p50: of("p50"), p95: of("p95"), p99: of("p99"), max: of("max"), slow: of("slow") };
}

/** Medians of the runs. */
export function summariseParallelUi(runs: ParallelUiRun[], error?: string): ParallelUiReport {
  const loops = runs.filter((r) => r.loop !== undefined);
  return {
    runs: runs.length,
    branches: PARALLEL_BRANCHES,
    stream: { ...STREAM },
    streamMs: medianOf(runs, (r) => r.streamMs),
    tree: medianFrames(runs, (r) => r.tree),
    chat: medianFrames(runs, (r) => r.chat),
    treeIdle: medianFrames(runs, (r) => r.treeIdle),
    clickToSelectMs: medianOf(runs, (r) => (r.clickToSelectMs.length > 0 ? median(r.clickToSelectMs) : undefined)),
    clickToSelectMaxMs: medianOf(runs, (r) =>
      r.clickToSelectMs.length > 0 ? Math.max(...r.clickToSelectMs) : undefined,
    ),
    clicks: runs.reduce((n, r) => n + r.clickToSelectMs.length, 0),
    loopP99Ms: medianOf(loops, (r) => r.loop?.p99),
    loopMaxMs: medianOf(loops, (r) => r.loop?.max),
    idleLoopP99Ms: medianOf(loops, (r) => r.loopIdle?.p99),
    loopError: loops.length === runs.length ? undefined : runs.find((r) => r.loopError)?.loopError,
    loadMin: runs.length > 0 ? Math.min(...runs.map((r) => r.load)) : Number.NaN,
    loadMax: runs.length > 0 ? Math.max(...runs.map((r) => r.load)) : Number.NaN,
    error,
  };
}
