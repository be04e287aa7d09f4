/**
 * The tree view by keyboard and screen reader in real Chromium: the names the accessibility tree gives its
 * controls and rows, and the row menu from the keyboard (Shift+F10, the context-menu key), which VS Code opens
 * from a `contextmenu` event on the row that carries `data-vscode-context`.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { webviewRig, withPage, type ViewPage } from "./harness.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";
import { press } from "./tree-page.js";

const rig = webviewRig();

async function openTree(): Promise<ViewPage> {
  const vp = await rig.openView({ view: "tree" });
  await vp.send(
    treeSnapshot(
      [
        treeRow("u1", null, "user", { preview: "Hello" }),
        treeRow("a1", "u1", "assistant", { preview: "Hi there", label: "greeting" }),
        treeRow("u2", "a1", "user", { preview: "Edit the file" }),
        treeRow("a2", "u2", "assistant", { preview: "Done", changedFiles: 3 }),
        treeRow("u3", "a1", "user", { preview: "Another way", check: { state: "passed", title: "npm test: passed" } }),
      ],
      "a2",
    ),
  );
  return vp;
}

/**
 * Records the `contextmenu` events that reach the window as VS Code's webview shell sees them (its listener is on
 * the window and skips events a handler prevented): the entry of the nearest `data-vscode-context`, and whether
 * it was prevented.
 */
async function recordMenus(vp: ViewPage): Promise<void> {
  await vp.page.evaluate(() => {
    const w = window as unknown as { __menus: { entryId: string | null; prevented: boolean }[] };
    w.__menus = [];
    window.addEventListener("contextmenu", (e) => {
      const el = (e.target as Element).closest("[data-vscode-context]");
      const ctx = el === null ? null : (JSON.parse(el.getAttribute("data-vscode-context") ?? "{}") as object);
      w.__menus.push({
        entryId: ctx !== null && "entryId" in ctx ? String(ctx.entryId) : null,
        prevented: e.defaultPrevented,
      });
      // Chromium shows no menu of its own in a test page either way.
      e.preventDefault();
    });
  });
}

async function menus(vp: ViewPage): Promise<{ entryId: string | null; prevented: boolean }[]> {
  return vp.page.evaluate(
    () => (window as unknown as { __menus: { entryId: string | null; prevented: boolean }[] }).__menus,
  );
}

test("a row's accessible name says what it shows in words: the active row, its label, its changed files", () =>
  withPage(openTree(), async (vp) => {
    const snap = await vp.page.locator('[role="tree"]').ariaSnapshot();
    assert.match(snap, /treeitem "\[greeting\] assistant: Hi there" \[expanded\] \[level=1\]/);
    // No arrow read out as "leftwards arrow": the active row is said to be active, its files badge what it counts.
    assert.match(snap, /treeitem "assistant: Done 3 files changed here active" \[level=2\] \[selected\]/);
    assert.match(snap, /treeitem "user: Another way check passed" \[level=2\]/);
    assert.doesNotMatch(snap, /←/);
  }));

test("a row's hover text is no description: a screen reader does not read the row's text twice", () =>
  withPage(openTree(), async (vp) => {
    const cdp = await vp.page.context().newCDPSession(vp.page);
    try {
      await cdp.send("Accessibility.enable");
      const { nodes } = await cdp.send("Accessibility.getFullAXTree");
      const items = nodes.filter((n) => n.role?.value === "treeitem" && !n.ignored);
      assert.equal(items.length, 5);
      for (const n of items) assert.equal(n.description?.value ?? "", "", `${String(n.name?.value)}: no description`);
    } finally {
      await cdp.detach();
    }
    // The hover still shows it.
    assert.equal(await vp.page.getAttribute('[data-entry-id="u1"]', "title"), "Hello");
  }));

test("Shift+F10 and the context-menu key open the selected row's menu; the list outside a row opens none", () =>
  withPage(openTree(), async (vp) => {
    await recordMenus(vp);
    await press(vp, "Home");
    await press(vp, "Shift+F10");
    assert.deepEqual(await menus(vp), [{ entryId: "u1", prevented: false }], "Shift+F10: the menu of the row u1");
    await press(vp, "ArrowDown");
    await press(vp, "ContextMenu");
    assert.deepEqual((await menus(vp)).slice(1), [{ entryId: "a1", prevented: false }], "ContextMenu: a1's menu");
    // A menu asked for on the list itself (a keyboard one Chromium targets at the focused list) has no row: the
    // workbench would show only Cut/Copy/Paste, so the view keeps it from the shell.
    await vp.page.locator('[role="tree"]').dispatchEvent("contextmenu", { bubbles: true, cancelable: true });
    assert.deepEqual((await menus(vp)).slice(2), [{ entryId: null, prevented: true }]);
    // The row keeps the focus: the menu's commands act on it and Escape comes back to the list.
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("role")), "tree");
  }));
