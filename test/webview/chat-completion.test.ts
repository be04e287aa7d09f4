/**
 * The chat input's completion list in real Chromium against a fake host: `@` files and folders, `/` commands
 * and templates, keyboard (arrows, Enter/Tab, Escape) and mouse, combobox/listbox ARIA, mentions sent with
 * the message, mentions added by the host (Add Selection to Chat), and files dropped onto the input.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { Locator } from "playwright-core";
import type { CompletionItemDto, WebviewToHost } from "../../src/shared/protocol.js";
import { chatSnapshot, openChatView } from "./chat-fixtures.js";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";

const rig = webviewRig();
const MODEL = { key: "fake/m", name: "Fake", provider: "fake", contextWindow: 200000 };
const ROOT = "/work/ws";

const openChat = (streaming = false): Promise<ViewPage> =>
  openChatView(rig, chatSnapshot([], { streaming, model: MODEL }));

type Complete = Extract<WebviewToHost, { type: "chat/complete" }>;

/** The last completion request the view posted. */
async function lastRequest(vp: ViewPage): Promise<Complete> {
  const reqs = (await vp.posted()).filter((m): m is Complete => m.type === "chat/complete");
  assert.ok(reqs.length > 0, "a completion request was posted");
  return reqs[reqs.length - 1];
}

/** Click into the message box and type `text` key by key, as a user does (so completions trigger); the box. */
async function typeInBox(vp: ViewPage, text: string): Promise<Locator> {
  const box = vp.page.locator("textarea");
  await box.click();
  await box.pressSequentially(text);
  return box;
}

/** The message the view sent, if it sent one. */
async function submitted(vp: ViewPage): Promise<WebviewToHost | undefined> {
  return (await vp.posted()).find((m) => m.type === "chat/submit");
}

async function answer(vp: ViewPage, items: CompletionItemDto[]): Promise<void> {
  const req = await lastRequest(vp);
  await vp.send({ type: "chat/completions", requestId: req.requestId, items });
  await settle(vp.page);
}

const FILES: CompletionItemDto[] = [
  { kind: "file", value: "src/main.ts", root: ROOT, recent: true },
  { kind: "folder", value: "src/", root: ROOT },
  { kind: "file", value: "README.md", root: ROOT },
];

/** Type `typed` (an `@` mention being written) and answer the view's completion request with FILES; the box. */
async function listFiles(vp: ViewPage, typed: string): Promise<Locator> {
  const box = await typeInBox(vp, typed);
  await answer(vp, FILES);
  return box;
}

