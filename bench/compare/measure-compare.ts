/**
 * The compare tab on long branches (printed by `npm run bench`): two branches of many turns from one root, once
 * with every prompt different (the envelopes tell every turn apart, no body is read) and once with the same prompts
 * and mostly the same replies (aligned turns look alike, so their bodies are read to confirm). Times the overview
 * (what the tab needs first) and one page of turns, reopened from disk each run, and sets the overview beside what
 * building the model's context at one leaf costs on the same file: a ratio that holds on a busy machine.
 */
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { BranchComparison } from "../../src/core/compare/compare-branches.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { textReply } from "../generate/text-reply.js";

/** One measured case. */
export interface CompareMeasurement {
  name: string;
  turnsPerBranch: number;
  entries: number;
  overviewMs: number;
  pageMs: number;
  contextMs: number;
  changedTurns: number;
}

/** Writes the two-branch session; returns the file and both tips. */
async function writeCase(
  dir: string,
  turns: number,
  sameText: boolean,
): Promise<{ file: string; left: string; right: string; entries: number }> {
  const sm = await SessionManager.create(dir, dir);
  const root = sm.appendMessage({ role: "user", content: "Start the refactoring", timestamp: 1 });
  const filler = " The parser keeps its public API; the tokenizer moves to its own module.".repeat(8);
  const branch = (side: string): string => {
    sm.branch(root);
    for (let i = 0; i < turns; i++) {
      const prompt = sameText ? `Step ${i}: continue` : `Step ${i} on branch ${side}: continue`;
      sm.appendMessage({ role: "user", content: prompt, timestamp: 1 });
      // Same prompts: nine replies in ten are the same on both sides, the tenth differs after its first 200 characters.
      const tail = sameText && i % 10 !== 0 ? "" : ` (${side})`;
      sm.appendMessage(textReply(`Done with step ${i}.${filler}${tail}`, 1));
    }
    return sm.getLeafId() as string;
  };
  const left = branch("left");
  const right = branch("right");
  const file = sm.getSessionFile() as string;
  const entries = sm.getEntryCount();
  await sm.close();
  return { file, left, right, entries };
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Measures both cases with `turns` turns per branch, `runs` times each (medians). */
export async function measureCompare(dataDir: string, turns: number, runs: number): Promise<CompareMeasurement[]> {
  const dir = join(dataDir, "compare");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const out: CompareMeasurement[] = [];
  try {
    for (const [name, sameText] of [
      ["different prompts", false],
      ["same prompts, 1 reply in 10 differs", true],
    ] as const) {
      const { file, left, right, entries } = await writeCase(join(dir, name.replace(/\W+/g, "-")), turns, sameText);
      const overview: number[] = [];
      const page: number[] = [];
      const context: number[] = [];
      let changedTurns = 0;
      for (let run = 0; run < runs; run++) {
        const sm = await SessionManager.open(file, { readOnly: true });
        sm.getEnvelopes();
        let t = performance.now();
        const comparison = BranchComparison.create(sm, left, right);
        overview.push(performance.now() - t);
        t = performance.now();
        comparison.turns(Math.floor(comparison.turnCount / 2), 20);
        page.push(performance.now() - t);
        changedTurns = [...comparison.overview.statuses].filter((c) => c !== "s").length;
        await sm.close();
        // The baseline on a fresh open, so neither warms the other's body cache.
        const again = await SessionManager.open(file, { readOnly: true });
        t = performance.now();
        again.buildSessionContext();
        context.push(performance.now() - t);
        await again.close();
      }
      out.push({
        name,
        turnsPerBranch: turns,
        entries,
        overviewMs: median(overview),
        pageMs: median(page),
        contextMs: median(context),
        changedTurns,
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/** One printed line per case. */
export function compareLine(m: CompareMeasurement): string {
  const k = (n: number): string => (n >= 1000 ? `${Math.round(n / 1000)}k` : String(n));
  return (
    `compare ${k(m.turnsPerBranch)} + ${k(m.turnsPerBranch)} turns (${m.name}; ${k(m.entries)} entries, ` +
    `${m.changedTurns} turns differ): overview ${m.overviewMs.toFixed(0)} ms ` +
    `(${(m.overviewMs / m.contextMs).toFixed(2)}× building the context at one leaf, ${m.contextMs.toFixed(0)} ms), ` +
    `a page of 20 turns ${m.pageMs.toFixed(1)} ms`
  );
}
