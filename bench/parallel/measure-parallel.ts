/**
 * Explore in Parallel (printed by `npm run bench`, or alone: `node --import tsx bench/parallel/measure-parallel.ts`):
 * - a branch's copy of a 10,000-file workspace from its checkpoint, median of several: the time until the branch
 *   can start (its copy started; target ≤ 2 s) and, beside it, the time until the copy's files are all written
 *   (they are written in the background while the branch's first request goes out), for one branch and for three
 *   at once (Explore in Parallel's default). Each round starts after the previous copies were removed and `sync`
 *   wrote the removal out, so one round's kernel work does not land in the next one's time;
 * - the event-loop delay of this process (standing in for the extension host) while four branches stream replies
 *   from the fake model server, run in a process of its own so its work does not count (target p99 ≤ 50 ms),
 *   set beside the same process idle, which shows what the machine's load alone causes.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { FolderCheckpoints } from "../../src/core/checkpoints/index.js";
import { BranchCopy } from "../../src/core/parallel/branch-copy.js";
import { AgentSession } from "../../src/core/agent/agent-session.js";
import { runBranch } from "../../src/core/parallel/branch-run.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { FAKE_CUSTOM_MODELS, openAIModel } from "../../test/util/fake-models.js";
import { ModelRegistry } from "../../src/core/providers/model-registry.js";
import { generateWorkspace } from "../checkpoints/workspaces.js";
import { REPO_DIR } from "../paths.js";
import { median } from "../stats.js";
import { printAlone } from "../print-alone.js";

/** Target of starting a branch's copy of a 10k-file workspace (the time until the branch can start). */
export const COPY_TARGET_MS = 2000;
/** Branches of the "several at once" copy measurement (Explore in Parallel's default count). */
const AT_ONCE = 3;
/** Target of the extension host's event-loop delay p99 with four branches streaming. */
export const LOOP_P99_TARGET_MS = 50;

/** What was measured. */
export interface ParallelMeasurement {
  files: number;
  /** One branch: until it can start (its copy started), and until its copy is complete, ms per round. */
  startMs: number[];
  completeMs: number[];
  /** AT_ONCE branches started together: until all can start, and until all copies are complete, ms per round. */
  startAllMs: number[];
  /** …until the first of them has its copy complete (they are written one after another). */
  firstCompleteMs: number[];
  completeAllMs: number[];
  /** Event-loop delay while four branches stream: p99 and max, ms. */
  streamingP99Ms: number;
  streamingMaxMs: number;
  /** The same over an idle second. */
  idleP99Ms: number;
  /** Entries the four branches wrote. */
  entries: number;
  streamMs: number;
}

async function idleP99(): Promise<number> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  loop.disable();
  return loop.percentile(99) / 1e6;
}

/** The fake OpenAI server in its own process; resolves its base URL. */
function startFakeServer(): Promise<{ baseURL: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", join(REPO_DIR, "test/util/fake-openai-server-cli.ts"), "--exit-on-stdin-close"],
    { stdio: ["pipe", "pipe", "inherit"] },
  );
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf("\n");
      if (nl >= 0) resolve({ baseURL: out.slice(0, nl).trim(), child });
    });
    child.on("error", reject);
    child.on("exit", (code) => reject(new Error(`fake server exited (${code})`)));
  });
}

/** Times `rounds` rounds of one copy, then of AT_ONCE copies started together (as exploreInParallel starts them). */
async function measureCopies(options: {
  folder: string;
  storeDir: string;
  checkpointId: string;
  copiesDir: string;
  rounds: number;
}): Promise<Pick<ParallelMeasurement, "startMs" | "completeMs" | "startAllMs" | "firstCompleteMs" | "completeAllMs">> {
  const { rounds, ...where } = options;
  const round = async (count: number): Promise<{ start: number; first: number; complete: number }> => {
    // The previous round's removal written out first: its kernel work must not be timed here.
    execFileSync("sync");
    const t0 = performance.now();
    const copies: BranchCopy[] = [];
    // As exploreInParallel starts them: each copy's files are written after the previous copy's.
    for (let i = 0; i < count; i++)
      copies.push(await BranchCopy.materialize({ ...where, ...(i > 0 ? { after: copies[i - 1].ready } : {}) }));
    const start = performance.now() - t0;
    await copies[0].ready;
    const first = performance.now() - t0;
    await Promise.all(copies.map((c) => c.ready));
    const complete = performance.now() - t0;
    for (const c of copies) await c.remove();
    return { start, first, complete };
  };
  const out = {
    startMs: [] as number[],
    completeMs: [] as number[],
    startAllMs: [] as number[],
    firstCompleteMs: [] as number[],
    completeAllMs: [] as number[],
  };
  for (let i = 0; i < rounds; i++) {
    const one = await round(1);
    out.startMs.push(one.start);
    out.completeMs.push(one.complete);
  }
  for (let i = 0; i < rounds; i++) {
    const all = await round(AT_ONCE);
    out.startAllMs.push(all.start);
    out.firstCompleteMs.push(all.first);
    out.completeAllMs.push(all.complete);
  }
  return out;
}

