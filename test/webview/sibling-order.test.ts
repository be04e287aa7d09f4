/**
 * One tree shape everywhere: three siblings stamped with different UTC offsets and written out of order come out
 * in pi's order (parsed time, file order for ties) in the core, the tree view, the Switch Branch picker, the
 * compare picker and the exported HTML page; a parentId cycle is broken at the same entry everywhere.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { pathToFileURL } from "node:url";
import { encodeEnvelopes, encodeTreeRows } from "../../src/core/rows/row-columns.js";
import { treeRows } from "../../src/core/rows/tree-row.js";
import { buildExportData } from "../../src/core/export/build-export-data.js";
import { writeSessionHtml } from "../../src/core/export/export-session.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { branchPickRows } from "../../src/host/compare/compare-picks.js";
import { nodeRows } from "../../src/host/common/pick-items.js";
import { computeVisibility } from "../../webview/tree/tree-filter.js";
import { flatten } from "../../webview/tree/tree-flatten.js";
import { TreeIndex } from "../../webview/tree/tree-index.js";
import { CHROMIUM_PATH, launchHeadless } from "../util/chromium.js";
import { buildPageScript } from "../core/export/page-script.js";

/** pi's order of the three siblings: A (08:00Z, stamped +02:00), B (09:00Z), C (09:30Z, written first). */
const PI_ORDER = ["sibA0001", "sibB0001", "sibC0001"];

const line = (o: object): string => JSON.stringify(o);
const message = (id: string, parentId: string | null, timestamp: string, role: string, text: string): string =>
  line({
    type: "message",
    id,
    parentId,
    timestamp,
    message:
      role === "user"
        ? { role, content: text, timestamp: Date.parse(timestamp) }
        : {
            role,
            content: [{ type: "text", text }],
            provider: "openai",
            model: "m",
            usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { total: 0 } },
            stopReason: "stop",
            timestamp: Date.parse(timestamp),
          },
  });

/** The session: a root, a reply, and three replies to it in file order C, A, B. */
function threeSiblings(): string {
  return [
    line({ type: "session", version: 3, id: "sess-order", timestamp: "2025-01-01T07:00:00.000Z", cwd: "/ws" }),
    message("root0001", null, "2025-01-01T07:00:00.000Z", "user", "question"),
    message("reply001", "root0001", "2025-01-01T07:30:00.000Z", "assistant", "answer"),
    message("sibC0001", "reply001", "2025-01-01T09:30:00.000Z", "user", "third follow-up C"),
    message("sibA0001", "reply001", "2025-01-01T10:00:00+02:00", "user", "first follow-up A"),
    message("sibB0001", "reply001", "2025-01-01T09:00:00.000Z", "user", "second follow-up B"),
  ].join("\n");
}

let dir = "";
let file = "";

before(async () => {
  dir = await mkdtemp(join(tmpdir(), "agent-tree-sibling-order-"));
  file = join(dir, "order.jsonl");
  await writeFile(file, threeSiblings() + "\n");
});
after(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** The sibling ids among `ids`, in the order they appear. */
const siblingsIn = (ids: readonly string[]): string[] => ids.filter((id) => PI_ORDER.includes(id));

/** Node ids of a tree index in the order the tree view draws them (every row shown). */
function drawnOrder(index: TreeIndex): string[] {
  const rows = flatten(index, computeVisibility(index, "all", []), new Set(), false);
  return Array.from({ length: rows.count }, (_, r) => index.id(rows.node[r]));
}

test("the core orders the three siblings as pi does", async () => {
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    assert.deepEqual(sm.getChildIds("reply001"), PI_ORDER);
    const reply = sm.getTree()[0].children[0];
    assert.deepEqual(
      reply.children.map((c) => c.envelope?.id),
      PI_ORDER,
    );
  } finally {
    await sm.close();
  }
});

test("the tree view draws the snapshot's and an append's siblings in the core's order", async () => {
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const cols = encodeEnvelopes(sm.getEnvelopes(), (id) => sm.getLabel(id));
    assert.notEqual(cols.order, undefined, "file order is not pi's order: the snapshot carries it");
    const index = new TreeIndex(cols, sm.getLeafId());
    assert.deepEqual(siblingsIn(drawnOrder(index)), PI_ORDER);

    // Appended one at a time in file order, they land where the core puts them too.
    const rows = treeRows(sm);
    const grown = new TreeIndex(encodeTreeRows(rows.slice(0, 2)), null);
    for (const row of rows.slice(2)) grown.append(encodeTreeRows([row]));
    assert.deepEqual(siblingsIn(drawnOrder(grown)), PI_ORDER);
  } finally {
    await sm.close();
  }
});

