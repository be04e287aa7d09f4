/**
 * The windowed chat list in real Chromium: a 3,000-message path mounts a bounded number of rows, opens
 * at its end, reaches its first message by keyboard, follows streamed text at the bottom, and keeps what
 * the user reads in place when they scrolled up and content above, at or below them changes.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { webviewRig, withPage, type ViewPage } from "./harness.js";
import { chatSnapshot, GPT, longPath, msg, openChatView } from "./chat-fixtures.js";
import { inView, listState, setScrollTop, stable, topOf } from "./chat-list-probe.js";

const rig = webviewRig();

async function openLong(n: number, streaming: boolean): Promise<ViewPage> {
  const vp = await openChatView(rig, chatSnapshot(longPath(n), { streaming, model: GPT }), { height: 600 });
  await stable(vp);
  return vp;
}

const N = 3000;
/** Far below N: the window is a few screens of rows whatever the path length. */
const MOUNT_BOUND = 80;

test("3,000 messages: a bounded number of rows is mounted, the list keeps its semantics, it opens at the end", () =>
  withPage(openLong(N, false), async (vp) => {
    const s = await listState(vp);
    assert.ok(s.mounted > 0 && s.mounted <= MOUNT_BOUND, `mounted ${s.mounted} of ${N}`);
    assert.ok(s.markdown <= MOUNT_BOUND, `parsed markdown blocks in the DOM: ${s.markdown}`);
    assert.ok(s.fromBottom < 2, `at the bottom (${s.fromBottom}px away)`);
    assert.ok(await inView(vp, `m${N - 1}`), "the last message is in view");
    const log = vp.page.locator('.chat-messages[role="region"][aria-label="Conversation"]');
    assert.equal(await log.count(), 1);
    assert.equal(await log.getAttribute("aria-busy"), "false");
    assert.equal(await log.getAttribute("aria-live"), null, "the windowed list is no live region");
    assert.equal(
      await log.locator(`[role="list"] > [role="listitem"] [data-message-id="m${N - 1}"]`).count(),
      1,
      "rows are listitems of the list inside the region",
    );
    assert.equal(await vp.page.locator(".chat-gap").first().getAttribute("aria-hidden"), "true");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("keyboard: Home from a focused tool call reaches the first message, End the last; the list keeps focus", () =>
  withPage(openLong(N, false), async (vp) => {
    const summary = vp.page.locator(`[data-message-id="m${N - 3}"] details.tool-call summary`);
    await summary.focus();
    await vp.page.keyboard.press("Home");
    let s = await stable(vp);
    for (let i = 0; i < 20 && !(await inView(vp, "m0")); i++) s = await stable(vp);
    assert.ok(await inView(vp, "m0"), `the first message is in view (${JSON.stringify(s)})`);
    assert.equal(s.scrollTop, 0);
    assert.equal(s.firstId, "m0");
    assert.ok(s.mounted <= MOUNT_BOUND, `mounted ${s.mounted}`);
    assert.equal(
      await vp.page.evaluate(`document.activeElement?.closest('.chat-messages[aria-label="Conversation"]') != null`),
      true,
      "focus stayed in the list when the focused tool call left the window",
    );
    await vp.page.keyboard.press("End");
    for (let i = 0; i < 20 && !(await inView(vp, `m${N - 1}`)); i++) await stable(vp);
    s = await stable(vp);
    assert.ok(await inView(vp, `m${N - 1}`), "End shows the last message again");
    assert.ok(s.fromBottom < 2);
    assert.deepEqual((await vp.problems()).errors, []);
  }));

test("scrolling up step by step moves the content exactly as far as scrolled (no jumps when rows mount)", () =>
  withPage(openLong(N, false), async (vp) => {
    for (let step = 0; step < 12; step++) {
      const before = await stable(vp);
      assert.ok(before.firstId !== null);
      const id = before.firstId;
      await setScrollTop(vp, before.scrollTop - 250);
      await stable(vp);
      const top = await topOf(vp, id);
      assert.ok(top !== null, `m${id} still mounted`);
      assert.ok(Math.abs(top - (before.firstTop + 250)) <= 1, `step ${step}: ${id} moved ${top - before.firstTop}px`);
    }
    // A jump to the very top (the scrollbar dragged) shows the first message.
    await setScrollTop(vp, 0);
    const s = await stable(vp);
    assert.equal(s.firstId, "m0");
    assert.ok(s.mounted <= MOUNT_BOUND);
  }));

test("streamed text keeps the view at the bottom while the user is there", () =>
  withPage(openLong(N, true), async (vp) => {
    await vp.send({ type: "chat/message", message: msg(`m${N}`, "user", "go on") });
    let text = "Streaming";
    for (let i = 0; i < 8; i++) {
      text += `\n\nparagraph ${i} ${"word ".repeat(40)}`;
      await vp.send({ type: "chat/message", message: msg("tmp", "assistant", text) });
      const s = await stable(vp);
      assert.ok(s.fromBottom < 2, `chunk ${i}: ${s.fromBottom}px from the bottom`);
      assert.ok(await inView(vp, "tmp"));
    }
    await vp.send({ type: "chat/message", message: msg("e1", "assistant", `${text}\n\ndone`), replaces: "tmp" });
    const s = await stable(vp);
    assert.ok(s.fromBottom < 2);
    assert.match((await vp.page.textContent('[data-message-id="e1"] .markdown')) ?? "", /done/);
    assert.ok(s.mounted <= MOUNT_BOUND);
  }));

test("scrolled up: streamed text, new messages and a message changing above do not move the view", () =>
  withPage(openLong(N, true), async (vp) => {
    await vp.send({ type: "chat/message", message: msg("tmp", "assistant", "Streaming") });
    await stable(vp);
    const start = await listState(vp);
    await setScrollTop(vp, start.scrollTop - 3000);
    const held = await stable(vp);
    assert.ok(held.fromBottom > 1000 && held.firstId !== null);
    const id = held.firstId;
    let text = "Streaming";
    for (let i = 0; i < 6; i++) {
      text += `\n\nparagraph ${i} ${"word ".repeat(40)}`;
      await vp.send({ type: "chat/message", message: msg("tmp", "assistant", text) });
    }
    await vp.send({ type: "chat/message", message: msg("e1", "assistant", text), replaces: "tmp" });
    await vp.send({ type: "chat/message", message: msg("x1", "user", "another one") });
    let s = await stable(vp);
    assert.equal(s.firstId, id, "the same message is first in view");
    assert.ok(Math.abs(s.firstTop - held.firstTop) <= 1, `moved ${s.firstTop - held.firstTop}px`);

    // A mounted message above the viewport grows (re-sent with more text): what is in view stays put.
    const above = (await vp.page.evaluate(`(() => {
      const b = document.querySelector('.chat-messages').getBoundingClientRect();
      const rows = [...document.querySelectorAll('.msg-assistant[data-message-id]')].filter((m) => m.getBoundingClientRect().bottom < b.top);
      return rows.length > 0 ? rows[rows.length - 1].getAttribute('data-message-id') : null;
    })()`)) as string | null;
    assert.ok(above !== null, "a mounted assistant message above the viewport");
    await vp.send({ type: "chat/message", message: msg(above, "assistant", "Grown\n\n".repeat(40)) });
    s = await stable(vp);
    assert.equal(s.firstId, id);
    assert.ok(Math.abs(s.firstTop - held.firstTop) <= 1, `moved ${s.firstTop - held.firstTop}px after growth above`);

    // Sending follows the bottom again.
    await vp.page.fill('textarea[aria-label="Message"]', "next");
    await vp.send({ type: "chat/streaming", streaming: false });
    await vp.page.keyboard.press("Enter");
    await vp.send({ type: "chat/message", message: msg("u9", "user", "next") });
    s = await stable(vp);
    assert.ok(s.fromBottom < 2, `back at the bottom after sending (${s.fromBottom}px away)`);
  }));

test("opening a tool call at the bottom keeps its summary in place; it is still open after a round trip", () =>
  withPage(openLong(N, false), async (vp) => {
    const summary = `[data-message-id="m${N - 3}"] details.tool-call summary`;
    const before = (await vp.page.locator(summary).boundingBox())?.y;
    await vp.page.click(summary);
    await stable(vp);
    const afterOpen = (await vp.page.locator(summary).boundingBox())?.y;
    assert.ok(before !== undefined && afterOpen !== undefined);
    assert.ok(Math.abs(afterOpen - before) <= 1, `summary moved ${afterOpen - before}px`);
    assert.equal(await vp.page.locator(`[data-message-id="m${N - 3}"] details.tool-call`).getAttribute("open"), "");
    // Scrolled out of the window (unmounted) and back: still open.
    await setScrollTop(vp, 0);
    await stable(vp);
    assert.equal(await vp.page.locator(`[data-message-id="m${N - 3}"]`).count(), 0, "unmounted far from view");
    await vp.page.focus(".chat-messages");
    await vp.page.keyboard.press("End");
    await stable(vp);
    assert.equal(await vp.page.locator(`[data-message-id="m${N - 3}"] details.tool-call`).getAttribute("open"), "");
    assert.ok((await listState(vp)).fromBottom < 2, "End follows the bottom");
  }));
