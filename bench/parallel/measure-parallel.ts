/**
 * Explore in Parallel (printed by `npm run bench`, or alone: `node --import tsx bench/parallel/measure-parallel.ts`):
 * - starting a branch's copy of a 10,000-file workspace from its checkpoint (target ≤ 2 s), median of several;
 * - the event-loop delay of this process (standing in for the extension host) while four branches stream replies
 *   from the fake model server, run in a process of its own so its work does not count (target p99 ≤ 50 ms),
 *   set beside the same process idle, which shows what the machine's load alone causes.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { FolderCheckpoints } from "../../src/core/checkpoints/index.js";
import { BranchCopy } from "../../src/core/parallel/branch-copy.js";
import { runBranch } from "../../src/core/parallel/branch-run.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { generateWorkspace } from "../checkpoints/workspaces.js";
import { REPO_DIR } from "../paths.js";
import { median } from "../stats.js";

/** Target of starting one copy of a 10k-file workspace. */
export const COPY_TARGET_MS = 2000;
/** Target of the extension host's event-loop delay p99 with four branches streaming. */
export const LOOP_P99_TARGET_MS = 50;

/** What was measured. */
export interface ParallelMeasurement {
  files: number;
  copyMs: number[];
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

/** Runs both measurements in a temp folder; `rounds` copies are timed. */
export async function measureParallel(rounds: number): Promise<ParallelMeasurement> {
  const root = mkdtempSync(join(tmpdir(), "agent-tree-bench-parallel-"));
  try {
    const ws = join(root, "ws");
    mkdirSync(ws);
    const workspace = generateWorkspace(ws);
    const engine = await FolderCheckpoints.open({ folder: ws, storageDir: join(root, "store") });
    const checkpoint = await engine.checkpoint({ reason: "bench" });
    const copyMs: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const start = performance.now();
      const copy = await BranchCopy.materialize({
        folder: ws,
        storeDir: engine.storeDir,
        checkpointId: checkpoint.id,
        copiesDir: join(root, "copies"),
      });
      copyMs.push(performance.now() - start);
      await copy.remove();
    }

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
      const model = {
        id: "fake-model",
        name: "Fake",
        provider: "fake-openai",
        api: "openai-completions" as const,
        baseUrl: baseURL,
        contextWindow: 128_000,
        maxTokens: 4096,
      };
      const before = sm.getEntryCount();
      const loop = monitorEventLoopDelay({ resolution: 5 });
      loop.enable();
      const start = performance.now();
      await Promise.all(
        [0, 1, 2, 3].map((i) =>
          runBranch({
            sessionManager: sm,
            parentId: leaf,
            prompt: `branch ${i}`,
            model,
            kind: "explore",
            groupId: "bench",
            tools: [],
            cwd: ws,
            getApiKey: async () => "bench-key",
          }),
        ),
      );
      const streamMs = performance.now() - start;
      loop.disable();
      const entries = sm.getEntryCount() - before;
      await sm.close();
      return {
        files: workspace.files.length,
        copyMs,
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
  const copy = median(m.copyMs);
  const mark = (ok: boolean): string => (ok ? "PASS" : "MISS");
  return [
    `parallel: a branch's copy of a ${m.files.toLocaleString("en-US")}-file workspace ${copy.toFixed(0)} ms median ` +
      `(max ${Math.max(...m.copyMs).toFixed(0)} ms, ${m.copyMs.length} runs; target ≤ ${COPY_TARGET_MS} ms) ${mark(copy <= COPY_TARGET_MS)}`,
    `parallel: 4 branches streaming (${m.entries} entries in ${(m.streamMs / 1000).toFixed(1)} s): event-loop delay ` +
      `p99 ${m.streamingP99Ms.toFixed(1)} ms, max ${m.streamingMaxMs.toFixed(1)} ms (idle p99 ${m.idleP99Ms.toFixed(1)} ms; ` +
      `target p99 ≤ ${LOOP_P99_TARGET_MS} ms) ${mark(m.streamingP99Ms <= LOOP_P99_TARGET_MS)}`,
  ];
}

if (require.main === module) {
  measureParallel(Number(process.argv[2] ?? 5))
    .then((m) => parallelLines(m).forEach((l) => console.log(`[bench] ${l}`)))
    .catch((e: unknown) => {
      console.error(e);
      process.exit(1);
    });
}
