/** The search benchmark's table and target (see run-search.ts). */
import type { TargetCheck } from "../report/targets.js";
import { NEEDLE } from "./corpus.js";
import type { SearchBenchResult } from "./run-search.js";

/** The target: the needle found and the search done within 2 s for ~1 GB, warm page cache, first search. */
const TARGET_MS = 2000;

function ms(v: number): string {
  return Number.isFinite(v) ? `${Math.round(v).toLocaleString("en-US")} ms` : "–";
}

function row(cells: string[]): string {
  return `| ${cells.join(" | ")} |`;
}

/** What each query of a run shows (run-search.ts SEARCH_QUERIES). */
const POSITION = ["the process's 1st search", "again", "3 words", "common words, first 500"];

/** The session-search table. */
export function searchTable(r: SearchBenchResult): string {
  if (r.error) return `Session search: failed: ${r.error.split("\n")[0]}`;
  const lines = [
    `${r.corpus.files} session files, ${(r.corpus.bytes / 1e6).toFixed(0)} MB; listing the folders took ` +
      `${ms(r.listMs)}. Times from the start of the search; CPU is the whole process (workers included).`,
    "",
    row(["Page cache, threads", "Query", "First hit", "Done", "CPU", "Hits", "Lines decoded", "Needle first"]),
    row(Array(8).fill("---")),
  ];
  for (const s of r.summaries) {
    lines.push(
      row([
        s.setting,
        `\`${s.query}\` (${POSITION[s.position] ?? s.position})`,
        ms(s.firstHitMs),
        ms(s.totalMs),
        ms(s.cpuMs),
        String(s.hits),
        String(s.candidateLines),
        s.query.includes(NEEDLE) ? (s.foundNeedle ? "yes" : "**no**") : "–",
      ]),
    );
  }
  return lines.join("\n");
}

/** The search target, checked on the warm first search with worker threads. */
export function searchCheck(r: SearchBenchResult | undefined): TargetCheck {
  const target = `Search every session ≤ 2 s`;
  const s = r?.summaries.find((x) => x.setting === "warm, 2 workers" && x.position === 0);
  if (!r || !s || r.error) return { target, on: "-", measured: "not measured", status: "n/a" };
  const on = `${(r.corpus.bytes / 1e6).toFixed(0)} MB, ${r.corpus.files} files`;
  const cold = r.summaries.find((x) => x.setting === "cold, 2 workers" && x.position === 0);
  const measured = `${ms(s.totalMs)} warm, first hit ${ms(s.firstHitMs)}${cold ? `; cold ${ms(cold.totalMs)}` : ""}`;
  return { target, on, measured, status: s.foundNeedle && s.totalMs <= TARGET_MS ? "PASS" : "MISS" };
}
