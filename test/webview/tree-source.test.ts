/**
 * Where a branch summary came from, in the tree view (real Chromium, fake host): "from: …" on summaries whose
 * source is off their own path, click and F12 select the source (without navigating), the context menu knows.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";

const rig = webviewRig();

/**
 * u1 → a1 ┬→ uA → aA "Approach A works"                 (other branch)
 *         └→ uB → aB → sBrought (fromId aA: brought here) ← leaf
 * aA → sOwn (fromId a1: on its own path, no marker)
 */
const nodes = (): TreeRow[] => [
  treeRow("u1", null, "user"),
  treeRow("a1", "u1", "assistant"),
  treeRow("uA", "a1", "user", { preview: "Try approach A" }),
  treeRow("aA", "uA", "assistant", { preview: "Approach A works" }),
  treeRow("sOwn", "aA", "branch_summary", { preview: "odd summary", fromId: "a1" }),
  treeRow("uB", "a1", "user", { preview: "Try approach B" }),
  treeRow("aB", "uB", "assistant", { preview: "B is slow" }),
  treeRow("sBrought", "aB", "branch_summary", { preview: "A worked: keep the API", fromId: "aA" }),
];

async function open(): Promise<ViewPage> {
  const vp = await rig.openView({ view: "tree", width: 700 });
  await vp.send(treeSnapshot(nodes(), "sBrought", "s"));
  return vp;
}

const row = (vp: ViewPage, id: string) => vp.page.locator(`[role="treeitem"][data-entry-id="${id}"]`);

async function selected(vp: ViewPage): Promise<string | null> {
  return vp.page.locator('[role="treeitem"][aria-selected="true"]').getAttribute("data-entry-id");
}

test("a summary brought from another branch says where from; one from its own path does not", () =>
  withPage(open(), async (vp) => {
    assert.equal(await row(vp, "sBrought").locator(".source-tag").innerText(), "from: Approach A works");
    assert.equal(await row(vp, "sOwn").locator(".source-tag").count(), 0);
    const ctx = JSON.parse((await row(vp, "sBrought").getAttribute("data-vscode-context")) ?? "{}");
    assert.equal(ctx.hasSource, true);
    const own = JSON.parse((await row(vp, "sOwn").getAttribute("data-vscode-context")) ?? "{}");
    assert.equal(own.hasSource, undefined);
  }));

test("a click on the marker selects the source and does not navigate", () =>
  withPage(open(), async (vp) => {
    await row(vp, "sBrought").locator(".source-tag").click();
    await settle(vp.page);
    assert.equal(await selected(vp), "aA");
    assert.deepEqual(
      (await vp.posted()).filter((m) => m.type === "tree/navigate"),
      [],
    );
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
  }));

test("F12 on a brought summary goes to its source; on anything else it does nothing", () =>
  withPage(open(), async (vp) => {
    assert.equal(await selected(vp), "sBrought", "the leaf is selected first");
    await vp.page.focus('[role="tree"]');
    await vp.page.keyboard.press("F12");
    await settle(vp.page);
    assert.equal(await selected(vp), "aA");
    await vp.page.keyboard.press("F12");
    await settle(vp.page);
    assert.equal(await selected(vp), "aA");
  }));

test("a summary appended later carries its marker too", () =>
  withPage(open(), async (vp) => {
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("s2", "sBrought", "branch_summary", { fromId: "uA" })]),
      leafId: "s2",
    });
    assert.equal(await row(vp, "s2").locator(".source-tag").innerText(), "from: Try approach A");
  }));
