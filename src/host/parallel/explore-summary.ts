/**
 * The finish summary of Explore in Parallel: the branches side by side — the first lines of each final answer, the
 * files it changed with added and removed lines, tokens, cost, duration, errors — as Markdown for a preview tab.
 * Pure: no `vscode` import.
 */
import { escapeHtml } from "../../core/escape-html.js";
import { checkSummary, type BranchCheckRecord } from "../../core/parallel/branch-check.js";
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
export function exploreSummaryMarkdown(
  prompt: string,
  branches: readonly SummaryBranch[],
  heading = "Explore in Parallel",
): string {
  const out = [`# ${heading}`, "", `> ${cell(firstLines(prompt, 2, 300))}`, ""];
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

/** One branch of the summary tab, in ranking order (branch-ranking.ts). */
export interface RankedSummaryBranch extends SummaryBranch {
  /** Its newest check, if one ran. */
  check?: BranchCheckRecord;
  /** Lines added plus removed. */
  changedLines: number;
}

/** The mark of a check in the summary: ✓, ✗, … and how it went. */
function checkCell(check: BranchCheckRecord | undefined): string {
  if (!check) return "no check";
  const mark = check.state === "passed" ? "✓ " : check.state === "running" || check.state === "stopped" ? "" : "✗ ";
  return `${mark}${checkSummary(check)}`;
}

/**
 * The summary tab of one exploration as an HTML body (no script): the branches ranked — passing check first, then
 * fewer changed lines, then cost — each with its check, the tail of the check's output, its files, tokens, cost,
 * duration and the first lines of its answer; `adoptBestUri` (a command URI of Adopt Best Branch) is the button.
 */
export function exploreSummaryHtml(
  prompt: string,
  ranked: readonly RankedSummaryBranch[],
  adoptBestUri: string | undefined,
  heading = "Explore in Parallel",
): string {
  const e = escapeHtml;
  const out = [`<h1>${e(heading)}</h1>`, `<blockquote>${e(firstLines(prompt, 2, 300))}</blockquote>`];
  const best = ranked[0];
  if (best && adoptBestUri)
    out.push(
      `<p><a class="button" id="adopt-best" href="${e(adoptBestUri)}">Adopt Best Branch</a> ` +
        `<span class="hint">Branch ${best.number}: ${e(checkCell(best.check))}, ${best.changedLines} changed lines, ` +
        `$${best.outcome.usage.cost.total.toFixed(4)}</span></p>`,
    );
  out.push(
    '<p class="hint">Ranked: a passing check first, then fewer changed lines, then cost.</p>',
    "<table><thead><tr><th>#</th><th>Branch</th><th>Model</th><th>State</th><th>Check</th><th>Changed lines</th>" +
      "<th>Files</th><th>Tokens</th><th>Cost</th><th>Duration</th><th>Answer (first lines)</th></tr></thead><tbody>",
  );
  ranked.forEach((b, i) => {
    const o = b.outcome;
    const files = o.files.map((f) => `${f.path} +${f.added} −${f.removed}`).join(", ") || "none";
    const answer = o.error ? `Error: ${o.error}` : firstLines(o.finalText) || "(no answer)";
    const tail = b.check?.output?.trim()
      ? `<details><summary>output</summary><pre>${e(b.check.output.trimEnd())}</pre></details>`
      : "";
    out.push(
      `<tr data-branch="${b.number}"><td>${i + 1}</td><td>Branch ${b.number}</td><td>${e(b.model)}</td>` +
        `<td>${STATE_WORDS[o.state]}</td><td class="check check-${b.check?.state ?? "none"}">${e(checkCell(b.check))}` +
        `${b.check ? `<div class="command"><code>${e(b.check.command)}</code></div>` : ""}${tail}</td>` +
        `<td>${b.changedLines}</td><td>${e(files)}</td><td>${tokens(o.usage.totalTokens)}</td>` +
        `<td>$${o.usage.cost.total.toFixed(4)}</td><td>${(o.durationMs / 1000).toFixed(1)} s</td><td>${e(answer)}</td></tr>`,
    );
  });
  out.push("</tbody></table>");
  out.push(
    '<p class="hint">Compare Two Branches… opens any two side by side; Adopt This Branch on a row of one brings its ' +
      "files into the workspace; Run Check Again on a branch's row runs its check again.</p>",
  );
  return out.join("\n");
}
