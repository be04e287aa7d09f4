/**
 * The finish summary of Explore in Parallel: the branches side by side — the first lines of each final answer, the
 * files it changed with added and removed lines, tokens, cost, duration, errors — as Markdown for a preview tab.
 * Pure: no `vscode` import.
 */
import type { BranchOutcome } from "../../core/parallel/branch-run.js";

/** One branch as the summary shows it. */
export interface SummaryBranch {
  /** 1-based, as the questions and approvals name it. */
  number: number;
  model: string;
  outcome: BranchOutcome;
}

const STATE_WORDS: Record<BranchOutcome["state"], string> = {
  done: "finished",
  stopped: "stopped",
  failed: "failed",
};

/** `|` and line breaks would break a table cell. */
function cell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\s*\n\s*/g, " ");
}

/** The first lines of an answer, at most `max` characters. */
export function firstLines(text: string, lines = 3, max = 240): string {
  const head = text.trim().split("\n").slice(0, lines).join(" ").trim();
  return head.length > max ? head.slice(0, max - 1) + "…" : head;
}

function tokens(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}

/** The summary of one exploration, as Markdown. */
export function exploreSummaryMarkdown(prompt: string, branches: readonly SummaryBranch[]): string {
  const out = [`# Explore in Parallel`, "", `> ${cell(firstLines(prompt, 2, 300))}`, ""];
  out.push("| Branch | Model | State | Answer (first lines) | Files | Tokens | Cost | Duration |");
  out.push("| --- | --- | --- | --- | --- | --- | --- | --- |");
  for (const b of branches) {
    const o = b.outcome;
    const files = o.files.map((f) => `${f.path} +${f.added} −${f.removed}`).join(", ") || "none";
    const answer = o.error ? `Error: ${o.error}` : firstLines(o.finalText) || "(no answer)";
    out.push(
      `| ${b.number} | ${cell(b.model)} | ${STATE_WORDS[o.state]} | ${cell(answer)} | ${cell(files)} | ` +
        `${tokens(o.usage.totalTokens)} | $${o.usage.cost.total.toFixed(4)} | ${(o.durationMs / 1000).toFixed(1)} s |`,
    );
  }
  out.push("", "Open any two in the compare tab with **Compare Two Branches…**; **Adopt This Branch** on a row of one");
  out.push("brings its files into the workspace and moves the leaf to it.");
  return out.join("\n") + "\n";
}