/** Runs both measurements in a temp folder; `rounds` copies are timed. */
export async function measureParallel(rounds: number): Promise<ParallelMeasurement> {
  const root = mkdtempSync(join(tmpdir(), "agent-tree-bench-parallel-"));
  try {
    const ws = join(root, "ws");
    mkdirSync(ws);
    const workspace = generateWorkspace(ws);
    const engine = await FolderCheckpoints.open({ folder: ws, storageDir: join(root, "store") });
    const checkpoint = await engine.checkpoint({ reason: "bench" });
    const copies = await measureCopies({
      folder: ws,
      storeDir: engine.storeDir,
      checkpointId: checkpoint.id,
      copiesDir: join(root, "copies"),
      rounds,
    });

    const idle = await idleP99();
    const { baseURL, child } = await startFakeServer();
    try {
      const long = {
        text: "A streamed answer with a few words in each chunk. ".repeat(60),
        chunks: 300,
        chunkDelayMs: 10,
      };
      await fetch(`${baseURL.replace(/\/v1$/, "")}/__fake/enqueue`, {
        method: "POST",
        body: JSON.stringify([long, long, long, long]),
      });
      const sm = await SessionManager.create(ws, join(root, "sessions"));
      sm.appendMessage({ role: "user", content: "start", timestamp: Date.now() });
      const leaf = sm.getLeafId();
      const model = openAIModel({ baseURL });
      // Built before the clock starts: the model library loads once per process, not per branch.
      const modelRegistry = await ModelRegistry.create({ custom: FAKE_CUSTOM_MODELS });
      const session = new AgentSession({
        sessionManager: sm,
        cwd: ws,
        modelRegistry,
        getApiKey: async () => "bench-key",
        tools: [],
      });
      const before = sm.getEntryCount();
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const start = performance.now();
      await Promise.all(
        [0, 1, 2, 3].map((i) =>
          runBranch({
            session,
            parentId: leaf,
            prompt: `branch ${i}`,
            model,
            kind: "explore",
            groupId: "bench",
            tools: [],
            cwd: ws,
          }),
        ),
      );
      const streamMs = performance.now() - start;
      loop.disable();
      const entries = sm.getEntryCount() - before;
      await sm.close();
      return {
        files: workspace.files.length,
        ...copies,
        streamingP99Ms: loop.percentile(99) / 1e6,
        streamingMaxMs: loop.max / 1e6,
        idleP99Ms: idle,
        entries,
        streamMs,
      };
    } finally {
      child.stdin?.end();
      child.kill();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The lines `npm run bench` prints. */
export function parallelLines(m: ParallelMeasurement): string[] {
  const start = median(m.startMs);
  const mark = (ok: boolean): string => (ok ? "PASS" : "MISS");
  const ms = (v: number): string => `${v.toFixed(0)} ms`;
  return [
    `parallel: a branch's copy of a ${m.files.toLocaleString("en-US")}-file workspace: the branch can start after ` +
      `${ms(start)} median (max ${ms(Math.max(...m.startMs))}; this is the number held to the target ≤ ` +
      `${COPY_TARGET_MS} ms) ${mark(start <= COPY_TARGET_MS)}; its copy is complete after ${ms(median(m.completeMs))} ` +
      `median (max ${ms(Math.max(...m.completeMs))}; written in the background), ${m.startMs.length} runs`,
    `parallel: ${AT_ONCE} branches' copies at once: all can start after ${ms(median(m.startAllMs))} median, the first copy ` +
      `is complete after ${ms(median(m.firstCompleteMs))} median, all copies after ${ms(median(m.completeAllMs))} median (max ${ms(Math.max(...m.completeAllMs))}), ` +
      `${m.startAllMs.length} runs`,
    `parallel: 4 branches streaming (${m.entries} entries in ${(m.streamMs / 1000).toFixed(1)} s): event-loop delay ` +
      `p99 ${m.streamingP99Ms.toFixed(1)} ms, max ${m.streamingMaxMs.toFixed(1)} ms (idle p99 ${m.idleP99Ms.toFixed(1)} ms; ` +
      `target p99 ≤ ${LOOP_P99_TARGET_MS} ms) ${mark(m.streamingP99Ms <= LOOP_P99_TARGET_MS)}`,
  ];
}

if (require.main === module) printAlone(measureParallel(Number(process.argv[2] ?? 5)), parallelLines);
