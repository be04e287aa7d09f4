/**
 * The chat showing a watched parallel branch, in real Chromium against a fake host: the banner names the branch
 * ("Branch 2 of 3 is running — read-only until it finishes"), the input is disabled and offers no Abort, Stop
 * Branch and Back to my branch post their actions, Escape goes back (it never aborts the main run); once the branch
 * ended the banner says so and offers the switch; without a watched branch the chat is as before.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { settle, webviewRig, type ViewPage } from "./harness.js";
import { msg } from "./chat-fixtures.js";

const rig = webviewRig();

const usage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 };
const BOX = 'textarea[aria-label="Message"]';
const BANNER = ".watch-banner";

/** A chat that watches branch b1 while it streams. */
async function watching(): Promise<ViewPage> {
  const vp = await rig.openView({ view: "chat" });
  // The main branch's queued message: not the watched branch's.
  await vp.send({ type: "chat/queue", items: [{ id: "q1", kind: "followUp", text: "later please" }] });
  await vp.send({
    type: "chat/watch",
    branch: { branchId: "b1", label: "Branch 2 of 3", state: "running" },
  });
  const snapshot: HostToWebview = {
    type: "chat/snapshot",
    start: 0,
    keep: false,
    messages: [msg("u1", "user", "start"), msg("b1", "user", "EXPLORE: try it")],
    streaming: true,
    usage,
  };
  await vp.send(snapshot);
  await vp.send({ type: "chat/message", message: msg("pending-1", "assistant", "Streaming words so far") });
  return vp;
}

const actions = async (vp: ViewPage) =>
  (await vp.posted()).filter((m) => m.type === "chat/watchAction" || m.type === "chat/abort");

test("a running branch: the banner names it, the input is disabled, Stop Branch and Back post their actions", async () => {
  const vp = await watching();
  try {
    const banner = vp.page.locator(BANNER);
    assert.equal(
      (await banner.locator(".watch-text").innerText()).trim(),
      "Branch 2 of 3 is running — read-only until it finishes",
    );
    assert.match(await vp.page.locator(".msg").last().innerText(), /Streaming words so far/);
    assert.equal(await vp.page.locator(BOX).isDisabled(), true, "the input is read-only");
    assert.equal(await vp.page.locator('[aria-label="Abort"]').count(), 0, "no Abort: it would stop the main run");
    assert.equal(await vp.page.locator(".chat-queue").count(), 0, "the main branch's queue is not shown");
    await banner.getByText("Stop Branch").click();
    await banner.getByText("Back to my branch").click();
    await settle(vp.page);
    assert.deepEqual(await actions(vp), [
      { type: "chat/watchAction", action: "stop" },
      { type: "chat/watchAction", action: "back" },
    ]);
  } finally {
    await vp.close();
  }
});

test("Escape goes back to the main branch and never aborts its run", async () => {
  const vp = await watching();
  try {
    await vp.page.locator(".chat-list, .app").first().click();
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);
    assert.deepEqual(await actions(vp), [{ type: "chat/watchAction", action: "back" }]);
  } finally {
    await vp.close();
  }
});

test("an ended branch: the banner says how and offers the switch; back on the main branch the input works", async () => {
  const vp = await watching();
  try {
    await vp.send({
      type: "chat/watch",
      branch: { branchId: "b1", label: "Branch 2 of 3", state: "failed", error: "rate limited" },
    });
    const banner = vp.page.locator(BANNER);
    assert.equal((await banner.locator(".watch-text").innerText()).trim(), "Branch 2 of 3 failed: rate limited");
    assert.equal(await banner.getByText("Stop Branch").count(), 0);
    assert.equal(await vp.page.locator(BOX).isDisabled(), true, "still read-only until the user picks");
    await banner.getByText("Switch to This Branch").click();
    await settle(vp.page);
    assert.deepEqual(await actions(vp), [{ type: "chat/watchAction", action: "switch" }]);

    await vp.send({ type: "chat/watch" });
    await vp.send({
      type: "chat/snapshot",
      start: 0,
      keep: false,
      messages: [msg("u1", "user", "start")],
      streaming: false,
      usage,
      model: { key: "fake/m", name: "M", provider: "fake", contextWindow: 1000 },
    });
    assert.equal(await banner.count(), 0, "no banner on the main branch");
    assert.equal(await vp.page.locator(BOX).isEnabled(), true);
    assert.equal(await vp.page.locator(".chat-queue li").count(), 1, "the main branch's queue again");
  } finally {
    await vp.close();
  }
});
