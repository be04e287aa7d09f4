/**
 * Chat view in real Chromium against a fake host: messages, streaming, tools, approvals, model picker,
 * input, commands and XSS inertness of the markdown path.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import type { ChatMessageDto } from "../../src/shared/protocol.js";
import { settle, webviewRig, withPage, type ViewPage } from "./harness.js";
import { call, chatSnapshot, CLAUDE, msg, openChatView, type ChatSnapshot } from "./chat-fixtures.js";

const rig = webviewRig();

const usage = { input: 1200, output: 340, cost: 0.0123, contextTokens: 5000, contextWindow: 200000 };

/** This file's chat: Claude, with some usage so far. */
const snapshot = (messages: ChatMessageDto[], extra: Partial<ChatSnapshot> = {}): ChatSnapshot =>
  chatSnapshot(messages, { model: CLAUDE, usage, ...extra });

const openChat = (messages: ChatMessageDto[] = [], streaming = false): Promise<ViewPage> =>
  openChatView(rig, snapshot(messages, { streaming }));

const textOf = async (vp: ViewPage, sel: string): Promise<string> => (await vp.page.textContent(sel)) ?? "";

test("renders the path: user text, assistant markdown, collapsible thinking, tool calls paired with results, summaries, usage", () =>
  withPage(
    openChat([
      msg("s1", "branchSummary", "We tried **A**"),
      msg("u1", "user", "List *files*\nplease"),
      msg("a1", "assistant", "Here is **bold** and `code`", {
        thinking: "Let me think",
        toolCalls: [call("call1", "bash", '{"command":"ls"}')],
        model: "claude",
      }),
      msg("r1", "toolResult", "a.txt\nb.txt", { toolCallId: "call1", toolName: "bash" }),
    ]),
    async (vp) => {
      assert.equal(await textOf(vp, '[data-message-id="u1"] .msg-text'), "List *files*\nplease");
      assert.equal(await textOf(vp, '[data-message-id="a1"] .markdown strong'), "bold");
      assert.equal(await textOf(vp, '[data-message-id="a1"] .markdown code'), "code");
      const thinking = vp.page.locator('[data-message-id="a1"] details.thinking');
      assert.equal(await thinking.getAttribute("open"), null);
      await thinking.locator("summary").click();
      assert.equal(await thinking.getAttribute("open"), "");
      const call = vp.page.locator('[data-message-id="a1"] details.tool-call');
      assert.match((await call.locator("summary").textContent()) ?? "", /bash/);
      assert.equal(await call.locator(".tool-result").textContent(), "a.txt\nb.txt");
      assert.equal(
        await vp.page.locator('[data-message-id="r1"]').count(),
        0,
        "paired result is shown inside its call",
      );
      assert.match(await textOf(vp, '[data-message-id="s1"] summary'), /Branch summary/);
      const usageText = await textOf(vp, ".usage-line");
      assert.match(usageText, /1\.2k/);
      assert.match(usageText, /\$0\.0123/);
      assert.match(usageText, /ctx 5\.0k\/200k \(3%\)/);
      assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    },
  ));

test("streaming replaces the message in place; Abort button and Escape post chat/abort", () =>
  withPage(openChat([msg("u1", "user", "hi")], true), async (vp) => {
    await vp.send({ type: "chat/message", message: msg("tmp1", "assistant", "Hel") });
    await vp.send({ type: "chat/message", message: msg("tmp1", "assistant", "Hello there") });
    assert.equal(await vp.page.locator('[data-message-id="tmp1"]').count(), 1);
    assert.equal((await textOf(vp, '[data-message-id="tmp1"] .markdown')).trim(), "Hello there");
    // The stored entry takes the streamed message's place.
    await vp.send({ type: "chat/message", message: msg("e1", "assistant", "Hello there!"), replaces: "tmp1" });
    assert.equal(await vp.page.locator('[data-message-id="tmp1"]').count(), 0);
    assert.equal((await textOf(vp, '[data-message-id="e1"] .markdown')).trim(), "Hello there!");
    assert.deepEqual(
      await vp.page.$$eval("[data-message-id]", (els) => els.map((e) => e.getAttribute("data-message-id"))),
      ["u1", "e1"],
    );
    await vp.clearPosted();
    await vp.page.click('[aria-label="Abort"]');
    await vp.page.focus('textarea[aria-label="Message"]');
    await vp.page.keyboard.press("Escape");
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "chat/abort" }, { type: "chat/abort" }]);
    await vp.send({ type: "chat/streaming", streaming: false });
    assert.equal(await vp.page.locator('[aria-label="Abort"]').count(), 0);
  }));

