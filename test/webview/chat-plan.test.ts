/**
 * Plan mode in the chat, in real Chromium against a fake host: the badge above the input while the snapshot says plan
 * mode is on (its button leaves it), Approve Plan and Keep Planning under the plan the snapshot names (`planId`) and
 * only there, Approve Plan posting the command, Keep Planning hiding the buttons and focusing the input.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { settle, webviewRig, withPage } from "./harness.js";
import { chatSnapshot, CLAUDE, msg, openChatView } from "./chat-fixtures.js";

const rig = webviewRig();

const PLAN = [msg("u1", "user", "plan the cache"), msg("a1", "assistant", "1. Add an LRU. 2. Test it.")];

test("the badge, Approve Plan under the plan, Leave Plan Mode", () =>
  withPage(openChatView(rig, chatSnapshot(PLAN, { model: CLAUDE, planMode: true, planId: "a1" })), async (vp) => {
    await settle(vp.page);
    assert.equal(await vp.page.locator(".chat-plan-mode").count(), 1, "the badge");
    const approve = vp.page.getByRole("button", { name: "Approve Plan" });
    assert.equal(await approve.count(), 1);
    // Under the plan: after its message in the page.
    const after = await vp.page.evaluate(() => {
      const plan = [...document.querySelectorAll(".chat-plan-actions")][0];
      const msgs = [...document.querySelectorAll("[data-message-id]")];
      const last = msgs.at(-1);
      return plan && last ? last.compareDocumentPosition(plan) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    assert.ok(after !== 0, "the buttons follow the plan");
    await vp.clearPosted();
    await approve.click();
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "command", command: "approvePlan" }]);
    assert.equal(await approve.count(), 0, "clicked once: gone");
    await vp.clearPosted();
    await vp.page.getByRole("button", { name: "Leave Plan Mode" }).click();
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "command", command: "togglePlanMode" }]);
  }));

test("no buttons without a plan: plan mode on before the answer, or off; Keep Planning focuses the input", () =>
  withPage(openChatView(rig, chatSnapshot(PLAN, { model: CLAUDE, planMode: true })), async (vp) => {
    await settle(vp.page);
    assert.equal(await vp.page.locator(".chat-plan-mode").count(), 1);
    assert.equal(await vp.page.locator(".chat-plan-actions").count(), 0, "an answer from before plan mode is no plan");
    await vp.send(chatSnapshot(PLAN, { model: CLAUDE }));
    await settle(vp.page);
    assert.equal(await vp.page.locator(".chat-plan-mode").count(), 0, "off: no badge");
    await vp.send(chatSnapshot(PLAN, { model: CLAUDE, planMode: true, planId: "a1" }));
    await settle(vp.page);
    await vp.page.getByRole("button", { name: "Keep Planning" }).click();
    await settle(vp.page);
    assert.equal(await vp.page.locator(".chat-plan-actions").count(), 0);
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
    assert.equal(await vp.page.locator(".chat-plan-mode").count(), 1, "still in plan mode");
  }));
