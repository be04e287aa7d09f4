/**
 * The chat's todo checklist, the input's placeholder while the agent works, and a typed command's row, in real
 * Chromium against a fake host: the checklist is one line with its progress (`3/7`) until expanded (by mouse or
 * keyboard), follows the newest stored todo call and each snapshot's list; `agentTree.chat.enterWhileRunning` swaps
 * what Enter and Alt+Enter queue, and the placeholder says so.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { settle, webviewRig, withPage } from "./harness.js";
import { call, chatSnapshot, CLAUDE, msg, openChatView } from "./chat-fixtures.js";
import { SEVEN_TODOS } from "../util/todo-fixtures.js";

const rig = webviewRig();

const SUMMARY = ".chat-todos-summary";

test("the checklist: one line with 3/7 and the task in progress; expanded by click or keyboard; it follows the list", () =>
  withPage(
    openChatView(rig, chatSnapshot([msg("u1", "user", "plan it")], { model: CLAUDE, todos: SEVEN_TODOS })),
    async (vp) => {
      const summary = vp.page.locator(SUMMARY);
      assert.equal(await vp.page.locator(".chat-todos-progress").textContent(), "3/7");
      assert.equal(await vp.page.locator(".chat-todos-current").textContent(), "Run the tests");
      assert.equal(await summary.getAttribute("aria-expanded"), "false");
      assert.equal(await vp.page.locator(".chat-todos-list").count(), 0, "collapsed: one line");
      // Pinned above the input: it comes before the message box in the page.
      const order = await vp.page.evaluate(() => {
        const todos = document.querySelector(".chat-todos");
        const input = document.querySelector(".chat-input");
        return todos && input ? todos.compareDocumentPosition(input) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
      });
      assert.ok(order !== 0, "the checklist sits above the input");

      await summary.click();
      assert.equal(await summary.getAttribute("aria-expanded"), "true");
      const items = vp.page.locator(".chat-todos-list li");
      assert.equal(await items.count(), 7);
      assert.deepEqual(await items.evaluateAll((lis) => lis.map((li) => li.className)), [
        ...SEVEN_TODOS.map((t) => `todo todo-${t.status}`),
      ]);
      assert.match((await items.nth(3).textContent()) ?? "", /Run the tests \(in progress\)/);
      // Keyboard: the summary is a button; Space closes it, Enter opens it again.
      await summary.focus();
      await vp.page.keyboard.press("Space");
      await settle(vp.page);
      assert.equal(await summary.getAttribute("aria-expanded"), "false");
      await vp.page.keyboard.press("Enter");
      await settle(vp.page);
      assert.equal(await summary.getAttribute("aria-expanded"), "true");

      // The next stored todo call updates it.
      const next = SEVEN_TODOS.map((t, i) =>
        i === 3 ? { ...t, status: "completed" as const } : i === 4 ? { ...t, status: "in_progress" as const } : t,
      );
      await vp.send({
        type: "chat/message",
        message: msg("a2", "assistant", "", { toolCalls: [call("c2", "todo", "{}")], todos: next }),
      });
      assert.equal(await vp.page.locator(".chat-todos-progress").textContent(), "4/7");
      assert.equal(
        await vp.page.locator(".chat-todos-list li.todo-in_progress").textContent(),
        "Update the README (in progress)",
      );

      // A snapshot of another path: its list, or none.
      await vp.send(chatSnapshot([msg("u9", "user", "other branch")], { model: CLAUDE, todos: [SEVEN_TODOS[0]] }));
      assert.equal(await vp.page.locator(".chat-todos-progress").textContent(), "1/1");
      await vp.send(chatSnapshot([msg("u8", "user", "no plan here")], { model: CLAUDE }));
      assert.equal(await vp.page.locator(".chat-todos").count(), 0, "a path without a todo call shows none");
    },
  ));

test("the placeholder while the agent works says what Enter and Alt+Enter do; the setting swaps them", () =>
  withPage(
    openChatView(rig, chatSnapshot([msg("u1", "user", "go")], { model: CLAUDE, streaming: true })),
    async (vp) => {
      const box = vp.page.locator('textarea[aria-label="Message"]');
      assert.equal(await box.getAttribute("placeholder"), "Enter queues a follow-up, Alt+Enter steers");
      await vp.send({ type: "chat/settings", enterWhileRunning: "steer" });
      assert.equal(await box.getAttribute("placeholder"), "Enter steers, Alt+Enter queues a follow-up");
      await box.click();
      await vp.page.keyboard.type("use tabs");
      await vp.page.keyboard.press("Enter");
      await vp.page.keyboard.type("then the docs");
      await vp.page.keyboard.press("Alt+Enter");
      await settle(vp.page);
      assert.deepEqual(
        (await vp.posted()).filter((m) => m.type === "chat/queue"),
        [
          { type: "chat/queue", kind: "steer", text: "use tabs" },
          { type: "chat/queue", kind: "followUp", text: "then the docs" },
        ],
      );
      // Idle, the placeholder names `!` commands too.
      await vp.send({ type: "chat/streaming", streaming: false });
      assert.match((await box.getAttribute("placeholder")) ?? "", /! to run a command/);
    },
  ));

test("a typed command's row: its output while it runs, and a note when `!!` keeps it out of the context", () =>
  withPage(openChatView(rig, chatSnapshot([], { model: CLAUDE })), async (vp) => {
    await vp.send({
      type: "chat/message",
      message: msg("pending-1", "bashExecution", "$ npm test\nrunning 3 suites", { running: true }),
    });
    const row = vp.page.locator('[data-message-id="pending-1"]');
    assert.match((await row.textContent()) ?? "", /\$ npm test\s+running 3 suites\s*Running… \(Escape stops it\)/);
    await vp.send({
      type: "chat/message",
      replaces: "pending-1",
      message: msg("b1", "bashExecution", "$ npm test\nall passed", {
        excludedFromContext: true,
        note: "Not sent to the model (!!)",
      }),
    });
    const stored = vp.page.locator('[data-message-id="b1"]');
    assert.equal(await vp.page.locator('[data-message-id="pending-1"]').count(), 0);
    assert.match((await stored.textContent()) ?? "", /all passed\s*Not sent to the model \(!!\)/);
    assert.doesNotMatch((await stored.textContent()) ?? "", /Running/);
  }));