test("@ opens the file list; arrows and Enter pick; the mention is sent with the message", () =>
  withPage(openChat(), async (vp) => {
    const box = await typeInBox(vp, "look at @ma");
    const req = await lastRequest(vp);
    assert.deepEqual({ trigger: req.trigger, query: req.query }, { trigger: "@", query: "ma" });
    assert.equal(await box.getAttribute("aria-expanded"), "false", "closed until the host answers");
    await answer(vp, FILES);
    assert.equal(await box.getAttribute("role"), "combobox");
    assert.equal(await box.getAttribute("aria-expanded"), "true");
    const list = vp.page.locator('[role="listbox"]');
    assert.equal(await box.getAttribute("aria-controls"), await list.getAttribute("id"));
    const options = list.locator('[role="option"]');
    assert.equal(await options.count(), 3);
    assert.match((await options.nth(0).textContent()) ?? "", /@src\/main\.ts.*recently opened/);
    assert.equal(await box.getAttribute("aria-activedescendant"), await options.nth(0).getAttribute("id"));
    await box.press("ArrowDown");
    await box.press("ArrowDown");
    assert.equal(await options.nth(2).getAttribute("aria-selected"), "true");
    assert.equal(await box.getAttribute("aria-activedescendant"), await options.nth(2).getAttribute("id"));
    await box.press("ArrowDown"); // wraps
    assert.equal(await options.nth(0).getAttribute("aria-selected"), "true");
    await vp.clearPosted();
    await box.press("Enter");
    assert.equal(await box.inputValue(), "look at @src/main.ts ");
    assert.equal(await list.count(), 0, "picking closes the list");
    assert.deepEqual(await vp.posted(), [], "Enter picked; it did not send");
    await box.pressSequentially("please");
    await box.press("Enter");
    assert.deepEqual(await submitted(vp), {
      type: "chat/submit",
      text: "look at @src/main.ts please",
      mentions: [{ label: "@src/main.ts", path: "src/main.ts", root: ROOT }],
    });
    assert.equal(await box.inputValue(), "");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("Tab picks a folder and keeps listing inside it; a deleted mention is not sent", () =>
  withPage(openChat(), async (vp) => {
    const box = await listFiles(vp, "@sr");
    await box.press("ArrowDown");
    await box.press("Tab");
    assert.equal(await box.inputValue(), "@src/");
    const req = await lastRequest(vp);
    assert.deepEqual({ trigger: req.trigger, query: req.query }, { trigger: "@", query: "src/" });
    await answer(vp, [{ kind: "file", value: "src/main.ts", root: ROOT }]);
    await box.press("Tab");
    assert.equal(await box.inputValue(), "@src/main.ts ");
    await box.press("Control+a");
    await box.pressSequentially("never mind");
    await box.press("Enter");
    assert.deepEqual(await submitted(vp), { type: "chat/submit", text: "never mind" }, "no mentions left in the text");
  }));

test("/ lists commands and templates; the mouse picks; Escape closes without aborting", () =>
  withPage(openChat(true), async (vp) => {
    const box = await typeInBox(vp, "/re");
    const req = await lastRequest(vp);
    assert.deepEqual({ trigger: req.trigger, query: req.query }, { trigger: "/", query: "re" });
    await answer(vp, [
      { kind: "command", value: "new", detail: "Start a new session" },
      { kind: "template", value: "review", detail: "Review staged git changes", hint: "[focus]" },
    ]);
    const options = vp.page.locator('[role="option"]');
    assert.match((await options.nth(1).textContent()) ?? "", /\/review\s*\[focus\]\s*Review staged git changes/);
    await vp.clearPosted();
    await box.press("Escape");
    assert.equal(await vp.page.locator('[role="listbox"]').count(), 0);
    assert.ok(!(await vp.posted()).some((m) => m.type === "chat/abort"), "Escape closed the list only");
    await box.press("Escape");
    assert.ok(
      (await vp.posted()).some((m) => m.type === "chat/abort"),
      "a second Escape aborts as before",
    );
    // Typing on reopens it; a click picks.
    await box.pressSequentially("v");
    await answer(vp, [{ kind: "template", value: "review", detail: "Review staged git changes", hint: "[focus]" }]);
    await options.nth(0).click();
    assert.equal(await box.inputValue(), "/review ");
    assert.equal(await box.evaluate((el) => el === document.activeElement), true, "focus stays in the input");
  }));

test("a mention added by the host (Add Selection to Chat) goes into the input and is sent", () =>
  withPage(openChat(), async (vp) => {
    const box = await typeInBox(vp, "explain");
    const mention = { label: "@src/a.ts#3-4", path: "src/a.ts", root: ROOT, text: "x\ny", startLine: 3, endLine: 4 };
    await vp.send({ type: "chat/addMention", mention });
    await settle(vp.page);
    assert.equal(await box.inputValue(), "explain @src/a.ts#3-4 ");
    await box.press("Enter");
    assert.deepEqual(await submitted(vp), { type: "chat/submit", text: "explain @src/a.ts#3-4 ", mentions: [mention] });
  }));

test("files dropped onto the input are sent to the host as URIs", () =>
  withPage(openChat(), async (vp) => {
    await vp.page.evaluate(() => {
      const box = document.querySelector("textarea");
      const data = new DataTransfer();
      data.setData("text/uri-list", "file:///work/ws/a.ts\r\n# comment\r\nfile:///work/ws/b/");
      box?.dispatchEvent(new DragEvent("dragover", { dataTransfer: data, bubbles: true, cancelable: true }));
      box?.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    const drop = (await vp.posted()).find((m) => m.type === "chat/dropFiles");
    assert.deepEqual(drop, { type: "chat/dropFiles", uris: ["file:///work/ws/a.ts", "file:///work/ws/b/"] });
  }));

test("text the host gives back after a failed send keeps its mentions", () =>
  withPage(openChat(), async (vp) => {
    const box = await listFiles(vp, "@ma");
    await box.press("Enter");
    await box.pressSequentially("now");
    await box.press("Enter");
    await vp.clearPosted();
    // The host could not attach (say the file became binary): it puts the text back.
    await vp.send({ type: "chat/setInput", text: "@src/main.ts now" });
    await settle(vp.page);
    await box.press("Enter");
    assert.deepEqual(await submitted(vp), {
      type: "chat/submit",
      text: "@src/main.ts now",
      mentions: [{ label: "@src/main.ts", path: "src/main.ts", root: ROOT }],
    });
  }));
