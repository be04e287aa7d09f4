/**
 * The row menu's parallel items in the tree view (real Chromium, fake host): a row's data-vscode-context says
 * which of Adopt This Branch, Archive Other Branches, Run Check Again and Continue as Branch apply to it, from the
 * run lines the host marks (package.json's webview/context `when` clauses read these keys).
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { webviewRig, withPage, type ViewPage } from "./harness.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";

const rig = webviewRig();

const RUN_LINE = "agent-tree/branch-run";

/**
 * u1 → a1 ┬→ e1 → e1a ✓        explore branch, checked
 *         ├→ e2 → e2a          explore branch, not checked
 *         ├→ q1 → q1a          aside
 *         ├→ q2 → q2a          aside continued as a branch (its newest run line says so)
 *         └→ u2 → a2           ordinary
 */
function nodes(): TreeRow[] {
  return [
    treeRow("u1", null, "user"),
    treeRow("a1", "u1", "assistant"),
    treeRow("e1", "a1", "user"),
    treeRow("r1", "e1", "custom", { preview: RUN_LINE, branchRun: "group" }),
    treeRow("e1a", "e1", "assistant", { check: { state: "passed", title: "npm test passed" } }),
    treeRow("e2", "a1", "user"),
    treeRow("r2", "e2", "custom", { preview: RUN_LINE, branchRun: "group" }),
    treeRow("e2a", "e2", "assistant"),
    treeRow("q1", "a1", "user"),
    treeRow("r3", "q1", "custom", { preview: RUN_LINE, branchRun: "aside" }),
    treeRow("q1a", "q1", "assistant"),
    treeRow("q2", "a1", "user"),
    treeRow("r4", "q2", "custom", { preview: RUN_LINE, branchRun: "aside" }),
    treeRow("q2a", "q2", "assistant"),
    treeRow("r5", "q2", "custom", { preview: RUN_LINE, branchRun: "continued" }),
    treeRow("u2", "a1", "user"),
    treeRow("a2", "u2", "assistant"),
  ];
}

const KEYS = ["parallelBranch", "checkedBranch", "aside"] as const;

/** The parallel keys of a row's data-vscode-context that are set. */
async function items(vp: ViewPage, id: string): Promise<string[]> {
  const raw = await vp.page.locator(`[role="treeitem"][data-entry-id="${id}"]`).getAttribute("data-vscode-context");
  const ctx = JSON.parse(raw ?? "{}") as Record<string, unknown>;
  return KEYS.filter((k) => ctx[k] === true);
}

test("a row's context says which parallel items apply: a parallel branch's, a checked one's, an aside's", () =>
  withPage(rig.openView({ view: "tree", width: 700 }), async (vp) => {
    await vp.send(treeSnapshot(nodes(), "a2"));
    for (const id of ["u1", "a1", "u2", "a2"]) assert.deepEqual(await items(vp, id), [], `${id}: an ordinary row`);
    for (const id of ["e1", "e1a"]) assert.deepEqual(await items(vp, id), ["parallelBranch", "checkedBranch"], id);
    for (const id of ["e2", "e2a"]) assert.deepEqual(await items(vp, id), ["parallelBranch"], id);
    for (const id of ["q1", "q1a"]) assert.deepEqual(await items(vp, id), ["aside"], id);
    for (const id of ["q2", "q2a"]) assert.deepEqual(await items(vp, id), [], `${id}: continued, an ordinary path`);
  }));

test("run lines and checks that arrive later mark their branch's rows", () =>
  withPage(rig.openView({ view: "tree", width: 700 }), async (vp) => {
    await vp.send(treeSnapshot(nodes(), "a2"));
    // A new explore branch off a2: its first row, then its run line, then a reply.
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([
        treeRow("e3", "a2", "user"),
        treeRow("r6", "e3", "custom", { preview: RUN_LINE, branchRun: "group" }),
        treeRow("e3a", "e3", "assistant"),
      ]),
    });
    assert.deepEqual(await items(vp, "e3a"), ["parallelBranch"]);
    assert.deepEqual(await items(vp, "a2"), [], "the row the branch started from is not on it");
    // e2's check comes in: its row is sent again with the mark.
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([
        treeRow("e2a", "e2", "assistant", { check: { state: "failed", title: "npm test failed" } }),
      ]),
    });
    assert.deepEqual(await items(vp, "e2"), ["parallelBranch", "checkedBranch"]);
    // The aside q1 is continued: its rows lose Continue as Branch.
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("r7", "q1", "custom", { preview: RUN_LINE, branchRun: "continued" })]),
    });
    assert.deepEqual(await items(vp, "q1a"), []);
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));
