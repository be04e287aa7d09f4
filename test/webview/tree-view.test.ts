/**
 * Tree view in real Chromium against a fake host: rendering, filters, search, keyboard, folding,
 * virtualization, incremental updates, navigation, busy state and XSS inertness.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { encodeTreeRows } from "../../src/core/rows/row-columns.js";
import type { TreeRow } from "../../src/core/rows/tree-row.js";
import {
  measureSearchKeystrokes,
  measureSnapshot,
  measureUpdate,
  settle,
  syntheticTree,
  type ViewPage,
  webviewRig,
  withPage,
} from "./harness.js";
import { rowsOf, treeRow, treeSnapshot } from "./tree-fixtures.js";
import { postedActions, press, pressAll, rowIds } from "./tree-page.js";

const rig = webviewRig();

const XSS_IMG = `<img src=x onerror=alert(1)>`;
const XSS_SCRIPT = `<script>alert(2)</script>`;

function sampleNodes(): TreeRow[] {
  return [
    treeRow("u1", null, "user", { preview: "Hello, can you help" }),
    treeRow("a1", "u1", "assistant", { preview: "Of course! I can" }),
    treeRow("u2", "a1", "user", { preview: "Let's try approach A" }),
    treeRow("a2", "u2", "assistant", { preview: "For approach A", label: "plan-a" }),
    treeRow("c1", "a2", "compaction", { tokens: 12345, preview: "summary" }),
    treeRow("t1", "c1", "toolResult", { toolName: "read", preview: "file contents" }),
    treeRow("u3", "t1", "user", { preview: `That worked ${XSS_IMG} ${XSS_SCRIPT}` }),
    treeRow("u4", "a1", "user", { preview: "Actually, approach B" }),
    treeRow("b1", "u4", "branch_summary", { preview: "Tried approach A" }),
    treeRow("a4", "b1", "assistant", { preview: "For approach B" }),
    treeRow("m1", "a4", "model_change", { preview: "openai/gpt" }),
  ];
}

async function openTree(state?: unknown): Promise<ViewPage> {
  const vp = await rig.openView({ view: "tree", state });
  await vp.send(treeSnapshot(sampleNodes(), "u3"));
  return vp;
}

async function selectedId(vp: ViewPage): Promise<string | null> {
  return vp.page.$eval('[role="tree"]', (tree) => {
    const id = tree.getAttribute("aria-activedescendant");
    return id === null ? null : (document.getElementById(id)?.getAttribute("data-entry-id") ?? null);
  });
}

test("a leaf the filter hides (a model change, a recorded loadout): its nearest shown ancestor is marked active", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(treeSnapshot(sampleNodes(), "m1"));
    assert.equal(await vp.page.locator('[data-entry-id="m1"]').count(), 0, "the default filter hides the model change");
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a4");
    assert.match((await vp.page.locator('[data-entry-id="a4"]').textContent()) ?? "", /← active/);
    // A continued aside: the loadout recorded below its answer becomes the leaf; the answer is the active row.
    const rows = [treeRow("q1", "a4", "user", { preview: "aside question" })];
    rows.push(treeRow("x1", "q1", "assistant", { preview: "aside answer" }), treeRow("s1", "x1", "system"));
    await vp.send({ type: "tree/update", rows: encodeTreeRows(rows), leafId: "s1" });
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "x1");
    assert.equal(await vp.page.locator(".active-leaf").count(), 1);
  }));

test("a move to a leaf the filter hides keeps the filter: the nearest shown ancestor, or a cue at the top", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    // A named session: the session name comes first, the first user message hangs off it.
    const nodes = [
      treeRow("sn", null, "session_info", { preview: "My session" }),
      treeRow("u1", "sn", "user", { preview: "First question" }),
      treeRow("a1", "u1", "assistant", { preview: "First answer" }),
      treeRow("u2", "a1", "user", { preview: "Second question" }),
      treeRow("a2", "u2", "assistant", { preview: "Second answer" }),
    ];
    await vp.send(treeSnapshot(nodes, "a2"));
    const filter = () => vp.page.$eval("vscode-dropdown.filter", (d) => (d as unknown as { value: string }).value);
    assert.equal(await filter(), "default");
    // Edit and resend u2: the leaf goes to a1 (shown).
    await vp.send({ type: "tree/update", leafId: "a1" });
    await vp.send({ type: "tree/reveal", entryId: "a1" });
    assert.equal(await selectedId(vp), "a1");
    // Edit and resend u1: the leaf goes to its parent, the session name (pi's move), which the filter hides; the
    // host reveals the new leaf (its leaf marker below the session name).
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("mk", "sn", "custom", { preview: "leaf marker" })]),
      leafId: "mk",
    });
    await vp.send({ type: "tree/reveal", entryId: "mk" });
    assert.equal(await filter(), "default", "the filter the user chose stays");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"]);
    // No shown row is on the path: none is marked active, and a cue over the rows says where the leaf is.
    assert.equal(await vp.page.locator(".active-leaf").count(), 0);
    assert.match((await vp.page.locator(".active-hidden").textContent()) ?? "", /start of the conversation/);
    // Everything shown: the leaf marker is the active row, and the cue goes.
    await press(vp, "Control+o");
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "mk");
    assert.equal(await vp.page.locator(".active-hidden").count(), 0);
    await press(vp, "Control+o");
    // A move back to a2: the cue goes, the row is marked.
    await vp.send({ type: "tree/update", leafId: "a2" });
    await vp.send({ type: "tree/reveal", entryId: "a2" });
    assert.equal(await vp.page.locator(".active-hidden").count(), 0);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a2");
    // A revealed leaf the filter hides below a shown row: that row is selected, the filter stays.
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("mc", "a2", "model_change", { preview: "openai/gpt" })]),
      leafId: "mc",
    });
    await vp.send({ type: "tree/reveal", entryId: "mc" });
    assert.equal(await filter(), "default");
    assert.equal(await selectedId(vp), "a2");
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a2");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("the cue of a hidden active row has a Show all button: the hidden rows show, the active row is selected", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    // A named session whose first message was edited: the leaf is below the session name, which the filter hides.
    const nodes = [
      treeRow("sn", null, "session_info", { preview: "My session" }),
      treeRow("u1", "sn", "user", { preview: "First question" }),
      treeRow("a1", "u1", "assistant", { preview: "First answer" }),
      treeRow("mk", "sn", "custom", { preview: "leaf marker" }),
    ];
    await vp.send(treeSnapshot(nodes, "mk"));
    await vp.send({ type: "tree/reveal", entryId: "mk" });
    const filter = () => vp.page.$eval("vscode-dropdown.filter", (d) => (d as unknown as { value: string }).value);
    assert.equal(await vp.page.locator(".active-hidden").count(), 1);
    const show = vp.page.getByRole("button", { name: "Show all rows" });
    assert.equal(await show.count(), 1, "the cue offers a button");
    assert.equal(await show.getAttribute("aria-keyshortcuts"), "Control+O");
    // Reached with the keyboard: after the toolbar's filter, before the tree.
    await vp.page.focus("vscode-dropdown.filter");
    await vp.page.keyboard.press("Tab");
    assert.equal(await vp.page.evaluate(() => document.activeElement?.textContent?.trim()), "Show all");
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.equal(await filter(), "all");
    assert.equal(await vp.page.locator(".active-hidden").count(), 0, "the cue goes");
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "mk");
    assert.equal(await selectedId(vp), "mk", "the active row is selected");
    assert.equal(
      await vp.page.evaluate(() => document.activeElement?.getAttribute("role")),
      "tree",
      "the tree has the focus",
    );
    // Ctrl+O goes back to the filter before, where the cue (and its button) come back.
    await press(vp, "Control+o");
    assert.equal(await filter(), "default");
    assert.equal(await show.count(), 1);
    // A search hides the path on purpose: no cue then (its words would be wrong, its button no help).
    await press(vp, "q");
    await vp.page.keyboard.type("uestion");
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1"]);
    assert.equal(await vp.page.locator(".active-hidden").count(), 0);
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("the search box has a short placeholder and its whole hint as a title; the names stay complete", () =>
  withPage(openTree(), async (vp) => {
    const search = vp.page.locator("vscode-text-field.search");
    assert.equal(await search.getAttribute("placeholder"), "Search");
    assert.equal(await search.getAttribute("aria-label"), "Search tree");
    // The name the input itself has (the toolkit's field renamed itself "Text field" once in the page).
    assert.equal(await vp.page.getByRole("textbox", { name: "Search tree", exact: true }).count(), 1);
    assert.match((await search.getAttribute("title")) ?? "", /rows with all the words/);
  }));

test("each node kind renders as specified, with the active path, leaf marker and context-menu data", () =>
  withPage(openTree(), async (vp) => {
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "t1", "u3", "u4", "b1", "a4"]);
    const row = (id: string) => vp.page.locator(`[role="treeitem"][data-entry-id="${id}"]`);
    assert.match((await row("u1").textContent()) ?? "", /user: Hello, can you help/);
    assert.match((await row("c1").textContent()) ?? "", /\[compaction\] 12k tokens before/);
    assert.match((await row("a2").textContent()) ?? "", /\[plan-a\]/);
    assert.match((await row("t1").textContent()) ?? "", /tool read: file contents/);
    assert.match((await row("u2").textContent()) ?? "", /├─ /);
    assert.match((await row("u4").textContent()) ?? "", /└─ /);
    assert.match((await row("u3").textContent()) ?? "", /← active/);
    assert.equal(await vp.page.locator(".active-leaf").count(), 1);
    assert.equal(await vp.page.locator(".active-leaf").getAttribute("data-entry-id"), "u3");
    assert.match((await row("a1").getAttribute("class")) ?? "", /\bdim\b/);
    assert.match((await row("t1").getAttribute("class")) ?? "", /\bdim\b/);
    assert.doesNotMatch((await row("u1").getAttribute("class")) ?? "", /\bdim\b/);
    assert.match((await row("b1").getAttribute("class")) ?? "", /kind-branch_summary/);
    assert.match((await row("a2").getAttribute("class")) ?? "", /on-path/);
    assert.doesNotMatch((await row("u4").getAttribute("class")) ?? "", /on-path/);
    const ctx = JSON.parse((await row("a2").getAttribute("data-vscode-context")) ?? "{}") as Record<string, unknown>;
    assert.deepEqual(ctx, {
      webviewSection: "entry",
      entryId: "a2",
      hasLabel: true,
      preventDefaultContextMenuItems: true,
    });
    assert.equal(await row("a1").getAttribute("aria-expanded"), "true");
    assert.equal(await row("u3").getAttribute("aria-selected"), "true");
    assert.equal(await vp.page.locator('[role="tree"]').count(), 1);
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("the other entry kinds render with their markers in the all filter", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(
      treeSnapshot(
        [
          ...rowsOf([
            "r - user: root",
            "bx r bashExecution: ls -la",
            "cm bx custom_message: hook says hi",
            "lb cm label: label entry",
            "cu lb custom: agent-tree/leaf",
            "th cu thinking_level_change: high",
            "si th session_info: My session",
            "un si unknown: future",
          ]),
          treeRow("fa", "un", "assistant", { preview: "boom", failed: true }),
          treeRow("ab", "fa", "assistant", { preview: "half a repl", failed: true, aborted: true }),
          treeRow("tc", "ab", "assistant", { preview: "", toolCallsOnly: true, toolName: "read, bash" }),
          treeRow("or", "gone", "user", { preview: "orphaned", orphan: true }),
        ],
        "tc",
      ),
    );
    const text = async (id: string) => (await vp.page.textContent(`[data-entry-id="${id}"]`)) ?? "";
    // Default filter: bookkeeping hidden, the tool-call-only leaf shown because it is the leaf.
    assert.deepEqual(await rowIds(vp), ["r", "bx", "cm", "un", "fa", "ab", "tc", "or"]);
    await press(vp, "Control+o");
    assert.deepEqual(await rowIds(vp), ["r", "bx", "cm", "lb", "cu", "th", "si", "un", "fa", "ab", "tc", "or"]);
    assert.match(await text("bx"), /bash: ls -la/);
    assert.match(await text("cm"), /hook message: hook says hi/);
    assert.match(await text("lb"), /\[label\] label entry/);
    assert.match(await text("cu"), /\[leaf move\]/);
    assert.match(await text("th"), /\[thinking level\] high/);
    assert.match(await text("si"), /\[session name\] My session/);
    assert.match(await text("un"), /\[unknown\] future/);
    assert.match(await text("fa"), /boom \(failed\)/);
    // A reply the user stopped is not a failure: "(aborted)", as pi's tree says, not in the error colour.
    assert.match(await text("ab"), /half a repl \(aborted\)/);
    assert.doesNotMatch(await text("ab"), /failed/);
    assert.doesNotMatch((await vp.page.getAttribute('[data-entry-id="ab"]', "class")) ?? "", /failed/);
    assert.match(await text("tc"), /\[tool calls: read, bash\] ← active/);
    assert.equal(await vp.page.locator('[data-entry-id="or"] .orphan').count(), 1);
    assert.match((await vp.page.getAttribute('[data-entry-id="r"]', "class")) ?? "", /on-path/);
  }));

test("message text is inert in rows and hover text: no elements created, no dialogs", () =>
  withPage(openTree(), async (vp) => {
    const row = vp.page.locator('[role="treeitem"][data-entry-id="u3"]');
    assert.ok(((await row.textContent()) ?? "").includes(XSS_IMG));
    await row.hover();
    await vp.page.waitForFunction(() =>
      (window as unknown as { __fake: { posted: { type: string }[] } }).__fake.posted.some(
        (m) => m.type === "tree/requestText",
      ),
    );
    const req = (await vp.posted()).find((m) => m.type === "tree/requestText");
    assert.ok(req !== undefined && req.type === "tree/requestText" && req.entryId === "u3");
    await vp.send({
      type: "tree/entryText",
      requestId: req.requestId,
      entryId: "u3",
      text: `full ${XSS_IMG}\n${XSS_SCRIPT}`,
    });
    assert.equal(await row.getAttribute("title"), `full ${XSS_IMG}\n${XSS_SCRIPT}`);
    await vp.send({ type: "tree/update", labels: [{ id: "u1", label: XSS_IMG }] });
    await vp.send({ type: "status", text: XSS_SCRIPT, kind: "error" });
    assert.equal(await vp.page.locator("#root img, #root script").count(), 0);
    assert.equal(await vp.page.locator(".status-line").textContent(), XSS_SCRIPT);
    await settle(vp.page);
    assert.deepEqual(vp.dialogs, []);
  }));

test("click and Enter post tree/navigate; Shift+Enter, F2, Shift+L, Shift+R and Ctrl+C post actions", () =>
  withPage(openTree(), async (vp) => {
    await vp.clearPosted();
    await vp.page.click('[role="treeitem"][data-entry-id="u4"]');
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "tree/navigate", entryId: "u4", mode: "ask" }]);
    assert.equal(await selectedId(vp), "u4");
    await vp.clearPosted();
    await pressAll(vp, ["ArrowUp", "Enter", "Shift+Enter", "F2", "Shift+L", "Shift+R", "Control+c"]);
    assert.deepEqual(await postedActions(vp), [
      { type: "tree/navigate", entryId: "u3", mode: "ask" },
      { type: "tree/action", command: "agentTree.summarizeAndSwitchHere", entryId: "u3" },
      { type: "tree/action", command: "agentTree.labelEntry", entryId: "u3" },
      { type: "tree/action", command: "agentTree.labelEntry", entryId: "u3" },
      { type: "tree/action", command: "agentTree.replayWithModel", entryId: "u3" },
      { type: "tree/action", command: "agentTree.copyText", entryId: "u3" },
    ]);
  }));

test("a focus that comes from the workbench (Focus on Session Tree View, /tree) lands on the list: arrows move at once", () =>
  withPage(openTree(), async (vp) => {
    assert.equal(await vp.page.evaluate(() => document.activeElement === document.body), true);
    // VS Code focuses the view's frame: its window gets the focus with nothing inside focused.
    await vp.page.evaluate(() => window.dispatchEvent(new FocusEvent("focus")));
    await settle(vp.page);
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
    await vp.page.keyboard.press("ArrowUp");
    await settle(vp.page);
    assert.equal(await selectedId(vp), "t1", "ArrowUp moved the selection from the leaf");
    // A focus that a pointer brings (a click into the view) is left to the click.
    await vp.page.locator(".search").click();
    await vp.page.evaluate(() => window.dispatchEvent(new FocusEvent("focus")));
    assert.equal(await vp.page.evaluate(() => document.activeElement?.closest(".search") !== null), true);
    // A press whose release went elsewhere (a right-click's menu takes it), then the page lost the focus: the next
    // focus from the workbench is no click, and lands on the list.
    await vp.page.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.dispatchEvent(new PointerEvent("pointerdown"));
      window.dispatchEvent(new FocusEvent("blur"));
      window.dispatchEvent(new FocusEvent("focus"));
    });
    await settle(vp.page);
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
  }));

test("keyboard moves the selection with ARIA state; ←/→ fold and unfold", () =>
  withPage(openTree(), async (vp) => {
    assert.equal(await selectedId(vp), "u3", "the leaf starts selected");
    const moves = [
      ["Home", "u1"],
      ["ArrowDown", "a1"],
      ["End", "a4"],
      ["PageUp", "u1"],
      ["PageDown", "a4"],
    ] as const;
    for (const [key, id] of moves) {
      await press(vp, key);
      assert.equal(await selectedId(vp), id, `${key} selects ${id}`);
    }
    // ← from a chain row goes up to the branch start, then folds it.
    await press(vp, "ArrowLeft");
    assert.equal(await selectedId(vp), "u4");
    await press(vp, "ArrowLeft");
    assert.equal(await vp.page.getAttribute('[data-entry-id="u4"]', "aria-expanded"), "false");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "t1", "u3", "u4"]);
    await press(vp, "ArrowRight");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "t1", "u3", "u4", "b1", "a4"]);
    await press(vp, "ArrowRight");
    assert.equal(await selectedId(vp), "b1");
    await vp.page.waitForFunction(() => {
      const s = (window as unknown as { __fake: { getState(): { folded?: string[] } } }).__fake.getState();
      return s?.folded?.length === 0;
    });
    // Twisty click folds the branch point.
    await vp.page.click('[data-entry-id="a1"] .twisty');
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1", "a1"]);
    await vp.page.waitForFunction(() => {
      const s = (window as unknown as { __fake: { getState(): { folded?: string[] } } }).__fake.getState();
      return s?.folded?.includes("a1") === true;
    });
  }));

test("filters: Ctrl+U user-only, Ctrl+O all, dropdown; remembered in view state and restored", async () => {
  const vp = await openTree();
  try {
    await press(vp, "Control+u");
    assert.deepEqual(await rowIds(vp), ["u1", "u2", "u3", "u4"]);
    await press(vp, "Control+u");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "t1", "u3", "u4", "b1", "a4"]);
    await press(vp, "Control+o");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "t1", "u3", "u4", "b1", "a4", "m1"]);
    await vp.page.click("vscode-dropdown.filter");
    await vp.page.click('vscode-option:has-text("No tools")');
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "u3", "u4", "b1", "a4"]);
    await vp.page.waitForFunction(() => {
      const s = (window as unknown as { __fake: { getState(): { filter?: string } } }).__fake.getState();
      return s?.filter === "no-tools";
    });
    const saved = await vp.state();
    await vp.close();
    const again = await openTree(saved);
    try {
      assert.deepEqual(await rowIds(again), ["u1", "a1", "u2", "a2", "c1", "u3", "u4", "b1", "a4"]);
      await press(again, "Control+u");
      await press(again, "Control+u");
      assert.equal(
        await again.page.$eval("vscode-dropdown.filter", (d) => (d as unknown as { value: string }).value),
        "default",
      );
    } finally {
      await again.close();
    }
  } finally {
    await vp.close().catch(() => undefined);
  }
});

test("search: all tokens must match; hits reveal their path; Escape clears", () =>
  withPage(openTree(), async (vp) => {
    await press(vp, "Control+f");
    await vp.page.keyboard.type("APPROACH user");
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "u4"]);
    assert.match((await vp.page.getAttribute('[data-entry-id="a1"]', "class")) ?? "", /search-context/);
    await vp.page.keyboard.press("Control+a");
    await vp.page.keyboard.type("read contents");
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "t1"]);
    // Typing on the tree starts a search too; Escape clears it.
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);
    assert.equal((await rowIds(vp)).length, 10);
    await press(vp, "p");
    await vp.page.keyboard.type("lan-a");
    await settle(vp.page);
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"]);
    await press(vp, "Escape");
    assert.equal((await rowIds(vp)).length, 10);
  }));

test("incremental updates keep selection, folds and scroll; leaf and labels update in place", () =>
  withPage(openTree(), async (vp) => {
    await vp.page.click('[data-entry-id="u4"] .twisty');
    await press(vp, "Home");
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("a3", "u3", "assistant", { preview: "appended" })]),
      leafId: "a3",
    });
    assert.equal(await selectedId(vp), "u1");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2", "c1", "t1", "u3", "a3", "u4"]);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a3");
    await vp.send({ type: "tree/update", labels: [{ id: "u1", label: "start" }] });
    assert.match((await vp.page.textContent('[data-entry-id="u1"]')) ?? "", /\[start\]/);
    // A new snapshot of the same session keeps folds and selection.
    await vp.send(treeSnapshot([...sampleNodes()], "u3"));
    assert.equal(await selectedId(vp), "u1");
    assert.equal(await vp.page.getAttribute('[data-entry-id="u4"]', "aria-expanded"), "false");
    await vp.send({ type: "tree/reveal", entryId: "a4" });
    assert.equal(await selectedId(vp), "a4");
  }));

test("a move of the leaf alone: a row shown only as the leaf hides when the leaf leaves it, the path follows", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(
      treeSnapshot(
        [
          treeRow("u1", null, "user", { preview: "start" }),
          treeRow("a1", "u1", "assistant", { preview: "reply" }),
          treeRow("tc", "a1", "assistant", { preview: "", toolCallsOnly: true, toolName: "read" }),
          treeRow("u2", "u1", "user", { preview: "other way" }),
          treeRow("a2", "u2", "assistant", { preview: "other reply" }),
        ],
        "tc",
      ),
    );
    const onPath = async (id: string) =>
      /\bon-path\b/.test((await vp.page.getAttribute(`[data-entry-id="${id}"]`, "class")) ?? "");
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "tc", "u2", "a2"]);
    // The tool-call-only row passes the default filter only while it is the leaf.
    await vp.send({ type: "tree/update", leafId: "a2" });
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"]);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a2");
    assert.deepEqual([await onPath("a1"), await onPath("u2")], [false, true]);
    // Between two rows the filter shows anyway, nothing else changes but the marks.
    await vp.send({ type: "tree/update", leafId: "a1" });
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "u2", "a2"]);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a1");
    assert.deepEqual([await onPath("a1"), await onPath("u2")], [true, false]);
    await vp.send({ type: "tree/update", leafId: "tc" });
    assert.deepEqual(await rowIds(vp), ["u1", "a1", "tc", "u2", "a2"]);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "tc");
  }));

test("a move's update with its hidden leaf marker keeps the displayed rows without flattening the tree", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await vp.send(treeSnapshot(sampleNodes(), "u3"));
    const before = await rowIds(vp);
    /** Whether the tree was flattened since `since` (the view marks its last flatten). */
    const flattenedSince = (since: number) =>
      vp.page.evaluate((t) => performance.getEntriesByName("tree:flatten").some((m) => m.startTime > t), since);
    const now = () => vp.page.evaluate(() => performance.now());
    // A move to a2: the store appends a leaf marker (a custom entry the default filter hides) and moves the leaf.
    let t = await now();
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("mk1", "a2", "custom", { preview: "leaf marker" })]),
      leafId: "a2",
    });
    assert.equal(await flattenedSince(t), false, "the displayed rows were kept");
    assert.deepEqual(await rowIds(vp), before);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a2");
    // The node arrays grew for the hidden row: a row appended below it, and the filter that shows everything, see it.
    t = await now();
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("a5", "mk1", "assistant", { preview: "after the marker" })]),
      leafId: "a5",
    });
    assert.equal(await flattenedSince(t), true, "a shown row is flattened in");
    // a5 hangs off a2 through the hidden marker: a second branch there, after the first one (c1 … u3).
    const u4 = before.indexOf("u4");
    assert.deepEqual(await rowIds(vp), [...before.slice(0, u4), "a5", ...before.slice(u4)]);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "a5");
    await press(vp, "Control+o");
    assert.ok((await rowIds(vp)).includes("mk1"), "the marker shows with every entry shown");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("a row whose tool calls changed files shows the count, from a snapshot and when the row is sent again", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    const nodes = sampleNodes().map((n) => (n.id === "t1" ? { ...n, changedFiles: 3 } : n));
    await vp.send(treeSnapshot(nodes, "u3"));
    const badge = (id: string) => vp.page.locator(`[data-entry-id="${id}"] .files-badge`);
    assert.equal(await badge("t1").textContent(), "3");
    assert.equal(await badge("t1").getAttribute("title"), "3 files changed here");
    assert.equal(await vp.page.locator(".files-badge").count(), 1);
    // A turn streams in: its tool result row arrives, then again with its count (the host re-sends the row).
    const result = treeRow("t2", "u3", "toolResult", { toolName: "write", preview: "written" });
    await vp.send({ type: "tree/update", rows: encodeTreeRows([result]) });
    assert.equal(await badge("t2").count(), 0);
    await vp.send({ type: "tree/update", rows: encodeTreeRows([{ ...result, changedFiles: 1 }]) });
    assert.equal(await badge("t2").textContent(), "1");
    assert.equal(await badge("t2").getAttribute("title"), "1 file changed here");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("busy: the host's progress bar shows; a click still asks the host, which decides", () =>
  withPage(openTree(), async (vp) => {
    await vp.send({ type: "tree/busy", busy: true, message: "Summarizing branch…" });
    assert.equal(await vp.page.locator('[role="progressbar"]').count(), 1);
    assert.match((await vp.page.textContent(".tree-app")) ?? "", /Summarizing branch…/);
    await vp.clearPosted();
    // The view refuses nothing itself: the host's operations table says "A branch switch is already in progress."
    // (test/host/busy-at-entry.test.ts).
    await vp.page.click('[data-entry-id="u2"]');
    await settle(vp.page);
    assert.deepEqual(await postedActions(vp), [{ type: "tree/navigate", entryId: "u2", mode: "ask" }]);
    await vp.clearPosted();
    await vp.send({ type: "tree/busy", busy: false });
    assert.equal(await vp.page.locator('[role="progressbar"]').count(), 0);
    await vp.page.click('[data-entry-id="u2"]');
    await settle(vp.page);
    assert.deepEqual(await postedActions(vp), [{ type: "tree/navigate", entryId: "u2", mode: "ask" }]);
    await vp.send({ type: "status", text: "Moved to u2", kind: "info" });
    assert.equal(await vp.page.textContent(".status-line"), "Moved to u2");
  }));

test("busy: the row under the pointer shows the progress cursor, no other row's style changes; the bar moves by transform", () =>
  withPage(openTree(), async (vp) => {
    const cursor = (id: string) =>
      vp.page.$eval(`[data-entry-id="${id}"]`, (e) => getComputedStyle(e).cursor) as Promise<string>;
    await vp.send({ type: "tree/busy", busy: true, message: "Switching branch…" });
    // The bar and the message above the list move the rows down: the pointer goes to the row once they show.
    await vp.page.hover('[data-entry-id="u2"]');
    await settle(vp.page);
    assert.equal(await cursor("u2"), "progress", "the hovered row");
    // A busy rule reaching every row restyled all of them (and their contents) on each busy change: a move's
    // style work then grew with the rows drawn.
    assert.equal(await cursor("a1"), "pointer", "a row not under the pointer keeps its style");
    // The bar's animation changes only transform: an animated `left` laid the page out on every frame of a move.
    const animated = (await vp.page.evaluate(() =>
      document
        .getAnimations()
        .flatMap((a) => (a.effect as KeyframeEffect).getKeyframes())
        .flatMap((k) => Object.keys(k).filter((p) => !["offset", "computedOffset", "easing", "composite"].includes(p))),
    )) as string[];
    assert.ok(animated.length > 0, "the progress bar is animated");
    assert.deepEqual([...new Set(animated)], ["transform"]);
    await vp.send({ type: "tree/busy", busy: false });
    await settle(vp.page);
    assert.equal(await cursor("u2"), "pointer");
  }));

test("virtualized: a 100k-node tree keeps a bounded number of DOM rows while scrolling", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    const { nodes, leafId } = syntheticTree(100_000);
    await vp.send(treeSnapshot(nodes, leafId, "big"));
    const count = () => vp.page.locator('[role="treeitem"]').count();
    assert.ok((await count()) > 10);
    assert.ok((await count()) <= 100, `rows in DOM: ${await count()}`);
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), leafId);
    const height = await vp.page.$eval(".tree-spacer", (e) => (e as HTMLElement).offsetHeight);
    assert.ok(height > 100_000 * 10, "the scroll area spans every row");
    for (const frac of [0, 0.5, 0.25]) {
      await vp.page.$eval(
        ".tree-scroll",
        (e, f) => ((e as HTMLElement).scrollTop = (e as HTMLElement).scrollHeight * f),
        frac,
      );
      await settle(vp.page);
      const n = await count();
      assert.ok(n > 10 && n <= 100, `rows in DOM at ${frac}: ${n}`);
    }
    // An append far below keeps the scroll position and the selection.
    const before = await vp.page.$eval(".tree-scroll", (e) => (e as HTMLElement).scrollTop);
    await press(vp, "ArrowDown");
    const sel = await selectedId(vp);
    const scrolled = await vp.page.$eval(".tree-scroll", (e) => (e as HTMLElement).scrollTop);
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([treeRow("new1", leafId, "user", { preview: "appended" })]),
    });
    assert.equal(await vp.page.$eval(".tree-scroll", (e) => (e as HTMLElement).scrollTop), scrolled);
    assert.equal(await selectedId(vp), sel);
    // Rows inserted above the viewport do not move what is on screen.
    const topRowId = async (): Promise<string> =>
      vp.page.$eval(".tree-scroll", (el) => {
        const top = (el as HTMLElement).scrollTop;
        const rows = [...el.querySelectorAll('[role="treeitem"]')] as HTMLElement[];
        const hit = rows.find((r) => Math.abs(parseFloat(r.style.top) - top) < 1);
        return hit?.getAttribute("data-entry-id") ?? "";
      });
    await vp.page.$eval(".tree-scroll", (e) => ((e as HTMLElement).scrollTop = 22 * 5000));
    await settle(vp.page);
    const topBefore = await topRowId();
    assert.notEqual(topBefore, "");
    await vp.send({
      type: "tree/update",
      rows: encodeTreeRows([
        { ...treeRow("early1", "n1", "user", { preview: "inserted above" }), timestamp: "2000-01-01T00:00:00.000Z" },
        {
          ...treeRow("early2", "early1", "assistant", { preview: "inserted above" }),
          timestamp: "2000-01-01T00:00:01.000Z",
        },
      ]),
    });
    assert.equal(await topRowId(), topBefore);
    assert.ok(before >= 0);
    await vp.send({ type: "tree/reveal", entryId: "new1" });
    assert.equal(await selectedId(vp), "new1");
    await press(vp, "End");
    assert.equal(await selectedId(vp), (await rowIds(vp)).at(-1));
    await vp.page.keyboard.type("w42");
    await settle(vp.page);
    assert.ok((await count()) <= 100);
  }));

