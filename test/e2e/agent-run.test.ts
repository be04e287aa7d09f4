/**
 * End to end, in a real VS Code (code-server + Chromium), working with the agent while it works and reviewing its
 * edits: during a slow reply of the local fake model, Enter on a second message queues it (listed above the input)
 * and it is sent as its own request after the first reply ends; a `write` needing approval opens VS Code's diff
 * editor with the file as it is and as the tool would leave it — Reject (in the chat) leaves the file as it was
 * and tells the model; Alt+Enter while the next write waits steers (the message follows the tool result, before the
 * next model request), Accept (in the diff editor's title bar) writes it, and the chat then lists the file with its
 * added and removed lines; a provider repeating a tool call id gets a diff of the second call's own; a file saved
 * after its diff was shown is not overwritten by Accept: the approval asks again with the new diff. Agent: Select
 * Thinking Level offers the model's levels, records pi's thinking_level_change and the next request carries the
 * level as reasoning_effort. The diff review is the README's
 * screenshot (docs/diff-review.png, refreshed with AGENT_TREE_UPDATE_SCREENSHOT=1). Screenshots in
 * test-results/e2e/agent-run-*.png.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import {
  chatInput,
  chatView,
  MODEL_TIMEOUT_MS,
  queueMessage,
  readSession,
  refreshDocsScreenshot,
  sendAndAwait,
  sendPrompt,
  sessionFiles,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import type { FakeRequestBody } from "../util/fake-openai-server.js";
import { expectVisible, pickQuickItem, quickPickRows, runCommand, screenshot, waitUntil } from "../util/workbench.js";

const ORIGINAL = "alpha\nbeta\ngamma\n";
const PROPOSED = "alpha\nBETA, reviewed\ngamma\ndelta\n";
const FILE = "review-me.txt";

const { demo, fake, step, page, workspaceText, openAgentTree } = demoWorkbenchSuite({
  name: "agent-run",
  model: { chunkDelayMs: 5 },
  settings: { "agentTree.branchSummary.ask": "never" },
  // A new session: the window opens on an empty tree and the run's files are the only ones changed.
  newSession: true,
  files: { [FILE]: ORIGINAL },
  prepare(setup) {
    // The demo's model thinks, up to xhigh: the thinking level picker offers every level.
    const settingsFile = join(setup.demo.workspace, ".vscode", "settings.json");
    const settings = JSON.parse(readFileSync(settingsFile, "utf8")) as Record<string, unknown>;
    const models = settings["agentTree.models.custom"] as Record<string, unknown>[];
    settings["agentTree.models.custom"] = models.map((m) => ({ ...m, reasoning: true, supportsXhigh: true }));
    writeFileSync(settingsFile, JSON.stringify(settings, null, 2) + "\n");
  },
});

/** The user texts of a request, in order. */
function userTexts(body: FakeRequestBody): string[] {
  const messages = (body.messages ?? []) as { role: string; content: unknown }[];
  return messages.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : ""));
}

/** The session file the window writes (the only one in the demo's sessions folder). */
function sessionFile(): string {
  const files = sessionFiles(demo().sessionDir);
  assert.equal(files.length, 1, `one session file expected, found ${files.length}`);
  return files[0];
}

/** The user messages of the session file, in file order. */
function sessionUserTexts(): string[] {
  return readSession(sessionFile()).flatMap((l) => {
    const m = l.message as { role?: string; content?: unknown } | undefined;
    return l.type === "message" && m?.role === "user" && typeof m.content === "string" ? [m.content] : [];
  });
}

/**
 * The text the diff editor of the pending review shows, once open: the modified side's lines, and the lines only the
 * original has (the original editor side by side, or the deleted lines inline when the editor is narrow). Waits
 * until the original side holds `original` and the modified side `modified`.
 */
async function reviewEditor(original = "beta", modified = "alpha"): Promise<{ original: string; modified: string }> {
  const editor = page().locator(".monaco-diff-editor").first();
  await expectVisible(editor, "the diff editor of the proposed change");
  const text = async (selector: string): Promise<string> =>
    (await editor.locator(selector).allInnerTexts()).join("\n").replace(/\u00a0/g, " ");
  return waitUntil(async () => {
    const sides = {
      modified: await text('.editor.modified .view-lines[role="presentation"]'),
      original:
        (await text('.editor.original .view-lines[role="presentation"]')) + (await text(".view-lines.line-delete")),
    };
    return sides.original.includes(original) && sides.modified.includes(modified) ? sides : undefined;
  }, `the diff to show "${original}" on its original side and "${modified}" on its modified side`);
}

