/**
 * The real-UI part of `npm run bench`: builds the extension as `npm start` does, then measures the demo
 * session and a big generated one in fresh code-servers, in rounds of one run each (small, big, small, big,
 * …) so drift on a shared machine hits both alike. See measure-ui.ts for what each run measures.
 */
import { spawnSync } from "node:child_process";
import { CODE_SERVER, codeServerInstalled, REPO_ROOT } from "../../test/util/code-server.js";
import { vscodeVersion } from "../../test/util/code-server-install.js";
import { median, medianOf } from "../stats.js";
import { measureUiRun, type UiRun, type UiSession } from "./measure-ui.js";

/** Medians of one session's runs (ms, bytes); NaN where nothing was measured. */
export interface UiSessionSummary {
  label: string;
  runs: number;
  /** Runs in which a blank view was re-created (load times of the others only; see UiRun.recreatedViews). */
  recovered: number;
  loadToLeafMs: number;
  loadToChatMs: number;
  /** Median over runs of each run's median (and worst) click → summary choice. */
  clickToChoiceMs: number;
  clickToChoiceMaxMs: number;
  moveMs: number;
  moveMaxMs: number;
  /** The parts of a move: Enter until the tree marks the leaf, until the chat ends with it. */
  moveTreeMs: number;
  moveChatMs: number;
  /** Extension host VmRSS settled (after the moves and 30 s idle), 2 s after open, and its peak. */
  rss: number;
  rssOpen: number;
  peakRss: number;
  error?: string;
}

/** The real-UI figures: the small demo session against a big one. */
export interface UiReport {
  /** The code-server the runs used, e.g. "code-server 4.139.1 (VS Code 1.139.1)" (older reports lack it). */
  codeServer?: string;
  /** When and under what load the UI was measured, if in a run of its own (`--ui-only --write`). */
  measuredApart?: string;
  small: UiSessionSummary;
  large: UiSessionSummary;
  /**
   * How much later the big session's tree showed its leaf: the median over rounds of the difference within a
   * round (a small and a big run back to back), which a busy machine's drift between rounds does not blur.
   * Rounds in which either run re-created a blank view are left out.
   */
  leafDelayMs: number;
  /**
   * The same difference in every round, in order, those with a re-created view included: the target is that it is
   * never more than 1 s, so the worst round counts.
   */
  leafDelaysMs?: number[];
}

/** How many runs, and how many moves per run. */
export interface UiOptions {
  runs: number;
  moves: number;
}

function summarise(label: string, runs: UiRun[], error?: string): UiSessionSummary {
  const clean = runs.filter((r) => r.recreatedViews === 0);
  return {
    label,
    runs: runs.length,
    recovered: runs.length - clean.length,
    loadToLeafMs: medianOf(clean, (r) => r.loadToLeafMs),
    loadToChatMs: medianOf(clean, (r) => r.loadToChatMs),
    clickToChoiceMs: medianOf(runs, (r) => median(r.clickToChoiceMs)),
    clickToChoiceMaxMs: medianOf(runs, (r) => Math.max(...r.clickToChoiceMs)),
    moveMs: medianOf(runs, (r) => median(r.moveMs)),
    moveMaxMs: medianOf(runs, (r) => Math.max(...r.moveMs)),
    moveTreeMs: medianOf(runs, (r) => median(r.moveTreeMs)),
    moveChatMs: medianOf(runs, (r) => median(r.moveChatMs)),
    rss: medianOf(runs, (r) => r.rssSettled),
    rssOpen: medianOf(runs, (r) => r.rssOpen),
    peakRss: medianOf(runs, (r) => r.peakRss),
    error,
  };
}

/** The code-server the runs use, as the report names it. */
export function codeServerName(): string {
  const vscode = vscodeVersion(CODE_SERVER);
  return `code-server ${CODE_SERVER.version}${vscode ? ` (VS Code ${vscode})` : ""}`;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Measures both sessions; a failure is kept in the summary (the store figures still get written). */
export async function measureUi(large: UiSession, options: UiOptions, log: (line: string) => void): Promise<UiReport> {
  const small: UiSession = { label: "demo session" };
  const runs: [UiRun[], UiRun[]] = [[], []];
  const errors: [string | undefined, string | undefined] = [undefined, undefined];
  const setup = (): string | undefined => {
    if (!codeServerInstalled()) return "code-server is not installed (run: bash scripts/ensure-deps.sh)";
    // The production build, minified, as the .vsix users install holds it (startCodeServer installs dist/ as a .vsix).
    const build = spawnSync(process.execPath, ["esbuild.mjs", "--production"], { cwd: REPO_ROOT, encoding: "utf8" });
    return build.status === 0 ? undefined : `building the extension failed: ${build.stderr || build.stdout}`;
  };
  const failed = setup();
  if (failed !== undefined) {
    log(`ui: ${failed}`);
    return { small: summarise(small.label, [], failed), large: summarise(large.label, [], failed), leafDelayMs: NaN };
  }
  for (let run = 0; run < options.runs; run++) {
    for (const [k, session] of [small, large].entries()) {
      if (errors[k] !== undefined) continue;
      try {
        const r = await measureUiRun(session, options.moves);
        runs[k].push(r);
        log(
          `ui ${session.label} run ${run + 1}: tree with leaf ${(r.loadToLeafMs / 1000).toFixed(1)} s, ` +
            `click → choice ${median(r.clickToChoiceMs).toFixed(0)} ms, move ${median(r.moveMs).toFixed(0)} ms, ` +
            `extension host ${(r.rssSettled / 1e6).toFixed(0)} MB settled, ${(r.rssOpen / 1e6).toFixed(0)} MB after open` +
            (r.recreatedViews > 0 ? ` (${r.recreatedViews} blank view(s) re-created)` : ""),
        );
      } catch (error) {
        errors[k] = errorText(error);
        log(`ui ${session.label}: ${errors[k]}`);
      }
    }
  }
  // Rounds in which a view had to be recovered measure the recovery (8 s), not the session: left out of the
  // median, kept in the list the worst round is taken from.
  const delays: number[] = [];
  const all: number[] = [];
  for (let i = 0; i < Math.min(runs[0].length, runs[1].length); i++) {
    const [a, b] = [runs[0][i], runs[1][i]];
    all.push(b.loadToLeafMs - a.loadToLeafMs);
    if (a.recreatedViews === 0 && b.recreatedViews === 0) delays.push(b.loadToLeafMs - a.loadToLeafMs);
  }
  return {
    codeServer: codeServerName(),
    small: summarise(small.label, runs[0], errors[0]),
    large: summarise(large.label, runs[1], errors[1]),
    leafDelayMs: median(delays),
    leafDelaysMs: all,
  };
}
