/**
 * End to end in code-server with the local fake model: the agent's todo list and pi's prompt conveniences. The model
 * calls `todo` → the chat pins the checklist above the input (`3/7`, expandable) and the tool result's tree row reads
 * `todo 3/7`; `!echo …` runs in the workspace, its output shows in the chat and the next request holds it as pi sends
 * it; `!!echo …` is recorded but the next request does not hold it; Escape stops a long command; `/skill:name` (offered
 * by the `/` list) puts the skill's instructions into the message. Screenshots in test-results/e2e/chat-conveniences-*.png.
 */
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import {
  chatInput,
  MODEL_TIMEOUT_MS,
  modelRequest,
  readSession,
  sendPrompt,
  sessionFiles,
  treeView,
  waitChatIdle,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { expectVisible, screenshot, waitUntil } from "../util/workbench.js";
import { SEVEN_TODOS } from "../util/todo-fixtures.js";

const SKILL_WORD = "WOMBAT-4410";

const { demo, fake, step, page, openChat } = demoWorkbenchSuite({
  name: "chat-conveniences",
  model: { chunkDelayMs: 2 },
  newSession: true,
  isolateOtherTools: true,
  prepare: ({ demo }) => {
    const dir = join(demo.workspace, ".pi", "skills", "release-notes");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "SKILL.md"),
      `---\nname: release-notes\ndescription: Write release notes\n---\nList every change; tag it ${SKILL_WORD}.\n`,
    );
  },
});

let chat: FrameLocator;

/** The messages of the last request the model received, once there are `count` requests. */
async function requestText(count: number): Promise<string> {
  return JSON.stringify((await modelRequest(fake(), count)).messages ?? []);
}

/** Waits until nothing runs (the progress bar is gone). */
const waitIdle = (): Promise<void> => waitChatIdle(chat);

/** The bashExecution messages of the session file. */
function recordedCommands(): Record<string, unknown>[] {
  const [file] = sessionFiles(demo().sessionDir);
  return readSession(file).flatMap((l) => {
    const m = l.message as Record<string, unknown> | undefined;
    return l.type === "message" && m?.role === "bashExecution" ? [m] : [];
  });
}

describe("The todo list and the chat input's conveniences (code-server)", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    chat = await openChat(420);
  });

  it(
    "the model calls todo: the checklist shows 3/7 above the input, expands, and the tree row reads `todo 3/7`",
    step("todo", async () => {
      await sendPrompt(chat, `/tool todo ${JSON.stringify({ todos: SEVEN_TODOS })}`);
      const progress = chat.locator(".chat-todos-progress");
      await expectVisible(progress, "the checklist above the input", MODEL_TIMEOUT_MS);
      assert.equal(await progress.textContent(), "3/7");
      assert.equal(await chat.locator(".chat-todos-current").textContent(), "Run the tests");
      await waitIdle();
      const summary = chat.locator(".chat-todos-summary");
      await summary.focus();
      await summary.press("Enter");
      await expectVisible(chat.locator(".chat-todos-list li").nth(6), "the whole list");
      assert.equal(await chat.locator(".chat-todos-list li").count(), 7);
      await screenshot(page(), "chat-conveniences-todo");
      const tree = await treeView(page());
      await expectVisible(tree.locator('[role="treeitem"]', { hasText: "todo 3/7" }), "the todo result's tree row");
    }),
  );

  it(
    "`!echo` shows the output; the next request holds it; `!!` is recorded but never sent",
    step("commands", async () => {
      await sendPrompt(chat, "!echo hello-from-the-shell");
      await expectVisible(chat.locator(".msg-bash", { hasText: "hello-from-the-shell" }), "the command's output");
      await sendPrompt(chat, "!!echo kept-out-of-context");
      await expectVisible(chat.locator(".msg-bash-excluded", { hasText: "kept-out-of-context" }), "the `!!` output");
      await expectVisible(chat.locator(".msg-bash-note", { hasText: "Not sent to the model" }), "its note");
      await waitUntil(async () => (recordedCommands().length === 2 ? true : undefined), "both commands recorded");
      const before = fake().requests.length;
      await sendPrompt(chat, "what did the shell say?");
      const sent = await requestText(before + 1);
      assert.match(sent, /Ran `echo hello-from-the-shell`\\n```\\nhello-from-the-shell\\n```/);
      assert.doesNotMatch(sent, /kept-out-of-context/);
      await expectVisible(chat.getByText("Echo: what did the shell say?"), "the reply", MODEL_TIMEOUT_MS);
      const [first, second] = recordedCommands();
      assert.equal(first.excludeFromContext, false);
      assert.equal(second.excludeFromContext, true);
      await screenshot(page(), "chat-conveniences-commands");
    }),
  );

  it(
    "Escape stops a long command: its row says cancelled and Send comes back",
    step("abort", async () => {
      await sendPrompt(chat, "!echo waiting; sleep 60");
      await expectVisible(chat.getByRole("button", { name: "Abort" }), "the Abort button while it runs");
      await expectVisible(chat.locator(".msg-bash", { hasText: "Running" }), "the running command's row");
      await chatInput(chat).press("Escape");
      await expectVisible(chat.locator(".msg-bash", { hasText: "(cancelled)" }), "the cancelled command");
      await expectVisible(chat.getByRole("button", { name: "Send" }), "the input idle again");
      assert.equal(recordedCommands().at(-1)?.cancelled, true);
    }),
  );

  it(
    "`/` lists `/skill:release-notes`; sent, the message holds the skill's instructions",
    step("skill", async () => {
      const input = chatInput(chat);
      await input.fill("");
      await input.pressSequentially("/skill:rel");
      const option = chat.locator('[role="option"]', { hasText: "/skill:release-notes" });
      await expectVisible(option, "the skill in the completion list");
      await input.press("Enter");
      assert.equal(await input.inputValue(), "/skill:release-notes ");
      await input.pressSequentially("for 1.2");
      const before = fake().requests.length;
      await chat.getByRole("button", { name: "Send" }).click();
      const sent = await requestText(before + 1);
      assert.match(
        sent,
        new RegExp(`<skill name=\\\\"release-notes\\\\"[^]*${SKILL_WORD}[^]*</skill>\\\\n\\\\nfor 1\\.2`),
      );
    }),
  );
});