test("the Switch Branch picker and the compare picker list the siblings in the core's order", async () => {
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const rows = treeRows(sm);
    assert.deepEqual(siblingsIn(nodeRows(rows, sm.getLeafId()).map((r) => r.value)), PI_ORDER);
    const compare = branchPickRows(rows, sm.getLeafId());
    const all = compare.slice(compare.findIndex((r) => "separator" in r && r.separator === "All nodes"));
    assert.deepEqual(siblingsIn(all.flatMap((r) => ("value" in r ? [r.value] : []))), PI_ORDER);
    // The tips, newest first by parsed time: B (09:00Z) is newer than A (08:00Z), whatever the strings say.
    const tips = compare.slice(
      0,
      compare.findIndex((r) => "separator" in r && r.separator === "All nodes"),
    );
    const leaf = sm.getLeafId();
    const otherTips = tips.flatMap((r) => ("value" in r && r.value !== leaf ? [r.value] : []));
    assert.deepEqual(otherTips, PI_ORDER.filter((id) => id !== leaf).reverse());
  } finally {
    await sm.close();
  }
});

test("a parentId cycle is broken at the same entry in the core, the snapshot and the picker", async () => {
  const cyclic = join(dir, "cycle.jsonl");
  await writeFile(
    cyclic,
    [
      line({ type: "session", version: 3, id: "sess-cycle", timestamp: "2025-01-01T07:00:00.000Z", cwd: "/ws" }),
      message("root0001", null, "2025-01-01T07:00:00.000Z", "user", "question"),
      message("loopA001", "loopB001", "2025-01-01T07:10:00.000Z", "user", "loop A"),
      message("loopB001", "loopA001", "2025-01-01T07:20:00.000Z", "user", "loop B"),
    ].join("\n") + "\n",
  );
  const sm = await SessionManager.open(cyclic, { readOnly: true });
  try {
    assert.deepEqual(
      sm.getTree().map((n) => n.envelope?.id),
      ["root0001", "loopA001"],
      "the store breaks the cycle at its first entry in the file",
    );
    const rows = treeRows(sm);
    // The same rows without the store's orphan flag: the columns break the cycle by the same rule.
    const unflagged = rows.map((r) => ({ ...r, orphan: undefined }));
    for (const cols of [encodeEnvelopes(sm.getEnvelopes(), () => undefined), encodeTreeRows(unflagged)]) {
      const index = new TreeIndex(cols, null);
      assert.deepEqual(
        index.roots.map((i) => index.id(i)),
        ["root0001", "loopA001"],
      );
      assert.deepEqual(drawnOrder(index), ["root0001", "loopA001", "loopB001"]);
    }
    assert.deepEqual(
      nodeRows(unflagged, null).map((r) => r.value),
      ["root0001", "loopA001", "loopB001"],
      "no entry of the cycle vanishes from the picker",
    );
  } finally {
    await sm.close();
  }
});

const skip = existsSync(CHROMIUM_PATH) ? false : `${CHROMIUM_PATH} is not installed`;

test("the exported HTML page lists the siblings in the core's order", { skip }, async () => {
  const sm = await SessionManager.open(file, { readOnly: true });
  const browser = await launchHeadless();
  try {
    const data = buildExportData(sm);
    assert.deepEqual(siblingsIn(drawnOrder(new TreeIndex(encodeTreeRows(data.nodes), data.leafId))), PI_ORDER);
    const html = join(dir, "order.html");
    await writeSessionHtml(sm, html, { pageScript: await buildPageScript() });
    const page = await browser.newPage({ viewport: { width: 1200, height: 800 } });
    await page.goto(pathToFileURL(html).href);
    await page.waitForSelector("body[data-ready=true]");
    const ids = await page.$$eval("#tree .row", (els) => els.map((e) => (e as HTMLElement).dataset.id ?? ""));
    assert.deepEqual(siblingsIn(ids), PI_ORDER);
  } finally {
    await browser.close();
    await sm.close();
  }
});
