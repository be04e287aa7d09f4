/**
 * End to end in code-server, by keyboard only: the Session Tree's row menu opens with Shift+F10 and the
 * context-menu key on the selected row (VS Code's webview shell builds the menu from the row's
 * `data-vscode-context`; the keyboard's own event targets the list, which has none, and showed Cut/Copy/Paste),
 * its items act on that row, and Escape gives the keys back to the list.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DEMO_IDS } from "../../demo/generate-demo.js";
import { readSession, row, treeListFocused } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { answerInputBox, expectVisible, runCommand, screenshot } from "../util/workbench.js";

const { demo, step, page, openAgentTree } = demoWorkbenchSuite({ name: "tree-keyboard" });

/** The open context menu's item labels. */
function menuItems(): Promise<string[]> {
  return page()
    .locator(".monaco-menu .action-item .action-label")
    .evaluateAll((els) => els.map((e) => (e.textContent ?? "").trim()).filter((t) => t !== ""));
}

describe("the Session Tree by keyboard (code-server)", { timeout: 10 * 60_000 }, () => {
  it(
    "Shift+F10 opens the selected row's menu, its item labels that row, and the context-menu key shows Remove Label",
    step("row-menu", async () => {
      const t = await openAgentTree(520);
      await runCommand(page(), "Focus on Session Tree View");
      await treeListFocused(t, "after Focus on Session Tree View");

      // The first row (the user's first message, no label) selected, then its menu from the keyboard.
      await page().keyboard.press("Home");
      await expectVisible(row(t, DEMO_IDS.askFlag).and(t.locator(".selected")), "the first row selected by Home");
      await page().keyboard.press("Shift+F10");
      await expectVisible(page().locator(".monaco-menu .action-label", { hasText: "Label Entry…" }), "the row menu");
      const items = await menuItems();
      assert.ok(!items.includes("Cut"), `the row's menu, not the text menu: ${items.join(", ")}`);
      assert.ok(!items.includes("Remove Label"), "the first row has no label to remove");
      await screenshot(page(), "tree-keyboard-01-row-menu");
      // The menu has the keys (its first item, Label Entry…, is the first ArrowDown's).
      await page().keyboard.press("ArrowDown");
      await page().keyboard.press("Enter");
      await answerInputBox(page(), "by keyboard");
      await treeListFocused(t, "after the label's input box closed");
      await expectVisible(
        row(t, DEMO_IDS.askFlag).locator(".label-tag", { hasText: "by keyboard" }),
        "the label on the selected row",
      );
      const label = readSession(demo().sessionFile).find((l) => l.type === "label" && l.label === "by keyboard");
      assert.equal(label?.targetId, DEMO_IDS.askFlag, "the menu's item acted on the selected row");

      // The context-menu key: the same row's menu, which now offers Remove Label; Escape gives the list the keys.
      await page().keyboard.press("ContextMenu");
      await expectVisible(page().locator(".monaco-menu .action-label", { hasText: "Remove Label" }), "Remove Label");
      await page().keyboard.press("Escape");
      await treeListFocused(t, "after Escape closed the row menu");
      await page().keyboard.press("ArrowDown");
      await expectVisible(
        t.locator(".tree-row.selected").and(row(t, DEMO_IDS.readResult)),
        "the next row by ArrowDown",
      );
    }),
  );
});