test("Abort pressed from the keyboard leaves the focus in the message box once the run ends, not on the page", () =>
  withPage(openChat([msg("u1", "user", "hi")], true), async (vp) => {
    await vp.page.focus('[aria-label="Abort"]');
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.deepEqual(await vp.posted().then((p) => p.filter((m) => m.type === "chat/abort")), [{ type: "chat/abort" }]);
    // The host ends the run: the Abort button goes away with the focus it held.
    await vp.send({ type: "chat/streaming", streaming: false });
    await settle(vp.page);
    assert.equal(await vp.page.locator('[aria-label="Abort"]').count(), 0);
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
  }));

test("a focus that comes from the workbench (Focus on Chat View) lands in the message box; a click keeps its own", () =>
  withPage(openChat([msg("u1", "user", "hi")]), async (vp) => {
    await vp.page.evaluate(() => window.dispatchEvent(new FocusEvent("focus")));
    await settle(vp.page);
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
    // A click on something that takes no focus (the usage line, to select its text) brings the focus with a
    // pointer: it does not jump to the box.
    await vp.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const box = (await vp.page.locator(".usage-line").boundingBox())!;
    await vp.page.mouse.move(box.x + 5, box.y + 5);
    await vp.page.mouse.down();
    // The frame gets the focus while the button is down, as it does for a click from outside the view.
    await vp.page.evaluate(() => window.dispatchEvent(new FocusEvent("focus")));
    await vp.page.mouse.up();
    await settle(vp.page);
    assert.notEqual(await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
  }));

test("a click on Send leaves the focus in the message box (the emptied box disables the button that had it)", () =>
  withPage(openChat(), async (vp) => {
    await vp.page.fill('textarea[aria-label="Message"]', "hello");
    await vp.page.click('[aria-label="Send"]');
    await settle(vp.page);
    assert.deepEqual(await vp.posted().then((p) => p.filter((m) => m.type === "chat/submit")), [
      { type: "chat/submit", text: "hello" },
    ]);
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
  }));

test("input: Enter sends, Shift+Enter adds a line, Send button sends, setInput fills and focuses", () =>
  withPage(openChat(), async (vp) => {
    const box = vp.page.locator('textarea[aria-label="Message"]');
    await box.click();
    await vp.page.keyboard.type("first line");
    await vp.page.keyboard.press("Shift+Enter");
    await vp.page.keyboard.type("second");
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.deepEqual(await vp.posted().then((p) => p.filter((m) => m.type === "chat/submit")), [
      { type: "chat/submit", text: "first line\nsecond" },
    ]);
    assert.equal(await box.inputValue(), "");
    await vp.clearPosted();
    await vp.send({ type: "chat/setInput", text: "edit me" });
    assert.equal(await box.inputValue(), "edit me");
    assert.equal(await vp.page.evaluate(() => document.activeElement?.getAttribute("aria-label")), "Message");
    await vp.page.click('[aria-label="Send"]');
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [{ type: "chat/submit", text: "edit me" }]);
  }));

