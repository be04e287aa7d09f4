/** The checkpoint benchmark's targets and table. */
import { failedCells, mdHead, mdRow as row } from "../report/markdown.js";
import type { TargetCheck } from "../report/targets.js";
import type { CheckpointBench, CheckpointSummary } from "./measure-checkpoints.js";

function ms(v: number): string {
  if (!Number.isFinite(v)) return "–";
  return v < 10 ? `${v.toFixed(1)} ms` : `${Math.round(v).toLocaleString("en-US")} ms`;
}

function check(
  target: string,
  s: CheckpointSummary | undefined,
  value: number | undefined,
  limit: number,
  worst?: number,
): TargetCheck {
  if (!s || s.error || value === undefined || !Number.isFinite(value))
    return { target, on: s?.workspace ?? "-", measured: "not measured", status: "n/a" };
  const measured = worst === undefined ? ms(value) : `${ms(value)} (worst ${ms(worst)})`;
  return { target, on: s.workspace, measured, status: value <= limit ? "PASS" : "MISS" };
}

/** The targets: an unchanged 10k-file workspace ≤ 200 ms, a restore of 100 changed files ≤ 1 s. */
export function checkpointTargets(bench: CheckpointBench | undefined): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const s of bench?.results ?? []) {
    checks.push(check("Checkpoint, nothing changed ≤ 200 ms", s, s.unchangedMs, 200, s.unchangedMaxMs));
    checks.push(check("Restore of 100 changed files ≤ 1 s", s, s.restore100Ms, 1000, s.restore100MaxMs));
  }
  return checks;
}

/** One row per workspace. */
export function checkpointTable(bench: CheckpointBench): string {
  const lines = mdHead([
    "Workspace",
    "Recorded files",
    "First checkpoint",
    "Checkpoint, nothing changed (worst)",
    "Checkpoint, 100 files changed",
    "Restore of 100 changed files (worst)",
    "Merge of 100 files changed there",
    "Merge of 100 files changed on both sides (worst)",
    "Longest event-loop delay",
  ]);
  for (const s of bench.results) {
    if (s.error) {
      lines.push(row(failedCells(s.workspace, s.error, 9)));
      continue;
    }
    lines.push(
      row([
        s.workspace,
        s.files.toLocaleString("en-US"),
        ms(s.firstMs),
        `${ms(s.unchangedMs)} (${ms(s.unchangedMaxMs)})`,
        ms(s.changed100Ms),
        `${ms(s.restore100Ms)} (${ms(s.restore100MaxMs)})`,
        ms(s.merge100Ms),
        `${ms(s.lineMerge100Ms)} (${ms(s.lineMerge100MaxMs)})`,
        ms(s.loopDelayMaxMs),
      ]),
    );
  }
  lines.push(
    "",
    `The event loop waits while each git process starts (Node waits for its exec); over one idle second the ` +
      `longest delay was ${ms(bench.idleLoopDelayMaxMs)} on this machine, for comparison.`,
  );
  return lines.join("\n");
}

/** How the checkpoint numbers are made (for docs/bench.md). */
export const CHECKPOINT_METHOD = `Workspace checkpoints (\`src/core/checkpoints\`, docs/checkpoints.md) are timed in the bench process with the
machine's \`git\`, on two folders in a temp directory: a generated workspace of 10,000 files of 1–5 KB in 1,000
folders (plus 2,000 files under an ignored \`node_modules/\`), and a copy of this repository's files. Per folder:
the first checkpoint (empty store), checkpoints with nothing changed (twice the rounds; median and worst), and per
round a checkpoint after 100 files changed followed by a restore of those 100 files (median and worst), then two
merges of that change into the restored files (Bring Conclusions Here with files): as they are (the other side
alone changed the 100 files), and after a line was put at the top of each (a line merge per file). The
longest event-loop delay over all of it shows that the work stays in git's child processes.`;