/** Accept in the title bar of the diff editor shown now. */
async function acceptInDiffEditor(): Promise<void> {
  await page().locator('.editor-actions .action-label[aria-label="Accept"]').click();
}

/** The chat's approval prompt of the write. */
function approval(chat: FrameLocator) {
  return chat.locator('.approval[aria-label="Approve write"]');
}

describe("Typing while it works and edits reviewed as diffs (code-server)", { timeout: 15 * 60_000 }, () => {
  before(async () => {
    // Room for the diff editor's two sides next to the sidebar.
    await openAgentTree(400);
  });

  it(
    "Enter during a slow reply queues the message; it is sent as its own request after the reply ends",
    step("queue", async () => {
      const chat = await chatView(page());
      // About 4 s of streaming: time to type the second message while the first reply is still coming.
      fake().enqueue({
        text: "A slow first answer, word after word, taking its time to arrive.",
        chunks: 20,
        chunkDelayMs: 200,
      });
      const requestsBefore = fake().requests.length;
      await sendPrompt(chat, "first question");
      await expectVisible(chat.getByRole("button", { name: "Abort" }), "the run to start");
      // The run shows before its request reaches the server: wait for it, so the count below is the follow-up's.
      await waitUntil(
        async () => fake().requests.length > requestsBefore || undefined,
        "the first request to reach the fake model",
      );
      await queueMessage(chat, "second question", "Enter");
      assert.equal(await chatInput(chat).inputValue(), "", "the input is free again after queueing");
      await screenshot(page(), "agent-run-queued");
      assert.equal(fake().requests.length, requestsBefore + 1, "the follow-up must wait for the first reply to end");
      await expectVisible(chat.getByText("Echo: second question"), "the follow-up's own reply", MODEL_TIMEOUT_MS);
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the run to end");
      const sent = fake().requests.slice(requestsBefore);
      assert.equal(sent.length, 2, "two requests: the first prompt, then the follow-up");
      assert.deepEqual(userTexts(sent[0]), ["first question"]);
      assert.deepEqual(userTexts(sent[1]), ["first question", "second question"]);
      assert.equal(await chat.locator(".chat-queue").count(), 0, "the queue is empty once delivered");
      assert.deepEqual(sessionUserTexts(), ["first question", "second question"]);
    }),
  );

  it(
    "a write needing approval opens a diff of both contents; Reject leaves the file as it was",
    step("reject", async () => {
      const chat = await chatView(page());
      const args = JSON.stringify({ path: FILE, content: PROPOSED });
      await sendPrompt(chat, `/tool write ${args}`);
      await expectVisible(approval(chat), "the write's approval in the chat", MODEL_TIMEOUT_MS);
      const sides = await reviewEditor();
      assert.match(sides.original, /beta/, "the file as it is");
      assert.doesNotMatch(sides.original, /BETA, reviewed/);
      assert.match(sides.modified, /BETA, reviewed/, "the file as the write would leave it");
      assert.match(sides.modified, /delta/);
      assert.doesNotMatch(sides.modified, /^beta$/m);
      assert.equal(workspaceText(FILE), ORIGINAL, "nothing is written while the review waits");
      await expectVisible(
        page().locator(".tab", { hasText: `${FILE} (proposed change` }),
        "the diff editor's tab naming the file",
      );
      for (const label of ["Accept", "Reject", "Accept All in This Run"])
        await expectVisible(
          page().locator(`.editor-actions .action-label[aria-label="${label}"]`),
          `${label} in the diff editor's title bar`,
        );
      refreshDocsScreenshot(await screenshot(page(), "agent-run-diff-review"), "diff-review.png");

      await approval(chat).locator("vscode-button", { hasText: "Reject" }).click();
      await expectVisible(
        chat.getByText(/Tool result from write: Refused by user/),
        "the model told of the rejection",
        MODEL_TIMEOUT_MS,
      );
      await waitUntil(
        async () => ((await page().locator(".monaco-diff-editor").count()) === 0 ? true : undefined),
        "the diff editor to close after the answer",
      );
      assert.equal(workspaceText(FILE), ORIGINAL, "a rejected write leaves the file as it was");
      const result = readSession(sessionFile())
        .map((l) => l.message as { role?: string; toolName?: string; content?: { text?: string }[] } | undefined)
        .filter((m) => m?.role === "toolResult" && m.toolName === "write")
        .at(-1);
      assert.match(result?.content?.[0]?.text ?? "", /rejected this change.*not changed/);
    }),
  );

  it(
    "Alt+Enter steers while the write waits; Accept in the diff editor's title bar writes the file; the chat lists it",
    step("accept", async () => {
      const chat = await chatView(page());
      const args = JSON.stringify({ path: FILE, content: PROPOSED });
      const requestsBefore = fake().requests.length;
      await sendPrompt(chat, `/tool write ${args}`);
      await expectVisible(approval(chat), "the write's approval in the chat", MODEL_TIMEOUT_MS);
      await reviewEditor();
      // Steering typed while the tool call waits: delivered after it, before the next model request.
      await queueMessage(chat, "keep the header", "Alt+Enter");
      await page().locator('.editor-actions .action-label[aria-label="Accept"]').click();
      await waitUntil(
        async () => (workspaceText(FILE) === PROPOSED ? true : undefined),
        "the accepted write to reach the disk",
      );
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the run to end", MODEL_TIMEOUT_MS);
      const line = chat.locator(".chat-changes .changed-file", { hasText: FILE });
      await expectVisible(line, "the changed file under the run");
      assert.match((await line.innerText()).replace(/\s+/g, " "), /review-me\.txt \+2 −1/);
      await line.click();
      await expectVisible(
        page().locator(".tab", { hasText: `${FILE} (changes of the run)` }),
        "the changed file's diff from the checkpoints",
      );
      // Both sides read from the checkpoints: before the run and at its end.
      const run = await reviewEditor();
      assert.match(run.original, /beta/);
      assert.match(run.modified, /BETA, reviewed/);
      const sent = fake().requests.slice(requestsBefore);
      assert.equal(sent.length, 2, "the write's request, then one carrying its result and the steering message");
      const messages = (sent[1].messages ?? []) as { role: string; content: unknown }[];
      assert.deepEqual(
        messages.slice(-2).map((m) => m.role),
        ["tool", "user"],
        "the steering message follows the tool result",
      );
      assert.match(JSON.stringify(messages.at(-2)?.content), /Wrote \d+ bytes to review-me\.txt/);
      assert.equal(messages.at(-1)?.content, "keep the header");
      assert.equal(sessionUserTexts().at(-1), "keep the header", "the steering message is a user entry of the tree");
      await screenshot(page(), "agent-run-accepted");
    }),
  );

  it(
    "a provider repeating a tool call id: the second write's diff is its own, not the first one's",
    step("repeated-id", async () => {
      const chat = await chatView(page());
      await runCommand(page(), "View: Close All Editors");
      const first = "first write of call_same\n";
      const second = "second write, the same call id\n";
      // Two replies whose writes carry one id, as providers that number their calls per reply (call_0, …) send
      // them: the second is asked about right after the first ran, while the first one's diff is still closing.
      // (Two calls under one id in one reply are merged into one call by the model library, as in pi.)
      fake().enqueue({
        text: "Writing once.",
        toolCalls: [{ name: "write", id: "call_same", args: { path: FILE, content: first } }],
      });
      fake().enqueue({
        text: "Writing twice.",
        toolCalls: [{ name: "write", id: "call_same", args: { path: FILE, content: second } }],
      });
      fake().enqueue({ text: "Written twice." });
      await sendPrompt(chat, "write it twice");
      await expectVisible(approval(chat), "the first write's approval", MODEL_TIMEOUT_MS);
      await reviewEditor("BETA, reviewed", "first write of call_same");
      // The user opens the proposed side in an editor of its own (Open Editor Side): its document stays open, and
      // VS Code shows an open document again under its URI without asking the extension.
      await page().locator('.monaco-diff-editor .editor.modified .view-lines[role="presentation"]').first().click();
      await page().keyboard.press("Control+K");
      await page().keyboard.press("Shift+O");
      await expectVisible(
        page().locator(".tab:not(:has-text('proposed change'))", { hasText: FILE }),
        "the proposed side in an editor of its own",
      );
      await approval(chat)
        .locator("vscode-button", { hasText: /^\s*Accept\s*$/ })
        .click();
      await waitUntil(async () => (workspaceText(FILE) === first ? true : undefined), "the first write");
      // The second review's documents must show the second write (a reused URI shows the first one's text).
      await reviewEditor("first write of call_same", "second write, the same call id");
      await screenshot(page(), "agent-run-repeated-id");
      await acceptInDiffEditor();
      await waitUntil(async () => (workspaceText(FILE) === second ? true : undefined), "the second write");
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the run to end", MODEL_TIMEOUT_MS);
    }),
  );

  it(
    "a file saved after its diff was shown: Accept writes nothing and shows the new diff; Accept on that one writes",
    step("changed", async () => {
      const chat = await chatView(page());
      await runCommand(page(), "View: Close All Editors");
      const saved = "saved by the user while the diff was open\n";
      const model = "the model's version\n";
      fake().enqueue({
        text: "Rewriting.",
        toolCalls: [{ name: "write", id: "call_changed", args: { path: FILE, content: model } }],
      });
      await sendPrompt(chat, "rewrite the file");
      await expectVisible(approval(chat), "the write's approval", MODEL_TIMEOUT_MS);
      await reviewEditor("second write, the same call id", "the model's version");
      // The user saves the file (outside the review) before answering.
      writeFileSync(join(demo().workspace, FILE), saved);
      await acceptInDiffEditor();
      await expectVisible(
        approval(chat).getByText(/changed after its diff was shown; nothing was written/),
        "the approval asked again, saying the file changed",
        MODEL_TIMEOUT_MS,
      );
      await expectVisible(
        page().locator(".tab", { hasText: `${FILE} (proposed change, the file changed since the last diff` }),
        "the new diff's tab",
      );
      const sides = await reviewEditor("saved by the user", "the model's version");
      assert.doesNotMatch(sides.original, /second write/, "the new diff starts from the saved file");
      assert.equal(workspaceText(FILE), saved, "Accept of the old diff overwrote nothing");
      await screenshot(page(), "agent-run-changed-since-diff");
      await approval(chat)
        .locator("vscode-button", { hasText: /^\s*Accept\s*$/ })
        .click();
      await waitUntil(async () => (workspaceText(FILE) === model ? true : undefined), "the write of the new diff");
      await expectVisible(
        chat.getByText(/Tool result from write: Wrote \d+ bytes/),
        "the write's result",
        MODEL_TIMEOUT_MS,
      );
    }),
  );

  it(
    "Agent: Select Thinking Level records pi's thinking_level_change; the request carries it as reasoning_effort",
    step("thinking", async () => {
      const chat = await chatView(page());
      const picker = chat.locator("vscode-dropdown.thinking-picker");
      await expectVisible(picker, "the thinking level picker beside the model picker");
      await runCommand(page(), "Agent: Select Thinking Level");
      const rows = await quickPickRows(page(), "Select Thinking Level");
      assert.deepEqual(
        rows.map((r) => /^(off|minimal|low|medium|high|xhigh)/.exec(r)?.[1]),
        ["off", "minimal", "low", "medium", "high", "xhigh"],
      );
      await pickQuickItem(page(), "xhigh");
      await waitUntil(
        async () => ((await picker.evaluate((el) => (el as HTMLSelectElement).value)) === "xhigh" ? true : undefined),
        "the chat's picker to show the new level",
      );
      const change = readSession(sessionFile())
        .filter((l) => l.type === "thinking_level_change")
        .at(-1);
      assert.equal(change?.thinkingLevel, "xhigh", "recorded as pi's thinking_level_change entry");
      const requestsBefore = fake().requests.length;
      await sendAndAwait(chat, "think hard", "Echo: think hard", "the reply");
      assert.equal(fake().requests[requestsBefore]?.reasoning_effort, "xhigh");
    }),
  );
});