test("benchmark hooks: snapshot, update and keystroke probes return timings and leave the view working", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    const { nodes, leafId } = syntheticTree(5_000);
    const t = await measureSnapshot(vp, {
      type: "tree/snapshot",
      sessionId: "b",
      rows: encodeTreeRows(nodes),
      leafId,
    });
    assert.ok(t.rowCount > 0 && t.rowCount <= 100);
    for (const v of [t.firstPaintMs, t.afterArrivalMs, t.indexMs, t.flattenMs]) assert.ok(Number.isFinite(v) && v >= 0);
    // A reply appended at the leaf: timed, and drawn as the new active row.
    const reply = treeRow("reply1", leafId, "assistant", { preview: "appended reply" });
    const u = await measureUpdate(vp, { type: "tree/update", rows: encodeTreeRows([reply]), leafId: "reply1" });
    assert.ok([u.frameMs, u.workMs].every((v) => Number.isFinite(v) && v >= 0));
    assert.equal(await vp.page.getAttribute(".active-leaf", "data-entry-id"), "reply1");
    const keys = await measureSearchKeystrokes(vp, "w4");
    assert.equal(keys.length, 2);
    assert.ok(keys.every((k) => Number.isFinite(k) && k >= 0));
    const texts = await vp.page.$$eval('[role="treeitem"]', (els) => els.map((e) => e.textContent ?? ""));
    assert.ok(texts.length > 0);
    // Every shown row is a hit or the ancestor of one.
    assert.ok(texts.some((x) => /w4/.test(x)));
  }));
