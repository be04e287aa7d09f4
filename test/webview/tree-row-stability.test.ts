/**
 * Tree rows never move, in real Chromium: a row that is selected, focused, labelled or becomes the active
 * leaf keeps its connector, label and text at the same on-screen x (within 1 px), at 300 and 500 px, even
 * when something inside the row is scrolled into view (a click on its words, a screen reader or find
 * bringing `← active` into view). Before the fix each row was a scroll container (overflow: hidden) and such
 * a scroll shifted the row's own content sideways for good.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";

const rig = webviewRig();

/** A row whose text overflows every sidebar width tested. */
function node(id: string, parentId: string | null, kind: TreeRow["kind"], extra: Partial<TreeRow> = {}): TreeRow {
  const preview = `${id} says something long enough to run past the right edge of a narrow or a wide sidebar`;
  return treeRow(id, parentId, kind, { preview, ...extra });
}

/** Two levels of branches, so the measured rows have connectors; texts overflow every width tested. */
function nodes(): TreeRow[] {
  return [
    node("u1", null, "user"),
    node("a1", "u1", "assistant"),
    node("u2", "a1", "user", { label: "plan-a" }),
    node("a2", "u2", "assistant"),
    node("u5", "a2", "user", { label: "deeper" }),
    node("a5", "u5", "assistant"),
    node("u6", "a2", "user", { label: "other" }),
    node("u3", "a1", "user", { label: "checkpoint" }),
    node("a3", "u3", "assistant"),
    node("u4", "a3", "user"),
  ];
}

/** On-screen x of a row's parts (NaN when the part is absent). */
interface RowXs {
  /** The innermost connector character of the gutter (├, └ or │). */
  connector: number;
  /** The label's first character. */
  label: number;
  /** The role word's first character. */
  role: number;
  /** The first character of the preview text. */
  text: number;
  /** The first character drawn after the twisty: the label's, else the role's. */
  start: number;
}

// In-page, as a string (tsx's helpers do not exist in the page). Ranges give where glyphs are painted, so a
// row whose content scrolled sideways shows up however its elements are laid out.
const ROW_XS = `(id) => {
  const row = document.querySelector('[role="treeitem"][data-entry-id="' + id + '"]');
  if (row === null) throw new Error("no row " + id);
  const charX = (sel, pick) => {
    const el = row.querySelector(sel);
    if (el === null) return NaN;
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const chars = [];
    for (let n = walker.nextNode(); n !== null; n = walker.nextNode())
      for (let i = 0; i < n.data.length; i++) if (n.data[i].trim() !== "") chars.push([n, i]);
    if (chars.length === 0) return NaN;
    const [n, i] = pick(chars);
    const r = document.createRange();
    r.setStart(n, i);
    r.setEnd(n, i + 1);
    return r.getBoundingClientRect().left;
  };
  const first = (c) => c[0];
  const label = charX(".label-tag", first);
  const role = charX(".role", first);
  return {
    connector: charX(".guides", (c) => c[c.length - 1]),
    label,
    role,
    text: charX(".text", first),
    start: Number.isNaN(label) ? role : label,
  };
}`;

async function rowXs(vp: ViewPage, id: string): Promise<RowXs> {
  return (await vp.page.evaluate(`(${ROW_XS})(${JSON.stringify(id)})`)) as RowXs;
}

function assertSame(what: string, before: RowXs, after: RowXs, keys: (keyof RowXs)[]): void {
  for (const k of keys) {
    assert.ok(!Number.isNaN(before[k]) && !Number.isNaN(after[k]), `${what}: ${k} is drawn`);
    assert.ok(
      Math.abs(after[k] - before[k]) <= 1,
      `${what}: the ${k} moved from x=${before[k].toFixed(1)} to x=${after[k].toFixed(1)}`,
    );
  }
}

/** Everything a row's words can be clipped by: nothing may be cut on the left of the row's content box. */
async function contentLeft(vp: ViewPage, id: string): Promise<number> {
  return vp.page.$eval(`[data-entry-id="${id}"]`, (row) => {
    const cs = getComputedStyle(row);
    return row.getBoundingClientRect().left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft);
  });
}