test("approvals: Allow / Allow always / Deny post chat/approve; approvalDone removes the prompt", () =>
  withPage(openChat([], true), async (vp) => {
    await vp.send({ type: "chat/approval", toolCallId: "c1", toolName: "bash", summary: "rm -rf build" });
    await vp.send({ type: "chat/approval", toolCallId: "c2", toolName: "write", summary: "src/a.ts" });
    await vp.send({ type: "chat/approval", toolCallId: "c3", toolName: "edit", summary: "src/b.ts" });
    assert.equal(await vp.page.locator(".approval").count(), 3);
    assert.match(await textOf(vp, ".approval"), /rm -rf build/);
    await vp.clearPosted();
    await vp.page
      .locator(".approval", { hasText: "rm -rf" })
      .locator("vscode-button", { hasText: "Allow always" })
      .click();
    await vp.page.locator(".approval", { hasText: "src/a.ts" }).locator("vscode-button", { hasText: "Deny" }).click();
    await vp.page.locator(".approval", { hasText: "src/b.ts" }).locator("vscode-button").first().click();
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [
      { type: "chat/approve", toolCallId: "c1", approved: true, always: true },
      { type: "chat/approve", toolCallId: "c2", approved: false },
      { type: "chat/approve", toolCallId: "c3", approved: true },
    ]);
    assert.equal(await vp.page.locator(".approval").count(), 0);
    await vp.send({ type: "chat/approval", toolCallId: "c4", toolName: "bash", summary: "ls" });
    await vp.send({ type: "chat/approvalDone", toolCallId: "c4" });
    assert.equal(await vp.page.locator(".approval").count(), 0);
  }));

test("approvals: Always Allow in This Workspace shows the rules it adds; a local address offers only Allow and Deny", () =>
  withPage(openChat([], true), async (vp) => {
    await vp.send({
      type: "chat/approval",
      toolCallId: "r1",
      toolName: "bash",
      summary: "Run: npm test",
      rules: ["Bash(npm test:*)"],
    });
    await vp.send({
      type: "chat/approval",
      toolCallId: "l1",
      toolName: "web_fetch",
      summary: "Fetch http://127.0.0.1:8080/ from 127.0.0.1",
      local: "127.0.0.1 is a loopback address (this computer)",
    });
    await vp.send({ type: "chat/approval", toolCallId: "n1", toolName: "bash", summary: "Run: if x; then y; fi" });
    const withRule = vp.page.locator(".approval", { hasText: "npm test" });
    assert.match((await withRule.textContent()) ?? "", /Always Allow in This Workspace adds: Bash\(npm test:\*\)/);
    const local = vp.page.locator(".approval", { hasText: "127.0.0.1" });
    assert.match(
      (await local.textContent()) ?? "",
      /Local address: 127\.0\.0\.1 is a loopback address \(this computer\)/,
    );
    assert.deepEqual(await local.locator("vscode-button").allTextContents(), ["Allow", "Deny"]);
    const none = vp.page.locator(".approval", { hasText: "if x" });
    assert.equal(
      await none.locator("vscode-button", { hasText: "This Workspace" }).count(),
      0,
      "no rules: not offered",
    );
    await vp.clearPosted();
    await withRule.locator("vscode-button", { hasText: "Always Allow in This Workspace" }).click();
    await local.locator("vscode-button", { hasText: "Allow" }).first().click();
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [
      { type: "chat/approve", toolCallId: "r1", approved: true, inWorkspace: true },
      { type: "chat/approve", toolCallId: "l1", approved: true },
    ]);
  }));

test("the model button shows as much of the model's name as the header has room for, and ellipsizes the rest", () =>
  withPage(openChatView(rig, snapshot([]), { width: 300 }), async (vp) => {
    // vscode-button sizes every slotted span as a 16 px icon; the label once kept that size and read "L…".
    const long = { ...CLAUDE, name: "Claude Sonnet with a long preview name" };
    await vp.send({ type: "chat/models", models: [long], current: long.key });
    await settle(vp.page);
    const sizes = await vp.page.evaluate(() => {
      const label = document.querySelector(".model-picker-label")!;
      return {
        label: label.getBoundingClientRect().width,
        labelFull: label.scrollWidth,
        button: document.querySelector(".model-picker")!.getBoundingClientRect().width,
      };
    });
    assert.ok(sizes.label > 80, `the label shows more than a few letters (${JSON.stringify(sizes)})`);
    assert.ok(sizes.label < sizes.button, `the label stays inside its button (${JSON.stringify(sizes)})`);
    assert.ok(sizes.labelFull > sizes.label, `the rest is cut (ellipsis) (${JSON.stringify(sizes)})`);
  }));

