/**
 * Archived branches in the tree view (real Chromium, fake host): hidden from the default view and from search,
 * shown dimmed when the host says so (`showArchived` in the snapshot or a `tree/update`: the host owns the choice),
 * the toolbar toggle and a reveal into a hidden archived branch ask the host (`tree/showArchived`) and change
 * nothing before it answers; archived rows are marked for the context menu, brought back by the archived branches
 * of `tree/update`; Delete and Shift+Delete post the archive and delete actions. A view state of an earlier version
 * that kept the choice itself is handed to the host once.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostToWebview, WebviewToHost } from "../../src/shared/protocol.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { settle, webviewRig, type ViewPage } from "./harness.js";
import { rowsOf, treeSnapshot } from "./tree-fixtures.js";
import { press, rowIds } from "./tree-page.js";

const rig = webviewRig();

/** u1 → a1 → u2 → a2 (the active path) and a1 → u3 → a3 (the side branch, archived in the snapshot). */
const NODES: TreeRow[] = rowsOf([
  "u1 - user: plan the parser",
  "a1 u1 assistant: two ways",
  "u2 a1 user: the hand-written way",
  "a2 u2 assistant: cleaner",
  "u3 a1 user: the regex way",
  "a3 u3 assistant: regexes get messy",
]);

function snapshot(archived: string[], showArchived?: boolean): HostToWebview {
  return { ...treeSnapshot(NODES, "a2"), archived, ...(showArchived === undefined ? {} : { showArchived }) };
}

const TOGGLE = 'button.archived-toggle[aria-label="Show archived branches"]';

/** What the view asked the host about archived branches so far. */
async function asksToShow(vp: ViewPage): Promise<WebviewToHost[]> {
  return (await vp.posted()).filter((m) => m.type === "tree/showArchived");
}

/** The view asked the host to show (or hide) archived branches; the host answers as a host would. */
async function answerShowArchived(vp: ViewPage, show: boolean): Promise<void> {
  await vp.page.waitForFunction(() =>
    (window as unknown as { __fake: { posted: { type: string }[] } }).__fake.posted.some(
      (m) => m.type === "tree/showArchived",
    ),
  );
  assert.deepEqual(await asksToShow(vp), [{ type: "tree/showArchived", show }], "one request to the host");
  await vp.clearPosted();
  await vp.send({ type: "tree/update", showArchived: show });
  await settle(vp.page);
}

test("archived rows leave the default view and search; the toggle shows them dimmed; an update of the archived branches brings them back", async () => {
  const vp = await rig.openView({ view: "tree" });
  try {
    await vp.send(snapshot(["u3"]));
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"], "the archived branch is hidden");
    await press(vp, "Control+f");
    await vp.page.keyboard.type("regex");
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), [], "search finds nothing in a hidden archived branch");
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);

    const toggle = TOGGLE;
    assert.equal(await vp.page.getAttribute(toggle, "aria-pressed"), "false");
    await vp.clearPosted();
    await vp.page.click(toggle);
    await settle(vp.page);
    assert.equal(
      await vp.page.getAttribute(toggle, "aria-pressed"),
      "false",
      "nothing changes before the host answers",
    );
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"]);
    await answerShowArchived(vp, true);
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
      const s = (
        window as unknown as { __fake: { getState(): Record<string, unknown> | undefined } }
      ).__fake.getState();
      return s !== undefined && s.folded !== undefined;
    });
    assert.equal(
      ((await vp.state()) as Record<string, unknown>).showArchived,
      undefined,
      "the view does not keep the choice: the host does",
    );

    await vp.send({ type: "tree/update", archived: [] });
    assert.equal(await vp.page.$$eval(".tree-row.archived", (els) => els.length), 0, "unarchived: no longer dimmed");
    await vp.page.click(toggle);
    await answerShowArchived(vp, false);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"], "unarchived rows show by default");

    await vp.send({ type: "tree/update", archived: ["u3"] });
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"], "archived again: gone from the default view");
  } finally {
    await vp.close();
  }
});

test("Delete posts the archive action for the selected row, Shift+Delete the delete action", async () => {
  const vp = await rig.openView({ view: "tree" });
  try {
    await vp.send(snapshot([]));
    await vp.clearPosted();
    await press(vp, "Home");
    await press(vp, "ArrowDown");
    await press(vp, "Delete");
    await press(vp, "Shift+Delete");
    const posted = (await vp.posted()).filter((m) => m.type !== "tree/requestText");
    assert.deepEqual(posted, [
      { type: "tree/action", command: "agentTree.archiveBranch", entryId: "a1" },
      { type: "tree/action", command: "agentTree.deleteBranch", entryId: "a1" },
    ]);
  } finally {
    await vp.close();
  }
});

test("the view shows what the host says: showArchived in the snapshot, then in tree/update (the palette's toggle)", async () => {
  const vp = await rig.openView({ view: "tree" });
  try {
    await vp.send(snapshot(["u3"], true));
    assert.equal(await vp.page.getAttribute(TOGGLE, "aria-pressed"), "true");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"], "shown, as the snapshot says");
    await vp.send({ type: "tree/update", showArchived: false });
    await settle(vp.page);
    assert.equal(await vp.page.getAttribute(TOGGLE, "aria-pressed"), "false");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"], "hidden again");
    await vp.send({ type: "tree/update", showArchived: true });
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"], "shown again");
    await vp.send(snapshot(["u3"]));
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"], "a snapshot without it: hidden");
    assert.deepEqual(await asksToShow(vp), [], "the view asked nothing: it only shows");
  } finally {
    await vp.close();
  }
});

test("a reveal into a hidden archived branch asks the host to show them, then selects the row", async () => {
  const vp = await rig.openView({ view: "tree" });
  try {
    await vp.send(snapshot(["u3"]));
    await vp.clearPosted();
    await vp.send({ type: "tree/reveal", entryId: "a3" });
    await answerShowArchived(vp, true);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"]);
    assert.equal(
      await vp.page.getAttribute('[data-entry-id="a3"]', "aria-selected"),
      "true",
      "the archived row is selected once they show",
    );
  } finally {
    await vp.close();
  }
});

test("a view state of an earlier version that showed archived branches is handed to the host once", async () => {
  const vp = await rig.openView({ view: "tree", state: { filter: "default", folded: [], showArchived: true } });
  let saved: unknown;
  try {
    await answerShowArchived(vp, true);
    await vp.send(snapshot(["u3"], true));
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "u3", "a3"]);
    saved = await vp.state();
  } finally {
    await vp.close();
  }
  const reloaded = await rig.openView({ view: "tree", state: saved });
  try {
    await reloaded.send(snapshot(["u3"]));
    assert.deepEqual(await rowIds(reloaded), ["u1", "a1", "u2", "a2"], "the host's word (hidden) stands");
    assert.deepEqual(await asksToShow(reloaded), [], "not handed over again");
  } finally {
    await reloaded.close();
  }
});
