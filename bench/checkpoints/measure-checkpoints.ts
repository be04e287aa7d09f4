/**
 * Times the checkpoint engine (src/core/checkpoints) on real folders with the real git: the first checkpoint of a
 * folder, a checkpoint when nothing changed (the common case before every prompt), a checkpoint after 100 files
 * changed, a restore of 100 changed files, and merges of another branch's 100 changed files (Bring Conclusions
 * Here with files): changed on that side only, and changed on both sides (a line merge per file). Also the longest
 * event-loop delay seen during all of it (the work runs in git child processes; the extension host must stay
 * responsive).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { FolderCheckpoints } from "../../src/core/checkpoints/index.js";
import { median } from "../stats.js";
import {
  changeFiles,
  copyOfThisRepository,
  generateWorkspace,
  prependToFiles,
  type BenchWorkspace,
} from "./workspaces.js";

/** Medians (ms) on one workspace. */
export interface CheckpointSummary {
  workspace: string;
  files: number;
  firstMs: number;
  unchangedMs: number;
  unchangedMaxMs: number;
  changed100Ms: number;
  restore100Ms: number;
  restore100MaxMs: number;
  /** Merge of 100 files only the other branch changed. */
  merge100Ms: number;
  /** Merge of 100 files both sides changed (ours at the top, theirs at the end). */
  lineMerge100Ms: number;
  lineMerge100MaxMs: number;
  /** Longest event-loop delay during all the timed operations. */
  loopDelayMaxMs: number;
  error?: string;
}

/** The checkpoint part of a bench run. */
export interface CheckpointBench {
  rounds: number;
  /** Longest event-loop delay over one idle second: what the machine's load alone causes. */
  idleLoopDelayMaxMs: number;
  results: CheckpointSummary[];
}

async function idleLoopDelayMax(): Promise<number> {
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  loop.disable();
  return loop.max / 1e6;
}

async function measureOne(ws: BenchWorkspace, store: string, rounds: number): Promise<CheckpointSummary> {
  // Sampled only while the engine works (the bench's own file edits are synchronous).
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const timed = async <T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> => {
    loop.enable();
    const start = performance.now();
    const value = await fn();
    const ms = performance.now() - start;
    loop.disable();
    return { ms, value };
  };
  const cp = await FolderCheckpoints.open({ folder: ws.folder, storageDir: store });
  const first = await timed(() => cp.checkpoint({ reason: "first" }));
  const unchanged: number[] = [];
  for (let i = 0; i < rounds * 2; i++) unchanged.push((await timed(() => cp.checkpoint({ reason: "unchanged" }))).ms);
  const changed: number[] = [];
  const restores: number[] = [];
  const merges: number[] = [];
  const lineMerges: number[] = [];
  for (let round = 0; round < rounds; round++) {
    const before = (await cp.checkpoint()).id;
    const edited = changeFiles(ws, 100, round);
    const after = await timed(() => cp.checkpoint({ reason: "100 changed" }));
    if (after.value.changes.length !== edited.length)
      throw new Error(`expected ${edited.length} changed files, the checkpoint found ${after.value.changes.length}`);
    changed.push(after.ms);
    const restore = await timed(() => cp.restore(before));
    if (restore.value.changes.length !== edited.length)
      throw new Error(`expected ${edited.length} restored files, the restore changed ${restore.value.changes.length}`);
    restores.push(restore.ms);
    // The other branch (before → after) brought into the files of `before`: only its side changed them.
    const merge = await timed(() => cp.merge(before, after.value.id));
    if (merge.value.changes.length !== edited.length)
      throw new Error(`expected ${edited.length} merged files, the merge changed ${merge.value.changes.length}`);
    merges.push(merge.ms);
    await cp.restore(before);
    // Both sides changed the same files: one line merge per file.
    prependToFiles(ws, edited, round);
    const lineMerge = await timed(() => cp.merge(before, after.value.id));
    if (lineMerge.value.files.length !== edited.length)
      throw new Error(`expected ${edited.length} files in the merge, it had ${lineMerge.value.files.length}`);
    lineMerges.push(lineMerge.ms);
    await cp.restore(before);
  }
  return {
    workspace: ws.name,
    files: first.value.fileCount,
    firstMs: first.ms,
    unchangedMs: median(unchanged),
    unchangedMaxMs: Math.max(...unchanged),
    changed100Ms: median(changed),
    restore100Ms: median(restores),
    restore100MaxMs: Math.max(...restores),
    merge100Ms: median(merges),
    lineMerge100Ms: median(lineMerges),
    lineMerge100MaxMs: Math.max(...lineMerges),
    loopDelayMaxMs: loop.max / 1e6,
  };
}

function failed(workspace: string, error: unknown): CheckpointSummary {
  const nan = Number.NaN;
  return {
    workspace,
    files: 0,
    firstMs: nan,
    unchangedMs: nan,
    unchangedMaxMs: nan,
    changed100Ms: nan,
    restore100Ms: nan,
    restore100MaxMs: nan,
    merge100Ms: nan,
    lineMerge100Ms: nan,
    lineMerge100MaxMs: nan,
    loopDelayMaxMs: nan,
    error: error instanceof Error ? error.message : String(error),
  };
}

/** Measures both workspaces in a temp folder (removed afterwards); `log` reports progress. */
export async function measureCheckpoints(rounds: number, log: (line: string) => void): Promise<CheckpointBench> {
  const root = mkdtempSync(join(tmpdir(), "agent-tree-bench-checkpoints-"));
  const results: CheckpointSummary[] = [];
  const idle = await idleLoopDelayMax();
  try {
    const makers: [string, (folder: string) => BenchWorkspace][] = [
      ["generated, 10,000 files", (f) => generateWorkspace(f)],
      ["this repository", (f) => copyOfThisRepository(f)],
    ];
    for (const [i, [label, make]] of makers.entries()) {
      try {
        const ws = make(join(root, `ws${i}`));
        const summary = await measureOne(ws, join(root, `store${i}`), rounds);
        results.push(summary);
        log(
          `checkpoints, ${summary.workspace}: unchanged ${summary.unchangedMs.toFixed(0)} ms, ` +
            `restore of 100 files ${summary.restore100Ms.toFixed(0)} ms, ` +
            `merge of 100 files ${summary.merge100Ms.toFixed(0)} ms (both sides changed: ` +
            `${summary.lineMerge100Ms.toFixed(0)} ms)`,
        );
      } catch (error) {
        results.push(failed(label, error));
        log(`checkpoints, ${label}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return { rounds, idleLoopDelayMaxMs: idle, results };
}