for (const width of [300, 500]) {
  test(`at ${width} px a row keeps its place when selected, focused, labelled or made active`, () =>
    withPage(rig.openView({ view: "tree", width, height: 500 }), async (vp) => {
      await vp.send(treeSnapshot(nodes(), "u4", "s"));
      const ALL: (keyof RowXs)[] = ["connector", "label", "role", "text"];

      // Selected: a click on the row's words (the click target is scrolled into view first, as automation
      // and assistive tools do).
      let before = await rowXs(vp, "u5");
      await vp.page.click('[data-entry-id="u5"] .text');
      await settle(vp.page);
      assert.match((await vp.page.getAttribute('[data-entry-id="u5"]', "class")) ?? "", /\bselected\b/);
      assertSame("selected row u5", before, await rowXs(vp, "u5"), ALL);

      // Focused: the keyboard moves the focus ring down onto the next branch's first row.
      before = await rowXs(vp, "u6");
      await vp.page.keyboard.press("ArrowDown");
      await vp.page.keyboard.press("ArrowDown");
      await settle(vp.page);
      assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
      assert.match((await vp.page.getAttribute('[data-entry-id="u6"]', "class")) ?? "", /\bselected\b/);
      await vp.page.locator('[data-entry-id="u6"] .text').scrollIntoViewIfNeeded();
      assertSame("focused row u6", before, await rowXs(vp, "u6"), ALL);

      // Labelled: right-click on its words (the context menu's "Label Entry…"), then the host's label update.
      // The label takes the place where the text started; nothing is cut on the left.
      before = await rowXs(vp, "a2");
      await vp.page.locator('[data-entry-id="a2"] .text').click({ button: "right" });
      await vp.send({ type: "tree/update", labels: [{ id: "a2", label: "acc-label" }] });
      const labelled = await rowXs(vp, "a2");
      assertSame("labelled row a2", before, labelled, ["start"]);
      assert.ok(labelled.role > labelled.label, "the role word follows the label");
      assert.ok(labelled.label >= (await contentLeft(vp, "a2")) - 1, "the label is not cut on the left");
      await vp.page.locator('[data-entry-id="a2"] .label-tag').scrollIntoViewIfNeeded();
      assertSame("labelled row a2 after its label is scrolled into view", labelled, await rowXs(vp, "a2"), [
        "label",
        "role",
        "text",
      ]);

      // Active: a click on its words, the host moves the leaf there, and `← active` is brought into view (as
      // find or a screen reader does). The marker is visible without any scrolling.
      before = await rowXs(vp, "u3");
      await vp.page.click('[data-entry-id="u3"] .text');
      await vp.send({ type: "tree/update", leafId: "u3" });
      assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "u3");
      const marker = vp.page.locator('[data-entry-id="u3"] .active-marker');
      const rowBox = await vp.page.locator('[data-entry-id="u3"]').boundingBox();
      const shown = await marker.boundingBox();
      assert.ok(rowBox !== null && shown !== null);
      assert.ok(
        shown.x >= rowBox.x && shown.x + shown.width <= rowBox.x + rowBox.width,
        `← active (x ${shown.x.toFixed(1)}…${(shown.x + shown.width).toFixed(1)}) is inside its row (…${(rowBox.x + rowBox.width).toFixed(1)})`,
      );
      await marker.evaluate((el) => el.scrollIntoView({ block: "nearest", inline: "nearest" }));
      await settle(vp.page);
      assertSame("active row u3", before, await rowXs(vp, "u3"), ALL);
      assert.deepEqual(
        (await marker.boundingBox())?.x,
        shown.x,
        "scrolling `← active` into view moved nothing (it was in view)",
      );

      // No row anywhere scrolled its own content, and the list did not scroll sideways.
      const scrolled = await vp.page.$$eval('[role="treeitem"], [role="tree"]', (els) =>
        els.filter((e) => e.scrollLeft !== 0).map((e) => e.getAttribute("data-entry-id") ?? e.className),
      );
      assert.deepEqual(scrolled, []);
      assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    }));
}
