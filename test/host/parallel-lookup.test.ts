/**
 * The host's parallel-branch lookups and finish summary over a real session with branches run beside the leaf:
 * the run holding a row, the branch's newest entry (Adopt This Branch moves the leaf there), the other branches of
 * its group (Archive Other Branches), and the summary's table.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { emptyUsage } from "../../src/core/messages.js";
import { appendBranchRunLine } from "../../src/core/parallel/branch-run-lines.js";
import type { BranchOutcome } from "../../src/core/parallel/branch-run.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { branchRunOf, newestEntryOf, otherBranchesOf } from "../../src/host/parallel/branch-lookup.js";
import { exploreSummaryHtml, exploreSummaryMarkdown, firstLines } from "../../src/host/parallel/explore-summary.js";
import { assistant, user } from "../util/session-builder.js";

function branch(sm: SessionManager, parent: string, text: string, group: string, state: "running" | "done"): string[] {
  const first = sm.appendMessageAt(parent, user(text));
  appendBranchRunLine(sm, first, { version: 1, kind: "explore", state: "running", groupId: group });
  const reply = sm.appendMessageAt(first, assistant(`answer to ${text}`));
  if (state === "done") appendBranchRunLine(sm, first, { version: 1, kind: "explore", state: "done", groupId: group });
  return [first, reply];
}

describe("parallel branch lookups", () => {
  it("find a row's run, its newest entry and the other branches of its group", () => {
    const sm = SessionManager.inMemory("/ws");
    sm.appendMessage(user("start"));
    const node = sm.appendMessage(assistant("ok"));
    const [a1, a2] = branch(sm, node, "a", "g1", "done");
    const [b1] = branch(sm, node, "b", "g1", "running");
    const [c1] = branch(sm, node, "c", "g2", "done");
    assert.equal(branchRunOf(sm, node), undefined, "the node itself is on no branch run");
    assert.equal(branchRunOf(sm, a2)?.branchId, a1);
    assert.equal(branchRunOf(sm, a2)?.state, "done");
    assert.equal(branchRunOf(sm, b1)?.state, "stopped", "not live in this window: cut off");
    assert.equal(branchRunOf(sm, b1, new Set([b1]))?.state, "running");
    assert.equal(newestEntryOf(sm, a1), a2);
    assert.deepEqual(otherBranchesOf(sm, branchRunOf(sm, a1)!), [b1]);
    assert.deepEqual(otherBranchesOf(sm, branchRunOf(sm, c1)!), []);
    assert.equal(sm.getLeafId(), node);
  });

  it("summarize the branches side by side", () => {
    const outcome = (over: Partial<BranchOutcome>): BranchOutcome => ({
      state: "done",
      usage: { ...emptyUsage(), totalTokens: 1500 },
      durationMs: 2500,
      finalText: "First line | with a bar\nsecond line\nthird\nfourth",
      files: [{ path: "app.txt", added: 3, removed: 1 }],
      ...over,
    });
    const md = exploreSummaryMarkdown("Make it faster", [
      { number: 1, model: "openai/gpt", outcome: outcome({}) },
      { number: 2, model: "anthropic/claude", outcome: outcome({ state: "failed", error: "rate limited", files: [] }) },
    ]);
    assert.match(
      md,
      /\| 1 \| openai\/gpt \| finished \| First line \\\| with a bar second line third \| app\.txt \+3 −1 \| 1\.5k \|/,
    );
    assert.match(md, /\| 2 \| anthropic\/claude \| failed \| Error: rate limited \| none \|/);
    assert.match(md, /2\.5 s/);
    assert.equal(firstLines("x".repeat(500), 1, 10), "xxxxxxxxx…");
  });

  it("show the ranked branches' checks in the summary tab, escaped, with Adopt Best Branch", () => {
    const outcome: BranchOutcome = {
      state: "done",
      usage: emptyUsage(),
      durationMs: 1000,
      finalText: "<b>done</b>",
      files: [{ path: "ok.txt", added: 3, removed: 0 }],
    };
    const check = {
      version: 1 as const,
      state: "passed" as const,
      command: "test -f ok.txt",
      branchId: "b2",
      timeoutSeconds: 300,
      sandboxed: true,
      exitCode: 0,
      durationMs: 40,
      output: "<all good>",
      entryId: "c1",
      rowId: "t2",
    };
    const html = exploreSummaryHtml(
      "Make <it> pass",
      [
        { number: 2, model: "m", outcome, check, changedLines: 3 },
        { number: 1, model: "m", outcome, changedLines: 1 },
      ],
      "command:agentTree.adoptBestBranch?x",
    );
    assert.match(html, /<a class="button" id="adopt-best" href="command:agentTree.adoptBestBranch\?x">/);
    assert.match(html, /Branch 2: ✓ passed \(exit 0, 0\.0 s\), 3 changed lines/);
    assert.ok(html.indexOf("<td>Branch 2</td>") < html.indexOf("<td>Branch 1</td>"), "in the order given");
    assert.match(html, /&#60;all good&#62;/);
    assert.match(html, /Make &#60;it&#62; pass/);
    assert.ok(!html.includes("<b>done</b>"), "answers are escaped");
    assert.match(html, /no check/);
  });
});
