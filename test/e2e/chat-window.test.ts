/**
 * End to end, in a real VS Code (code-server + Chromium): a session of 2,000 messages opens with the chat
 * holding only its newest messages, and scrolling up in the chat pages older ones in from the extension host
 * (chat/requestOlder → chat/older through the real webview channel). A screenshot is left in
 * test-results/e2e/chat-window.png.
 */
import assert from "node:assert/strict";
import { unlinkSync } from "node:fs";
import { describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import { chatView, treeView, waitForLeaf, writePiSession, type SeedMessage } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { openViewContainer, screenshot, waitUntil } from "../util/workbench.js";

/** Enough messages for many windows, few enough to write and open in a moment. */
const COUNT = 2000;
const id = (i: number): string => `c${String(i).padStart(7, "0")}`;
const MESSAGES: SeedMessage[] = Array.from({ length: COUNT }, (_, i) => ({
  id: id(i),
  role: i % 2 === 0 ? "user" : "assistant",
  text: i % 2 === 0 ? `Question number ${i}: what comes next?` : `Answer number ${i}.\n\n${"Some detail. ".repeat(8)}`,
}));

// No step chats, so the model URL is never called.
const { step, wb } = demoWorkbenchSuite({
  name: "chat-window",
  prepare({ demo }) {
    unlinkSync(demo.sessionFile);
    writePiSession(demo.sessionDir, {
      id: "9a8b7c6d-0000-4000-8000-000000002000",
      cwd: demo.workspace,
      name: "A long session",
      messages: MESSAGES,
      modified: new Date(),
    });
  },
});

/** Ids of the chat messages in the DOM, top to bottom. */
function mountedIds(chat: FrameLocator): Promise<string[]> {
  return chat
    .locator(".chat-messages [data-message-id]")
    .evaluateAll((els) => els.map((e) => e.getAttribute("data-message-id") ?? ""));
}

/** Index of the oldest message the chat has drawn so far (its ids are in path order). */
async function oldestMounted(chat: FrameLocator): Promise<number> {
  const ids = await mountedIds(chat);
  return ids.length === 0 ? COUNT : Number(ids[0].slice(1));
}

describe("a long session's chat in VS Code (code-server)", { timeout: 5 * 60_000 }, () => {
  it(
    "opens with the newest messages only and pages older ones in when scrolled up",
    step("paging", async () => {
      const { page } = wb();
      await openViewContainer(page, "Agent");
      await waitForLeaf(await treeView(page), id(COUNT - 1), "the long session's leaf to be marked active");
      const chat = await chatView(page);
      const list = chat.locator(".chat-messages");
      await waitUntil(
        async () => ((await mountedIds(chat)).includes(id(COUNT - 1)) ? true : undefined),
        "the chat to show the last message",
      );
      const first = await oldestMounted(chat);
      assert.ok(first > COUNT - 200, `the chat opened with a window at the end (oldest drawn: ${first})`);
      assert.equal(await chat.locator(".chat-older").count(), 1, "the chat knows older messages exist");

      // Scroll to the top of what the chat holds, a few times: each time the host sends the page before it.
      let oldest = first;
      for (let round = 0; round < 3; round++) {
        const before = oldest;
        oldest = await waitUntil(
          async () => {
            await list.evaluate((el) => (el.scrollTop = 0));
            const now = await oldestMounted(chat);
            return now < before ? now : undefined;
          },
          `messages older than ${id(before)} to be paged in (round ${round + 1})`,
        );
      }
      // Page by page: three rounds came nowhere near the root, which a chat holding the whole path would show.
      assert.ok(oldest > 0 && oldest < first, `older messages came in: ${id(oldest)} … (opened at ${id(first)})`);
      // What was paged in is the path in order: the drawn ids run consecutively.
      const ids = await mountedIds(chat);
      const start = Number(ids[0].slice(1));
      assert.deepEqual(
        ids,
        ids.map((_, k) => id(start + k)),
      );
      await screenshot(page, "chat-window");
    }),
  );
});
