/**
 * Archived branches in the tree view (real Chromium, fake host): hidden from the default view and from search,
 * shown dimmed with the toolbar toggle (remembered in view state) or the palette's toggle (`tree/toggleArchived`),
 * marked for the context menu, brought back by the archived branches of `tree/update`; Delete and Shift+Delete post
 * the archive and delete actions.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostToWebview } from "../../src/shared/protocol.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { settle, webviewRig, withPage } from "./harness.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";
import { postedActions, press, pressAll, rowIds } from "./tree-page.js";

const rig = webviewRig();

/** u1 → a1 → u2 → a2 (the active path) and a1 → u3 → a3 (the side branch, archived in the snapshot). */
const NODES: TreeRow[] = [
  treeRow("u1", null, "user", { preview: "plan the parser" }),
  treeRow("a1", "u1", "assistant", { preview: "two ways" }),
  treeRow("u2", "a1", "user", { preview: "the hand-written way" }),
  treeRow("a2", "u2", "assistant", { preview: "cleaner" }),
  treeRow("u3", "a1", "user", { preview: "the regex way" }),
  treeRow("a3", "u3", "assistant", { preview: "regexes get messy" }),
];

function snapshot(archived: string[]): HostToWebview {
  return { ...treeSnapshot(NODES, "a2"), archived };
}

test("archived rows leave the default view and search; the toggle shows them dimmed; an update of the archived branches brings them back", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(snapshot(["u3"]));
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"], "the archived branch is hidden");
    await press(vp, "Control+f");
    await vp.page.keyboard.type("regex");
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), [], "search finds nothing in a hidden archived branch");
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);

    const toggle = 'button.archived-toggle[aria-label="Show archived branches"]';
    assert.equal(await vp.page.getAttribute(toggle, "aria-pressed"), "false");
    await vp.page.click(toggle);
    await settle(vp.page);
    assert.equal(await vp.page.getAttribute(toggle, "aria-pressed"), "true");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"]);
    const archivedRows = await vp.page.$$eval(".tree-row.archived", (els) =>
      els.map((e) => e.getAttribute("data-entry-id")),
    );
    assert.deepEqual(archivedRows.sort(), ["a3", "u3"], "the archived branch is dimmed");
    assert.equal(await vp.page.$$eval(".archived-tag", (els) => els.length), 1, "its first row is marked");
    const context = (id: string): Promise<Record<string, unknown>> =>
      vp.page
        .getAttribute(`[data-entry-id="${id}"]`, "data-vscode-context")
        .then((c) => JSON.parse(c ?? "{}") as Record<string, unknown>);
    assert.equal((await context("a3")).archived, true, "Unarchive Branch shows in its context menu");
    assert.equal((await context("a2")).archived, undefined, "Archive Branch shows for the others");
    await vp.page.waitForFunction(() => {
      const s = (window as unknown as { __fake: { getState(): { showArchived?: boolean } } }).__fake.getState();
      return s?.showArchived === true;
    });

    await vp.send({ type: "tree/update", archived: [] });
    assert.equal(await vp.page.$$eval(".tree-row.archived", (els) => els.length), 0, "unarchived: no longer dimmed");
    await vp.page.click(toggle);
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"], "unarchived rows show by default");

    await vp.send({ type: "tree/update", archived: ["u3"] });
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"], "archived again: gone from the default view");
  }));

test("Delete posts the archive action for the selected row, Shift+Delete the delete action", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(snapshot([]));
    await vp.clearPosted();
    await pressAll(vp, ["Home", "ArrowDown", "Delete", "Shift+Delete"]);
    assert.deepEqual(await postedActions(vp), [
      { type: "tree/action", command: "agentTree.archiveBranch", entryId: "a1" },
      { type: "tree/action", command: "agentTree.deleteBranch", entryId: "a1" },
    ]);
  }));

test("the palette's Show or Hide Archived Branches (tree/toggleArchived) flips the toolbar toggle and the rows", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(snapshot(["u3"]));
    const toggle = 'button.archived-toggle[aria-label="Show archived branches"]';
    await vp.send({ type: "tree/toggleArchived" });
    await settle(vp.page);
    assert.equal(await vp.page.getAttribute(toggle, "aria-pressed"), "true");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"], "shown, as by the toolbar button");
    await vp.send({ type: "tree/toggleArchived" });
    await settle(vp.page);
    assert.equal(await vp.page.getAttribute(toggle, "aria-pressed"), "false");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"], "hidden again");
  }));
