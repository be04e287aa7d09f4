/**
 * The chat holds a window of the path and pages older messages in, in real Chromium: scrolling up to the
 * first message held asks the host for the page before it (once), the page appears above without moving what
 * the user reads, and at the root it stops asking; a move's snapshot keeps what it did not change; a page that
 * answers an older state is ignored.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatMessageDto, WebviewToHost } from "../../src/shared/protocol.js";
import { chatSnapshot, longPath, msg, type ChatSnapshot } from "./chat-fixtures.js";
import { listState, setScrollTop, stable, topOf } from "./chat-list-probe.js";
import { webviewRig, withPage, type ViewPage } from "./harness.js";

const rig = webviewRig();

const PATH = longPath(400);
/** The host's first window: the newest 60 messages. */
const WINDOW_START = 340;

type PageRequest = Extract<WebviewToHost, { type: "chat/requestOlder" }>;

const snapshot = (start: number, messages: ChatMessageDto[], keep = false): ChatSnapshot =>
  chatSnapshot(messages, { start, keep });

async function openWindow(): Promise<ViewPage> {
  const vp = await rig.openView({ view: "chat", height: 600 });
  await vp.send(snapshot(WINDOW_START, PATH.slice(WINDOW_START)));
  await stable(vp);
  return vp;
}

async function pageRequests(vp: ViewPage): Promise<PageRequest[]> {
  return (await vp.posted()).filter((m): m is PageRequest => m.type === "chat/requestOlder");
}

/** Scrolls to the top of what is held and waits until the list is still. */
async function toTop(vp: ViewPage): Promise<void> {
  await setScrollTop(vp, 0);
  await stable(vp);
}

/** Ids of the messages in the DOM, top to bottom. */
async function mountedIds(vp: ViewPage): Promise<string[]> {
  return (await vp.page.evaluate(
    `[...document.querySelectorAll('.chat-messages [data-message-id]')].map((m) => m.getAttribute('data-message-id'))`,
  )) as string[];
}

test("scrolling up pages older messages in, above what the user reads, until the root", () =>
  withPage(openWindow(), async (vp) => {
    assert.deepEqual(await pageRequests(vp), [], "at the bottom of a full window nothing is asked for");
    let start = WINDOW_START;
    let pages = 0;
    while (start > 0) {
      await vp.clearPosted();
      await toTop(vp);
      // Scrolling about while the page is on its way asks only once.
      await setScrollTop(vp, 40);
      await toTop(vp);
      const requests = await pageRequests(vp);
      assert.equal(requests.length, 1, `one request before m${start}: ${JSON.stringify(requests)}`);
      const [request] = requests;
      assert.deepEqual([request.before, request.beforeId], [start, `m${start}`]);
      assert.ok(await vp.page.locator(".chat-older").isVisible(), "the list says more is coming");

      const held = await listState(vp);
      assert.ok(held.firstId !== null);
      const pageStart = Math.max(0, start - 60);
      await vp.send({
        type: "chat/older",
        requestId: request.requestId,
        start: pageStart,
        messages: PATH.slice(pageStart, start),
      });
      await stable(vp);
      const top = await topOf(vp, held.firstId);
      assert.ok(top !== null && Math.abs(top - held.firstTop) <= 1, `${held.firstId} moved to ${top}`);
      start = pageStart;
      pages++;
    }
    assert.equal(pages, Math.ceil(WINDOW_START / 60));
    await vp.clearPosted();
    await toTop(vp);
    assert.deepEqual(await pageRequests(vp), [], "nothing before the root");
    assert.equal(await vp.page.locator(".chat-older").count(), 0);
    assert.equal((await mountedIds(vp))[0], "m0");
    assert.deepEqual((await vp.problems()).errors, []);
  }));

test("a move keeps what it did not change; a page for the state before it is ignored", () =>
  withPage(openWindow(), async (vp) => {
    await toTop(vp);
    const [stale] = await pageRequests(vp);
    assert.ok(stale, "a request before the move");
    // The move: the path is the same up to m389, then a new branch of two messages.
    const branch = [msg("b1", "user", "another way"), msg("b2", "assistant", "Then like this.")];
    await vp.clearPosted();
    await vp.send(snapshot(390, branch, true));
    await stable(vp);
    // The answer to the request made before the move comes late: it no longer fits what is held.
    await vp.send({ type: "chat/older", requestId: stale.requestId, start: 280, messages: PATH.slice(280, 340) });
    await stable(vp);
    assert.equal(await vp.page.locator('[data-message-id="m339"]').count(), 0, "the stale page was dropped");
    // Still at the top of what is held: the list asks again, against the new state.
    await toTop(vp);
    const [again] = await pageRequests(vp);
    assert.ok(again && again.requestId !== stale.requestId);
    assert.deepEqual([again.before, again.beforeId], [WINDOW_START, `m${WINDOW_START}`]);

    // The end of the chat: the kept messages, then the new branch.
    await vp.page.focus(".chat-messages");
    await vp.page.keyboard.press("End");
    await stable(vp);
    assert.deepEqual((await mountedIds(vp)).slice(-3), ["m389", "b1", "b2"]);
    assert.ok((await listState(vp)).fromBottom < 2);

    // A snapshot without `keep` (another conversation) replaces everything.
    await vp.send(snapshot(0, [msg("n1", "user", "fresh start")]));
    await stable(vp);
    assert.deepEqual(await mountedIds(vp), ["n1"]);
  }));