test("with a thinking picker too, a narrow header still names the model and shows the level (the icons wrap)", () =>
  withPage(openChatView(rig, snapshot([]), { width: 280 }), async (vp) => {
    // The default side bar's width: the model picker, the thinking picker and five icon buttons do not fit one line.
    await vp.send({
      type: "chat/models",
      models: [CLAUDE],
      current: CLAUDE.key,
      thinkingLevels: ["off", "minimal", "low", "medium", "high"],
      thinkingLevel: "medium",
    });
    await settle(vp.page);
    const sizes = await vp.page.evaluate(() => {
      const header = document.querySelector(".chat-header")!.getBoundingClientRect();
      const buttons = [...document.querySelectorAll(".chat-header vscode-button")].map((b) =>
        b.getBoundingClientRect(),
      );
      return {
        label: document.querySelector(".model-picker-label")!.getBoundingClientRect().width,
        thinking: document.querySelector(".thinking-picker")!.getBoundingClientRect().width,
        headerRight: header.right,
        rightmost: Math.max(...buttons.map((b) => b.right)),
      };
    });
    assert.ok(sizes.label > 80, `the model's name shows more than a few letters (${JSON.stringify(sizes)})`);
    assert.ok(sizes.thinking >= 90, `the thinking level keeps its width (${JSON.stringify(sizes)})`);
    assert.ok(sizes.rightmost <= sizes.headerRight + 0.5, `no button is cut off (${JSON.stringify(sizes)})`);
    assert.equal(await vp.page.locator(".thinking-picker").getAttribute("current-value"), "medium");
  }));

test("the model button names the current model and opens the host's picker; header buttons post commands; no-model notice", () =>
  withPage(openChat(), async (vp) => {
    await vp.send({ type: "chat/models", models: [CLAUDE], current: CLAUDE.key });
    await vp.clearPosted();
    assert.equal((await textOf(vp, ".model-picker")).trim(), `${CLAUDE.name} · ${CLAUDE.provider}`);
    await vp.page.click(".model-picker");
    await vp.page.click('[aria-label="New Session"]');
    await vp.page.click('[aria-label="Compact"]');
    await settle(vp.page);
    assert.deepEqual(await vp.posted(), [
      { type: "command", command: "selectModel" },
      { type: "command", command: "newSession" },
      { type: "command", command: "compact" },
    ]);
    await vp.send(snapshot([], { model: undefined, noModelReason: "No API key for anthropic" }));
    assert.match(await textOf(vp, ".notice"), /No API key for anthropic/);
    assert.equal(await vp.page.locator('textarea[aria-label="Message"]').isEnabled(), true);
    await vp.page.fill('textarea[aria-label="Message"]', "hello");
    await vp.page.keyboard.press("Enter");
    await settle(vp.page);
    assert.equal(await vp.page.getAttribute('[aria-label="Send"]', "disabled"), "");
    assert.equal(
      (await vp.posted()).filter((m) => m.type === "chat/submit").length,
      0,
      "nothing is sent without a model",
    );
    await vp.page.locator(".notice vscode-button", { hasText: "Set API Key" }).click();
    await settle(vp.page);
    assert.deepEqual((await vp.posted()).at(-1), { type: "command", command: "setApiKey" });
    // A subscription (Claude Pro/Max, ChatGPT, Copilot) is the other way in.
    await vp.page.locator(".notice vscode-button", { hasText: "Log In…" }).click();
    await settle(vp.page);
    assert.deepEqual((await vp.posted()).at(-1), { type: "command", command: "logIn" });
  }));

