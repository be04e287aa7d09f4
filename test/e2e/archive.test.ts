/**
 * End to end, in a real VS Code (code-server + Chromium), with the demo workspace: Archive Branch from a row's
 * context menu hides that branch's rows and appends exactly one line to the session file; Show or Hide Archived
 * Branches (the host owns the choice) run twice from the palette while the tree's frame is gone leaves them
 * hidden, run once shows them dimmed once the tree is drawn again, and the toolbar toggle hides and shows them;
 * Unarchive Branch brings them back (one more line); Delete Branch Permanently… asks with the number of entries
 * that go, then the rows are gone and the file is rewritten without them (a backup beside it).
 */
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEMO_IDS } from "../../demo/generate-demo.js";
import { SessionManager } from "../../src/core/index.js";
import type { FrameLocator, Locator, Page } from "playwright-core";
import { pickFromRowMenu, readSession, row, rowIds, treeView, waitForLeaf } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  EXTENSION_ID,
  clickDialogButton,
  dialog,
  expectVisible,
  openViewContainer,
  runCommand,
  screenshot,
  waitUntil,
} from "../util/workbench.js";

function lineCount(file: string): number {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "").length;
}

const BRANCH_C = [DEMO_IDS.branchCUser, DEMO_IDS.branchCLeaf];

const { demo, step, wb, openAgentTree } = demoWorkbenchSuite({ name: "archive", model: "none" });

/** An entry's row, dimmed as archived. */
function dimmedRow(tree: FrameLocator, entryId: string): Locator {
  return tree.locator(`[role="treeitem"].archived[data-entry-id="${entryId}"]`);
}

/** Opens the Explorer instead of the Agent container: the tree's frame is disposed (it is not kept when hidden). */
async function treeFrameGone(page: Page): Promise<void> {
  await openViewContainer(page, "Explorer");
  await waitUntil(
    async () =>
      (await page.locator(`iframe.webview[src*="extensionId=${EXTENSION_ID}"]`).count()) === 0 ? true : undefined,
    "the Agent views' frames to go",
  );
}

