/**
 * Branches running beside the user's in the tree view (real Chromium, fake host): `tree/running` puts a spinner,
 * the current tool and the tokens so far on each running branch's newest row, moves with the branch, and goes away
 * when the host sends the list without it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { webviewRig, withPage } from "./harness.js";
import { rowsOf, treeSnapshot } from "./tree-fixtures.js";

const rig = webviewRig();

const NODES: TreeRow[] = rowsOf([
  "u1 - user: start",
  "a1 u1 assistant: the node",
  "b1 a1 user: explore one",
  "b2 a1 user: explore two",
  "c2 b2 assistant: writing",
]);

/** The running tags, as `<row id>: <text>`. */
async function runningTags(vp: Awaited<ReturnType<typeof rig.openView>>): Promise<string[]> {
  return vp.page.$$eval(".tree-row .running-tag", (els) =>
    els.map((e) => `${e.closest(".tree-row")?.getAttribute("data-entry-id")}: ${(e.textContent ?? "").trim()}`),
  );
}

test("running branches show on their newest rows until the host says they ended", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(treeSnapshot(NODES, "a1"));
    assert.deepEqual(await runningTags(vp), []);
    await vp.send({
      type: "tree/running",
      branches: [
        { tipId: "b1", tokens: 12 },
        { tipId: "c2", tool: "write", tokens: 340 },
      ],
    });
    assert.deepEqual((await runningTags(vp)).sort(), ["b1: streaming · 12 tok", "c2: write · 340 tok"]);
    assert.equal(await vp.page.$$eval(".running-tag .codicon-loading", (els) => els.length), 2, "a spinner each");
    await vp.send({ type: "tree/running", branches: [{ tipId: "c2", tokens: 400 }] });
    assert.deepEqual(await runningTags(vp), ["c2: streaming · 400 tok"]);
    await vp.send({ type: "tree/running", branches: [] });
    assert.deepEqual(await runningTags(vp), []);
  }));
