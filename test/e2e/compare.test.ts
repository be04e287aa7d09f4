/**
 * End to end, in a real VS Code (code-server + Chromium), with the demo workspace and no model at all (no custom
 * model, no key): from a row of another branch, "Bring Conclusions Here" summarizes that branch with the extractive
 * summarizer and appends the summary at the current leaf (checked in the session file: a branch_summary whose
 * fromId is that row's entry, and the active path still through the current branch); the new summary's row says
 * where it came from and a click there selects the source; "Compare with Current Branch" opens an editor tab with
 * both branches' text side by side. The last step's screenshot is the README's docs/compare.png
 * (AGENT_TREE_UPDATE_SCREENSHOT=1 refreshes it).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import { DEMO_IDS } from "../../demo/generate-demo.js";
import {
  activeLeafId,
  pickFromRowMenu,
  readSession,
  refreshDocsScreenshot,
  row,
  rowIds,
  treeView,
  waitForLeaf,
  type SessionLine,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  expectVisible,
  findWebview,
  pickQuickItem,
  pickQuickItemContaining,
  quickPickRows,
  runCommand,
  screenshot,
  waitUntil,
} from "../util/workbench.js";

/** The summary the bring step wrote. */
let broughtId: string | undefined;

/** The parent chain of `id` in the session file, leaf first. */
function pathOf(lines: readonly SessionLine[], id: string): string[] {
  const byId = new Map(lines.filter((l) => l.id).map((l) => [l.id as string, l]));
  const out: string[] = [];
  for (let at: string | null | undefined = id; at && out.length <= lines.length; at = byId.get(at)?.parentId)
    out.push(at);
  return out;
}

// No model: no custom model, no default, no key in the environment, so summaries are extractive.
const { demo, step, page, openAgentTree } = demoWorkbenchSuite({ name: "compare", model: "none" });

describe("Compare and Bring Conclusions Here in VS Code (code-server)", { timeout: 6 * 60_000 }, () => {
  it(
    "Bring Conclusions Here on branch A's leaf appends its extractive summary at the current leaf",
    step("bring", async () => {
      const t = await openAgentTree(520);
      const before = new Set(await rowIds(t));

      await pickFromRowMenu(page(), t, DEMO_IDS.branchALeaf, "Bring Conclusions Here", "compare-00-menu");
      await pickQuickItem(page(), "Summarize");
      broughtId = await waitForLeaf(t, (id) => !before.has(id), "the brought summary to become the leaf");
      await expectVisible(
        t.locator(`[role="treeitem"].kind-branch_summary[data-entry-id="${broughtId}"]`),
        "the brought summary's row",
      );

      const lines = readSession(demo().sessionFile);
      const entry = lines.find((l) => l.id === broughtId);
      assert.equal(entry?.type, "branch_summary", "the new leaf is a branch_summary line");
      assert.equal(entry?.fromId, DEMO_IDS.branchALeaf, "fromId names the row the command ran on");
      assert.equal(entry?.parentId, DEMO_IDS.leaf, "appended at the current leaf");
      assert.match(String(entry?.summary), /^\(Extractive summary/, "no model: the extractive summarizer wrote it");
      assert.match(String(entry?.summary), /hand-written parser/, "it summarizes branch A");
      const path = pathOf(lines, broughtId);
      assert.ok(path.includes(DEMO_IDS.leaf) && path.includes(DEMO_IDS.branchBUser), "still on branch B");
      assert.ok(!path.includes(DEMO_IDS.branchALeaf), "branch A is not on the active path");
      assert.equal(lines.at(-1)?.id, broughtId, "pi's leaf (the last line) is the summary too");
      await screenshot(page(), "compare-01-brought");
    }),
  );

  it(
    "the brought summary's row says where it came from, and a click there selects the source",
    step("source", async () => {
      const t: FrameLocator = await treeView(page());
      assert.ok(broughtId, "the bring step ran");
      const marker = row(t, broughtId).locator(".source-tag");
      await expectVisible(marker, "the summary's source marker");
      assert.match(await marker.innerText(), /^from: Added `--verbose`/);
      await marker.click();
      await expectVisible(
        t.locator(`[role="treeitem"][aria-selected="true"][data-entry-id="${DEMO_IDS.branchALeaf}"]`),
        "the source row selected",
      );
      assert.equal(await activeLeafId(t), broughtId, "going to the source does not move the leaf");
      await screenshot(page(), "compare-02-source");
    }),
  );

  it(
    "Compare with Current Branch opens a tab showing both branches' text",
    step("tab", async () => {
      const t = await treeView(page());
      await pickFromRowMenu(page(), t, DEMO_IDS.branchALeaf, "Compare with Current Branch", "compare-03-menu");
      await expectVisible(page().locator(".part.editor .tab", { hasText: "Compare:" }), "the compare editor tab");
      const view = await findWebview(page(), ".cmp-list");
      await expectVisible(view.locator("article.cmp-turn"), "the aligned turns");
      const text = async (): Promise<string> => view.locator(".compare-app").innerText();
      await waitUntil(
        async () => ((await text()).includes("Option A: a hand-written parser") ? true : undefined),
        "branch A's text in the tab",
      );
      const shown = await text();
      assert.match(shown, /Option B after all: use node:util parseArgs/, "the current branch's text");
      assert.match(shown, /Option A: a hand-written parser/, "the other branch's text");
      assert.match(shown, /Common ancestor/);
      assert.match(shown, /Which do you prefer\?/, "the common ancestor's text");
      // F7 goes to the next difference (as in VS Code's diff editor): the first turn both sides have, changed.
      await view.locator(".cmp-scroll").press("F7");
      const focused = view.locator("article.cmp-turn:focus");
      await expectVisible(focused, "a focused turn after F7");
      assert.match(await focused.innerText(), /changed[\s\S]*Option B after all[\s\S]*Option A/);
      refreshDocsScreenshot(await screenshot(page(), "compare-04-tab"), "compare.png");
    }),
  );

  it(
    "Agent: Compare Branches… picks two branch tips (current leaf first) and compares them",
    step("palette", async () => {
      await runCommand(page(), "Agent: Compare Branches…");
      const rows = await quickPickRows(page(), "Compare Branches (1/2)");
      assert.match(rows[0] ?? "", /Extractive summary.*← active/, `the current leaf comes first: ${rows[0]}`);
      await pickQuickItemContaining(page(), "DEBUG", "answers: Option C");
      await quickPickRows(page(), "Compare Branches (2/2)");
      await pickQuickItemContaining(page(), "verbose", "answers: Option A");
      await waitUntil(async () => {
        const tabs = await page().locator(".part.editor .tab", { hasText: "Compare:" }).count();
        return tabs >= 2 ? true : undefined;
      }, "a second compare tab");
      const view = await findWebview(page(), ".cmp-end-title:text-matches('DEBUG')");
      await waitUntil(async () => {
        const text = await view.locator(".compare-app").innerText();
        return text.includes("Option C: skip the flag") && text.includes("Option A: a hand-written parser")
          ? true
          : undefined;
      }, "branch C and branch A side by side");
      await screenshot(page(), "compare-05-palette");
    }),
  );
});