describe("Archive and delete branches in VS Code (code-server)", { timeout: 6 * 60_000 }, () => {
  it(
    "Archive Branch hides the branch's rows and appends one line",
    step("archive", async () => {
      const { page } = wb();
      const t = await openAgentTree(520);
      for (const id of BRANCH_C) assert.ok((await rowIds(t)).includes(id), `${id} shows before`);
      const before = lineCount(demo().sessionFile);

      await pickFromRowMenu(wb().page, t, DEMO_IDS.branchCUser, "Archive Branch");
      await row(t, DEMO_IDS.branchCUser).waitFor({ state: "detached" });
      await row(t, DEMO_IDS.branchCLeaf).waitFor({ state: "detached" });
      const lines = readSession(demo().sessionFile);
      assert.equal(lines.length, before + 1, "the file gained exactly one line");
      const last = lines.at(-1);
      assert.equal(last?.type, "custom");
      assert.equal(last?.customType, "agent-tree/archive");
      assert.deepEqual(last?.data, { targetId: DEMO_IDS.branchCUser, archived: true });
      assert.equal(last?.parentId, DEMO_IDS.leaf, "it hangs off the current leaf");
      assert.ok((await rowIds(t)).includes(DEMO_IDS.leaf), "the rest of the tree is still there");
      await screenshot(page, "archive-01-archived");
    }),
  );

  it(
    "the palette's toggle, run while the tree is not there: twice leaves archived rows hidden, once shows them dimmed",
    step("toggle", async () => {
      const { page } = wb();
      await (await treeView(page)).locator('button.archived-toggle[aria-pressed="false"]').waitFor();
      await treeFrameGone(page);
      await runCommand(page, "Agent: Show or Hide Archived Branches");
      await runCommand(page, "Agent: Show or Hide Archived Branches");
      const t = await treeView(page);
      // Drawn (the snapshot arrived); the first toggle may have reached this frame too, so wait for the last word.
      await waitForLeaf(t, DEMO_IDS.leaf, "the demo session's leaf");
      for (const id of BRANCH_C) await row(t, id).waitFor({ state: "detached" });
      await t.locator('button.archived-toggle[aria-pressed="false"]').waitFor();

      await treeFrameGone(page);
      await runCommand(page, "Agent: Show or Hide Archived Branches");
      // The command opens the tree again: a new frame, which gets the host's choice in its snapshot on ready.
      const again = await treeView(page);
      await expectVisible(dimmedRow(again, DEMO_IDS.branchCUser), "the archived branch, dimmed, in the new frame");
      await again.locator('button.archived-toggle[aria-pressed="true"]').waitFor();
      await screenshot(page, "archive-02-shown-dimmed");
    }),
  );

  it(
    "the toolbar toggle hides and shows archived rows; Unarchive Branch brings them back with one more line",
    step("unarchive", async () => {
      const { page } = wb();
      const t = await treeView(page);
      const before = lineCount(demo().sessionFile);
      await t.locator('button.archived-toggle[aria-pressed="true"]').click();
      for (const id of BRANCH_C) await row(t, id).waitFor({ state: "detached" });
      await t.locator('button.archived-toggle[aria-pressed="false"]').click();
      await expectVisible(dimmedRow(t, DEMO_IDS.branchCUser), "the archived branch, dimmed");
      await pickFromRowMenu(wb().page, t, DEMO_IDS.branchCLeaf, "Unarchive Branch");
      await dimmedRow(t, DEMO_IDS.branchCUser).waitFor({ state: "detached" });
      await t.locator('button.archived-toggle[aria-pressed="true"]').click();
      for (const id of BRANCH_C) await expectVisible(row(t, id), `${id} back in the default view`);
      assert.equal(lineCount(demo().sessionFile), before + 1, "one more line");
      const last = readSession(demo().sessionFile).at(-1);
      assert.deepEqual(last?.data, { targetId: DEMO_IDS.branchCUser, archived: false });
    }),
  );

  it(
    "Delete Branch Permanently… confirms with the count, then the rows are gone and the file is rewritten",
    step("delete", async () => {
      const { page } = wb();
      const t = await treeView(page);
      const view = await SessionManager.open(demo().sessionFile, { readOnly: true });
      const plan = view.planBranchDeletion(DEMO_IDS.branchAUser);
      await view.close();
      const branchA = [
        DEMO_IDS.branchAUser,
        DEMO_IDS.branchAEditCall,
        DEMO_IDS.branchAEditResult,
        DEMO_IDS.branchALeaf,
      ];

      await pickFromRowMenu(wb().page, t, DEMO_IDS.branchAUser, "Delete Branch Permanently…");
      await expectVisible(dialog(page).getByText("Delete this branch permanently?"), "the confirmation");
      const text = (await dialog(page).innerText()).replace(/\s+/g, " ");
      assert.match(text, new RegExp(`${plan.removed} entries will be removed`), "it says how many entries go");
      await screenshot(page, "archive-03-confirm");
      await clickDialogButton(page, "Delete Permanently");

      await row(t, DEMO_IDS.branchAUser).waitFor({ state: "detached" });
      const ids = await rowIds(t);
      for (const id of branchA) assert.ok(!ids.includes(id), `${id} is gone from the tree`);
      assert.ok(ids.includes(DEMO_IDS.leaf), "the leaf is still there");
      const lines = readSession(demo().sessionFile);
      for (const id of branchA) assert.ok(!lines.some((l) => l.id === id), `${id} is gone from the file`);
      assert.ok(
        !lines.some((l) => l.type === "label" && l.targetId === DEMO_IDS.branchALeaf),
        "its label went with it",
      );
      assert.ok(existsSync(`${demo().sessionFile}.before-delete.bak`), "a backup is kept beside the file");
      await screenshot(page, "archive-04-deleted");
    }),
  );
});
