/**
 * The search benchmark's section of the result files (see run-search.ts): how it is measured, the table and
 * the target, between markers, so a `--search-only --write` run can replace it on its own.
 */
import { readFileSync, writeFileSync } from "node:fs";
import * as prettier from "prettier";
import { mdHead, mdRow as row } from "../report/markdown.js";
import type { TargetCheck } from "../report/targets.js";
import { NEEDLE } from "./corpus.js";
import type { SearchBenchResult } from "./run-search.js";

/** The target: the needle found and the search done within 2 s for ~1 GB, warm page cache, first search. */
const TARGET_MS = 2000;

function ms(v: number): string {
  return Number.isFinite(v) ? `${Math.round(v).toLocaleString("en-US")} ms` : "–";
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
    ...mdHead(["Page cache, threads", "Query", "First hit", "Done", "CPU", "Hits", "Lines decoded", "Needle first"]),
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

const START = "<!-- search-bench:start (written by npm run bench) -->";
const END = "<!-- search-bench:end -->";

const METHOD =
  "`bench/search/` generates about 1 GB of pi v3 sessions for one workspace (`bench/.data/search/`, once): 300 " +
  "everyday sessions (2k entries, a branch every 40 turns) and 4 heavy ones (100 MB, 10 KB tool outputs, " +
  "thinking with signatures), half in the extension's session folder and half in pi's folder. One word, the " +
  "needle, occurs only in an abandoned branch of one session, halfway down the newest-first order. Each run is a " +
  "fresh Node process (the bundled `SessionSearch` and its worker bundle) that lists the folders and searches: " +
  "with the page cache **cold** (every file dropped from it first: `dd iflag=nocache count=0`) and **warm** (every " +
  "file read right before), with 2 worker threads and in one thread. Medians over the runs.";

/** The whole section, markers included. */
export function searchSection(r: SearchBenchResult, when: string): string {
  const check = searchCheck(r);
  return [
    START,
    "",
    "### Session search (Agent: Search Sessions…)",
    "",
    METHOD,
    "",
    when,
    "",
    `Target: ${check.target} — ${check.measured} (${check.on}): **${check.status}**.`,
    "",
    searchTable(r),
    "",
    END,
  ].join("\n");
}

/** Replaces the section in `file` (or adds it at the end) and formats the file as the repository does. */
export async function writeSearchSection(file: string, section: string): Promise<void> {
  const text = readFileSync(file, "utf8");
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  // First time: after the tables, before the analysis that follows them in docs/bench.md.
  const analysis = text.indexOf("\n## What was slow");
  const next =
    start >= 0 && end > start
      ? text.slice(0, start) + section + text.slice(end + END.length)
      : analysis >= 0
        ? `${text.slice(0, analysis).trimEnd()}\n\n${section}\n${text.slice(analysis)}`
        : `${text.trimEnd()}\n\n${section}\n`;
  const options = (await prettier.resolveConfig(file)) ?? {};
  writeFileSync(file, await prettier.format(next, { ...options, parser: "markdown" }));
}