test("message text is inert: markdown escapes raw HTML, drops unsafe links and remote images", async () => {
  const evil = [
    "<img src=x onerror=alert(1)>",
    "<script>alert(2)</script>",
    "<iframe src=javascript:alert(3)></iframe>",
    "[click](javascript:alert(4))",
    "![pic](http://127.0.0.1:9/x.png)",
    "<a href=javascript:alert(5)>raw</a>",
    "[ok](https://example.com)",
  ].join("\n\n");
  await withPage(
    openChat([
      msg("u1", "user", evil),
      msg("a1", "assistant", evil, { thinking: evil, toolCalls: [call("k", "bash", evil)] }),
      msg("r1", "toolResult", evil, { toolCallId: "k", toolName: "bash" }),
      msg("s1", "compactionSummary", evil),
    ]),
    async (vp) => {
      await vp.send({ type: "chat/message", message: msg("a2", "assistant", evil) });
      await vp.send({ type: "chat/approval", toolCallId: "z", toolName: "bash", summary: evil });
      await vp.page.locator("details").evaluateAll((ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      await settle(vp.page);
      assert.equal(await vp.page.locator("#root img, #root script, #root iframe").count(), 0);
      assert.equal(await vp.page.locator('#root a[href^="javascript"], #root [onerror]').count(), 0);
      assert.equal(await vp.page.locator('[data-message-id="a1"] .markdown a[href="https://example.com"]').count(), 1);
      assert.match(await textOf(vp, '[data-message-id="a1"] .markdown'), /<img src=x onerror=alert\(1\)>/);
      assert.match(await textOf(vp, '[data-message-id="a1"] .markdown'), /\[image: pic\]/);
      // The list is windowed: the first message is mounted again once the log is scrolled back to it.
      await vp.page.evaluate(() => void (document.querySelector(".chat-messages")!.scrollTop = 0));
      for (let i = 0; i < 30 && (await vp.page.locator('[data-message-id="u1"]').count()) === 0; i++)
        await settle(vp.page);
      await vp.page.locator("details").evaluateAll((ds) => ds.forEach((d) => ((d as HTMLDetailsElement).open = true)));
      await settle(vp.page);
      assert.equal(await vp.page.locator("#root img, #root script, #root iframe").count(), 0);
      assert.equal(await vp.page.locator('#root a[href^="javascript"], #root [onerror]').count(), 0);
      assert.match(await textOf(vp, '[data-message-id="u1"]'), /<script>alert\(2\)<\/script>/);
      await new Promise((r) => setTimeout(r, 200));
      assert.deepEqual(vp.dialogs, []);
      const problems = await vp.problems();
      assert.deepEqual(problems.errors, []);
      assert.deepEqual(problems.violations, [], "nothing even tried to load");
    },
  );
});

test("an aside shows below the path marked as an aside, is updated in place, and is not a message of the path", () =>
  withPage(openChat([msg("u1", "user", "main question"), msg("a1", "assistant", "main answer")], true), async (vp) => {
    await vp.send({
      type: "chat/aside",
      aside: { id: "x1", question: "What is the secret?", text: "", state: "running", model: "openai/gpt" },
    });
    const aside = vp.page.locator('.msg-aside[data-aside-id="x1"]');
    assert.match((await aside.locator(".msg-role").textContent()) ?? "", /Aside.*answering/);
    assert.equal(await aside.locator(".aside-question").textContent(), "What is the secret?");
    await vp.send({
      type: "chat/aside",
      aside: { id: "x1", question: "What is the secret?", text: "It is **heron**", state: "done" },
    });
    assert.equal(await vp.page.locator(".msg-aside").count(), 1, "the same aside, updated in place");
    assert.equal(await aside.locator(".aside-answer strong").textContent(), "heron");
    assert.match((await aside.locator(".msg-role").textContent()) ?? "", /answered/);
    assert.deepEqual(
      await vp.page.$$eval("[data-message-id]", (els) => els.map((e) => e.getAttribute("data-message-id"))),
      ["u1", "a1"],
      "the path's messages are unchanged",
    );
    // The main reply goes on: the aside stays; another conversation (a snapshot that replaces all) drops it.
    await vp.send({ type: "chat/message", message: msg("a2", "assistant", "main goes on") });
    assert.equal(await vp.page.locator(".msg-aside").count(), 1);
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    await vp.send(snapshot([msg("u9", "user", "another session")]));
    assert.equal(await vp.page.locator(".msg-aside").count(), 0);
  }));

test("an answered aside offers Continue as Branch; once its question is a message of the path it is not shown apart", () =>
  withPage(openChat([msg("u1", "user", "main question"), msg("a1", "assistant", "main answer")]), async (vp) => {
    const aside = vp.page.locator('.msg-aside[data-aside-id="x1"]');
    await vp.send({ type: "chat/aside", aside: { id: "x1", question: "Which word?", text: "", state: "running" } });
    assert.equal(await aside.getByRole("button", { name: "Continue as Branch" }).count(), 0, "not while it answers");
    await vp.send({ type: "chat/aside", aside: { id: "x1", question: "Which word?", text: "heron", state: "done" } });
    await aside.getByRole("button", { name: "Continue as Branch" }).click();
    const posted = (await vp.posted()).filter((m) => m.type === "chat/continueAside");
    assert.deepEqual(posted, [{ type: "chat/continueAside", asideId: "x1" }], "the host's operation decides");
    assert.deepEqual(await vp.problems(), { violations: [], errors: [] });
    // The leaf moved onto the aside (a move keeps what it did not change): it is the conversation now.
    await vp.send(
      snapshot([msg("x1", "user", "Which word?"), msg("x2", "assistant", "heron")], { start: 1, keep: true }),
    );
    assert.equal(await vp.page.locator(".msg-aside").count(), 0, "not shown apart any more");
    assert.equal(await vp.page.locator('[data-message-id="x2"]').count(), 1, "its answer is a message of the path");
  }));

test("an error's status line stays until a status with no text clears it (the next run's start)", () =>
  withPage(openChat(), async (vp) => {
    await vp.send({ type: "status", text: "Connection lost mid-reply", kind: "error" });
    assert.match(await textOf(vp, ".status-line"), /Connection lost mid-reply/);
    await vp.send({ type: "status", text: "", kind: "info" });
    assert.equal(await vp.page.locator(".status-line").count(), 0);
  }));

test("while the model has said nothing yet, the chat says it is waiting for it and how to stop; the reply replaces it", () =>
  withPage(openChat([msg("u1", "user", "a slow question")], true), async (vp) => {
    await vp.send({ type: "chat/models", models: [CLAUDE], current: CLAUDE.key });
    await settle(vp.page);
    assert.match(await textOf(vp, ".chat-waiting"), new RegExp(`Waiting for ${CLAUDE.name}.*Escape`));
    await vp.send({ type: "chat/message", message: msg("tmp1", "assistant", "At last") });
    assert.equal(await vp.page.locator(".chat-waiting").count(), 0, "the reply has started");
    await vp.send({ type: "chat/streaming", streaming: false });
    assert.equal(await vp.page.locator(".chat-waiting").count(), 0);
  }));

test("while a new prompt waits for its reply, the previous reply shows no streaming cursor", () =>
  withPage(
    openChat([msg("u1", "user", "first"), msg("a1", "assistant", "First answer"), msg("u2", "user", "second")], true),
    async (vp) => {
      assert.equal(await vp.page.locator('[data-message-id="a1"] .cursor').count(), 0);
      await vp.send({ type: "chat/message", message: msg("tmp2", "assistant", "Second") });
      assert.equal(await vp.page.locator('[data-message-id="tmp2"] .cursor').count(), 1, "the reply streaming now");
    },
  ));
