/**
 * Keyboard focus is visible everywhere Tab goes, in the theme's `--vscode-focusBorder` (Chromium's own focus ring
 * ignores the theme): every stop of the chat, and the tree's list when no selected row is drawn to carry it.
 * The toolkit's controls draw their own ring inside their shadow roots and are left to it.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Page } from "playwright-core";
import { settle, webviewRig, withPage } from "./harness.js";
import { chatSnapshot, GPT, openChatView, toolTurn } from "./chat-fixtures.js";
import { treeRow, treeSnapshot } from "./tree-fixtures.js";

const rig = webviewRig();

/** A focus colour no default style has, so a match can only come from the variable. */
const FOCUS = "rgb(255, 0, 170)";

async function setFocusBorder(page: Page): Promise<void> {
  await page.evaluate(() => document.documentElement.style.setProperty("--vscode-focusBorder", "#ff00aa"));
}

/** The focused element as Tab left it: its tag, name, and how its focus is drawn. */
interface Stop {
  tag: string;
  name: string;
  outline: string;
  border: string;
}

async function focused(page: Page): Promise<Stop> {
  return page.evaluate(() => {
    const a = document.activeElement as HTMLElement | null;
    if (a === null) return { tag: "", name: "", outline: "", border: "" };
    const s = getComputedStyle(a);
    return {
      tag: a.tagName,
      name: a.getAttribute("aria-label") ?? (a.textContent ?? "").trim().slice(0, 40),
      outline: s.outlineStyle === "none" ? "none" : `${s.outlineStyle} ${s.outlineColor}`,
      border: s.borderColor,
    };
  });
}

test("every stop Tab reaches in the chat shows the focus in --vscode-focusBorder", () =>
  withPage(openChatView(rig, chatSnapshot(toolTurn("Answer"), { model: GPT })), async (vp) => {
    await setFocusBorder(vp.page);
    await vp.page.focus("textarea");
    const stops: Stop[] = [];
    for (let i = 0; i < 30; i++) {
      await vp.page.keyboard.press("Tab");
      await settle(vp.page);
      const s = await focused(vp.page);
      if (s.tag === "TEXTAREA") break;
      stops.push(s);
    }
    const own = stops.filter((s) => !s.tag.startsWith("VSCODE-") && s.tag !== "BODY");
    assert.ok(
      own.some((s) => s.name === "Conversation") && own.some((s) => s.tag === "SUMMARY"),
      `the list and a tool call's summary line are stops: ${JSON.stringify(stops)}`,
    );
    for (const s of own) assert.equal(s.outline, `solid ${FOCUS}`, `${s.tag} "${s.name}"`);
    // The message box draws its focus as its border.
    await vp.page.focus("textarea");
    assert.equal((await focused(vp.page)).border, FOCUS);
  }));

test("the tree's list shows the focus around itself when no selected row is drawn, else on the row only", () =>
  withPage(rig.openView({ view: "tree" }), async (vp) => {
    await setFocusBorder(vp.page);
    await vp.send(treeSnapshot([], null));
    await vp.page.focus('[role="tree"]');
    assert.equal((await focused(vp.page)).outline, `solid ${FOCUS}`, "an empty tree, focused");
    await vp.send(treeSnapshot([treeRow("u1", null, "user"), treeRow("a1", "u1", "assistant")], "a1"));
    await settle(vp.page);
    assert.equal((await focused(vp.page)).outline, "none", "the selected row carries it");
    const row = await vp.page.$eval(".tree-row.selected", (e) => getComputedStyle(e).outlineStyle);
    assert.equal(row, "solid");
  }));
