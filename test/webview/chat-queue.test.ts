/**
 * The chat while the agent works, in real Chromium against a fake host: Enter queues a follow-up and Alt+Enter
 * steers, the queue above the input is edited and emptied by keyboard and buttons, undelivered text comes back
 * into the input, the thinking level picker, edit approvals (Accept, Reject, Accept All in This Run) and the
 * run's changed files.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatMessageDto } from "../../src/shared/protocol.js";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { chatSnapshot, CLAUDE, msg, openChatView } from "./chat-fixtures.js";

const rig = webviewRig();

const openChat = (messages: ChatMessageDto[] = [], streaming = false): Promise<ViewPage> =>
  openChatView(rig, chatSnapshot(messages, { streaming, model: CLAUDE }));

const BOX = 'textarea[aria-label="Message"]';

test("while the agent works, Enter queues a follow-up and Alt+Enter steers; the input stays usable", () =>
  withPage(openChat([msg("u1", "user", "first")], true), async (vp) => {
    const box = vp.page.locator(BOX);
    assert.equal(await box.isEnabled(), true);
    assert.match((await box.getAttribute("placeholder")) ?? "", /Enter queues a follow-up, Alt\+Enter steers/);
    await box.click();
    await vp.page.keyboard.type("then run the tests");
    await vp.page.keyboard.press("Enter");
    await vp.page.keyboard.type("use tabs");
    await vp.page.keyboard.press("Alt+Enter");
    await vp.page.keyboard.type("via button");
    await vp.page.click('[aria-label="Queue"]');
    await settle(vp.page);
    assert.deepEqual(
      (await vp.posted()).filter((m) => m.type !== "ready"),
      [
        { type: "chat/queue", kind: "followUp", text: "then run the tests" },
        { type: "chat/queue", kind: "steer", text: "use tabs" },
        { type: "chat/queue", kind: "followUp", text: "via button" },
      ],
    );
    assert.equal(await box.inputValue(), "");
    assert.equal(
      (await vp.posted()).filter((m) => m.type === "chat/submit").length,
      0,
      "nothing is submitted while streaming",
    );
  }));

test("the queue lists each message with its kind; edit by keyboard (Enter saves, Escape cancels) and remove", () =>
  withPage(openChat([], true), async (vp) => {
    await vp.send({
      type: "chat/queue",
      items: [
        { id: "q1", kind: "followUp", text: "later please" },
        { id: "q2", kind: "steer", text: "now please" },
      ],
    });
    const rows = vp.page.locator(".chat-queue li");
    assert.equal(await rows.count(), 2);
    assert.deepEqual(await vp.page.locator(".chat-queue .queued-kind").allTextContents(), ["Follow-up", "Steer"]);
    assert.deepEqual(await vp.page.locator(".chat-queue .queued-text").allTextContents(), [
      "later please",
      "now please",
    ]);
    await vp.clearPosted();
    // Edit: the editor takes focus; Escape cancels without aborting the run.
    await vp.page.click('vscode-button[aria-label="Edit queued message: later please"]');
    const editor = vp.page.locator('textarea[aria-label="Edit queued message"]');
    assert.equal(
      await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")),
      "Edit queued message",
    );
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);
    assert.equal(await editor.count(), 0);
    assert.deepEqual(await vp.posted(), [], "Escape in the editor neither edits nor aborts");
    await vp.page.click('vscode-button[aria-label="Edit queued message: later please"]');
    await editor.fill("later, with tests");
    await vp.page.keyboard.press("Enter");
    await vp.page.click('vscode-button[aria-label="Remove queued message: now please"]');
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [
      { type: "chat/queueEdit", id: "q1", text: "later, with tests" },
      { type: "chat/queueRemove", id: "q2" },
    ]);
    await vp.send({ type: "chat/queue", items: [] });
    assert.equal(await vp.page.locator(".chat-queue").count(), 0);
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));

test("Escape aborts the run; the queued text the host puts back goes before what the input holds", () =>
  withPage(openChat([], true), async (vp) => {
    const box = vp.page.locator(BOX);
    await box.click();
    await vp.page.keyboard.type("typed after");
    await vp.clearPosted();
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "chat/abort" }]);
    await vp.send({ type: "chat/streaming", streaming: false });
    await vp.send({ type: "chat/restoreInput", text: "queued one\n\nqueued two" });
    assert.equal(await box.inputValue(), "queued one\n\nqueued two\n\ntyped after");
    // Not streaming: Enter sends as usual.
    await box.focus();
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.deepEqual((await vp.posted()).at(-1), {
      type: "chat/submit",
      text: "queued one\n\nqueued two\n\ntyped after",
    });
  }));

test("the thinking level picker offers the model's levels and posts the choice; hidden for a model without reasoning", () =>
  withPage(openChat(), async (vp) => {
    await vp.send({
      type: "chat/models",
      models: [CLAUDE],
      current: CLAUDE.key,
      thinkingLevels: ["off", "minimal", "low", "medium", "high"],
      thinkingLevel: "low",
    });
    const picker = vp.page.locator("vscode-dropdown.thinking-picker");
    assert.equal(await picker.count(), 1);
    assert.deepEqual(await picker.locator("vscode-option").allTextContents(), [
      "Thinking: off",
      "Thinking: minimal",
      "Thinking: low",
      "Thinking: medium",
      "Thinking: high",
    ]);
    await vp.clearPosted();
    await picker.click();
    await vp.page.click('vscode-option:has-text("Thinking: high")');
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "chat/selectThinkingLevel", level: "high" }]);
    await vp.send({ type: "chat/models", models: [CLAUDE], current: CLAUDE.key, thinkingLevels: ["off"] });
    assert.equal(await picker.count(), 0);
  }));

test("an edit's approval offers Accept, Reject, Accept All in This Run and the diff; the run's changed files open theirs", () =>
  withPage(openChat([], true), async (vp) => {
    const edits = [
      { toolCallId: "e1", toolName: "write", summary: "Write src/a.ts (5 characters)", path: "src/a.ts" },
      { toolCallId: "e2", toolName: "edit", summary: "Edit src/b.ts", path: "src/b.ts" },
      { toolCallId: "e3", toolName: "edit", summary: "Edit src/c.ts", path: "src/c.ts" },
    ];
    for (const { path, ...call } of edits) await vp.send({ type: "chat/approval", ...call, edit: { path } });
    const first = vp.page.locator(".approval", { hasText: "src/a.ts" });
    assert.deepEqual(
      await first
        .locator("vscode-button")
        .allTextContents()
        .then((t) => t.map((s) => s.trim())),
      ["Accept", "Reject", "Accept All in This Run", ""],
    );
    await vp.clearPosted();
    await first.locator('vscode-button[aria-label="Open the diff of src/a.ts"]').click();
    await first.locator("vscode-button", { hasText: "Reject" }).click();
    await vp.page
      .locator(".approval", { hasText: "src/b.ts" })
      .locator("vscode-button", { hasText: "Accept All in This Run" })
      .click();
    await vp.page.locator(".approval", { hasText: "src/c.ts" }).locator("vscode-button").first().click();
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [
      { type: "chat/openDiff", toolCallId: "e1" },
      { type: "chat/approve", toolCallId: "e1", approved: false },
      { type: "chat/approve", toolCallId: "e2", approved: true, allInRun: true },
      { type: "chat/approve", toolCallId: "e3", approved: true },
    ]);
    await vp.send({ type: "chat/streaming", streaming: false });
    await vp.send({
      type: "chat/changedFiles",
      entryId: "a9",
      files: [
        { path: "src/a.ts", status: "modified", added: 3, removed: 1 },
        { path: "logo.png", status: "added" },
      ],
    });
    assert.equal((await vp.page.textContent(".chat-changes-title"))?.trim(), "2 files changed");
    const lines = vp.page.locator(".chat-changes button.changed-file");
    assert.deepEqual(
      (await lines.allTextContents()).map((t) => t.replace(/\s+/g, " ").trim()),
      ["src/a.ts +3 −1", "logo.png binary"],
    );
    await vp.clearPosted();
    await lines.nth(0).focus();
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "chat/openDiff", file: 0 }]);
    await vp.send({ type: "chat/streaming", streaming: true });
    assert.equal(await vp.page.locator(".chat-changes").count(), 0, "the next run starts without the old list");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
  }));
