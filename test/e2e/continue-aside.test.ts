/**
 * End to end, in a real VS Code (code-server + Chromium) with the local fake model: **Ask Aside…**, the main branch
 * goes on, then **Continue as Branch** on the aside's answer in the chat. The move asks the usual summary question
 * (No summary), the tree's active row is the aside's answer, the file's leaf is the loadout recorded below it, the
 * chat shows the aside as the conversation (no longer apart), and the next message's request offers `write` (the
 * aside's own requests offered only the read-only tools). Screenshots in test-results/e2e/continue-aside-*.png.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { FakeReply, FakeRequestBody } from "../util/fake-provider-common.js";
import { activeLeafId, chatView, row, sendPrompt, sessionFiles, waitForLeaf } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  answerInputBox,
  expectVisible,
  pickQuickItem,
  quickInput,
  runCommand,
  screenshot,
  waitUntil,
} from "../util/workbench.js";

const MODEL_TIMEOUT_MS = 90_000;

/** The text of the last user message of an OpenAI request. */
function lastUserText(body: FakeRequestBody): string {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  return JSON.stringify(last?.content ?? "");
}

function replies(body: FakeRequestBody): FakeReply {
  const text = lastUserText(body);
  if (text.includes("ASIDE")) return { text: "The aside answer: heron.", chunkDelayMs: 10 };
  if (text.includes("NEXT")) return { text: "Going on from the aside.", chunkDelayMs: 10 };
  if (text.includes("MAIN")) return { text: "The main branch goes on.", chunkDelayMs: 10 };
  return { text: `Echo: ${text.slice(1, 40)}`, chunkDelayMs: 5 };
}

/** The tool names a request offered. */
function toolNames(body: FakeRequestBody): string[] {
  return ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
}

const { demo, step, wb, fake, openAgentTree } = demoWorkbenchSuite({
  name: "continue-aside",
  model: { chunkDelayMs: 5 },
  settings: { "agentTree.branchSummary.ask": "ask" },
  newSession: true,
});
let page: Page;

describe("Continue as Branch on an aside in VS Code (code-server)", { timeout: 10 * 60_000 }, () => {
  before(() => {
    page = wb().page;
    fake().setDefault(replies);
  });

  it(
    "the leaf moves to the aside's answer with the summary question, and the next request offers write",
    step("continue", async () => {
      const t = await openAgentTree(520);
      const chat = await chatView(page);
      await sendPrompt(chat, "Hello there");
      await waitUntil(
        async () => {
          const id = await activeLeafId(t);
          return id !== undefined && (await row(t, id).innerText()).includes("Echo") ? id : undefined;
        },
        "the first reply to become the leaf",
        MODEL_TIMEOUT_MS,
      );

      await runCommand(page, "Agent: Ask Aside…");
      await answerInputBox(page, "ASIDE: what is the word?");
      const sessionFile = sessionFiles(demo().sessionDir)[0];
      const found = await waitUntil(
        async () => {
          const view = await SessionManager.open(sessionFile, { readOnly: true });
          try {
            const question = view.getEnvelopes().find((e) => e.role === "user" && e.preview.includes("ASIDE"));
            const answer = view
              .getEnvelopes()
              .find((e) => e.role === "assistant" && e.preview.includes("heron") && e.parentId !== null);
            return question && answer ? { questionId: question.id, answerId: answer.id } : undefined;
          } finally {
            await view.close();
          }
        },
        "the aside's question and answer in the file",
        MODEL_TIMEOUT_MS,
      );
      const shown = chat.locator(`.msg-aside[data-aside-id="${found.questionId}"]`);
      await expectVisible(shown.getByText("answered"), "the aside answered in the chat", MODEL_TIMEOUT_MS);
      // The notification offers it too.
      const offer = page.locator(".notification-toast", { hasText: "Aside: The aside answer: heron." });
      await expectVisible(offer.getByRole("button", { name: "Continue as Branch" }), "the notification's button");
      const asideRequest = fake().requests.find((b) => lastUserText(b).includes("ASIDE"));
      assert.ok(asideRequest, "the aside asked the model");
      assert.deepEqual(toolNames(asideRequest), ["find", "grep", "ls", "read"], "the aside could only read");

      // The main branch goes on: Continue leaves it, so the summary question has a branch to ask about.
      await sendPrompt(chat, "MAIN: keep going");
      const mainLeaf = await waitUntil(
        async () => {
          const id = await activeLeafId(t);
          return id !== undefined && (await row(t, id).innerText()).includes("main branch goes on") ? id : undefined;
        },
        "the main reply to become the leaf",
        MODEL_TIMEOUT_MS,
      );
      await expectVisible(shown, "the aside still shown apart while the leaf is elsewhere");
      await screenshot(page, "continue-aside-01-answered");

      await shown.getByRole("button", { name: "Continue as Branch" }).click();
      await expectVisible(quickInput(page).getByText("Summarize the branch you're leaving?"), "the summary question");
      await screenshot(page, "continue-aside-02-question");
      await pickQuickItem(page, "No summary");
      await waitForLeaf(t, found.answerId, "the aside's answer to be the active row", MODEL_TIMEOUT_MS);

      const view = await SessionManager.open(sessionFile, { readOnly: true });
      try {
        const leaf = view.getLeafEntry();
        assert.ok(leaf?.type === "message" && leaf.message.role === "system", "the loadout is recorded at the leaf");
        assert.equal(leaf.parentId, found.answerId, "below the aside's answer");
        const tools = (leaf.message.role === "system" ? (leaf.message.toolsAdded ?? []) : []).map((x) => x.name);
        assert.ok(tools.includes("write"), "the path declares write again");
        const path = view.getPathEnvelopes().map((e) => e.id);
        assert.ok(path.includes(found.questionId) && !path.includes(mainLeaf), "the aside is the path now");
      } finally {
        await view.close();
      }
      // The chat: the aside is the conversation, not shown apart.
      await expectVisible(chat.locator(`[data-message-id="${found.answerId}"]`), "the answer as a message of the path");
      await shown.waitFor({ state: "detached" });
      await screenshot(page, "continue-aside-03-continued");

      const before = fake().requests.length;
      await sendPrompt(chat, "NEXT: go on from the aside");
      await expectVisible(chat.getByText("Going on from the aside."), "the reply", MODEL_TIMEOUT_MS);
      const next = fake()
        .requests.slice(before)
        .find((b) => lastUserText(b).includes("NEXT"));
      assert.ok(next, "the next message asked the model");
      const offered = toolNames(next);
      assert.ok(offered.includes("write"), `the next request offers write (${offered.join(", ")})`);
      assert.ok(offered.includes("edit") && offered.includes("bash"), "and the other tools that change files");
      const sent = JSON.stringify(next.messages);
      assert.ok(sent.includes("ASIDE: what is the word?") && sent.includes("heron"), "the aside is in its context");
      assert.ok(!sent.includes("MAIN: keep going"), "the branch left is not");
      await screenshot(page, "continue-aside-04-next");
    }),
  );
});
