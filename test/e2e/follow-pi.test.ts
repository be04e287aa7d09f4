/**
 * End to end in code-server: pi in a terminal appends to the session open in the sidebar (appendFileSync of
 * whole JSON lines, no lock, as pi does). Without any reload the new rows appear in the tree, the leaf follows
 * them and the chat shows pi's messages; an append on another branch keeps the leaf and says so, offering
 * "Go There". Screenshots: test-results/e2e/follow-pi-*.png.
 */
import assert from "node:assert/strict";
import { appendFileSync } from "node:fs";
import { describe, it } from "node:test";
import { DEMO_IDS } from "../../demo/generate-demo.js";
import { activeLeafId, chatView, readSession, row, treeView, waitForLeaf } from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { expectVisible, notificationsText, screenshot, waitUntil } from "../util/workbench.js";

/** Noticing is within a second or so (file events, else the poll); a busy machine gets more. */
const FOLLOW_TIMEOUT_MS = 30_000;

// Go There moves as a click does; without the summary question, so the test need not answer it.
const { step, page, demo, openAgentTree } = demoWorkbenchSuite({
  name: "follow-pi",
  settings: { "agentTree.branchSummary.ask": "never" },
});

/** A message line as pi 1.6 appends it. */
function piLine(id: string, parentId: string, role: "user" | "assistant", text: string): string {
  const timestamp = Date.now();
  const message =
    role === "user"
      ? { role, content: text, timestamp }
      : {
          role,
          content: [{ type: "text", text }],
          api: "openai-completions",
          provider: "local",
          model: "fake-model",
          usage: {
            input: 1,
            output: 1,
            cacheRead: 0,
            cacheWrite: 0,
            totalTokens: 2,
            cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
          },
          stopReason: "stop",
          timestamp,
        };
  return `${JSON.stringify({ type: "message", id, parentId, timestamp: new Date(timestamp).toISOString(), message })}\n`;
}

describe("the open session follows pi's appends (code-server)", { timeout: 10 * 60_000 }, () => {
  it(
    "pi's messages appear in the tree and the chat without a reload; the leaf follows them",
    step("follow", async () => {
      const tree = await openAgentTree();
      const chat = await chatView(page());
      assert.equal(await activeLeafId(tree), DEMO_IDS.leaf);
      const file = demo().sessionFile;
      appendFileSync(file, piLine("pi0000a1", DEMO_IDS.leaf, "user", "Hello from pi in the terminal"));
      appendFileSync(file, piLine("pi0000a2", "pi0000a1", "assistant", "pi answered in the terminal"));
      await expectVisible(row(tree, "pi0000a2"), "pi's reply as a new tree row", FOLLOW_TIMEOUT_MS);
      await waitForLeaf(tree, "pi0000a2", "the leaf following pi's entries", FOLLOW_TIMEOUT_MS);
      await expectVisible(
        chat.locator(".msg", { hasText: "Hello from pi in the terminal" }),
        "pi's user message in the chat",
        FOLLOW_TIMEOUT_MS,
      );
      await expectVisible(
        chat.locator(".msg", { hasText: "pi answered in the terminal" }),
        "pi's reply in the chat",
        FOLLOW_TIMEOUT_MS,
      );
      await screenshot(page(), "follow-pi-followed");
      // Nothing was written by the window: the file holds the demo's lines and pi's, nothing else.
      assert.deepEqual(
        readSession(file)
          .slice(-2)
          .map((l) => l.id),
        ["pi0000a1", "pi0000a2"],
      );
    }),
  );

  it(
    "an append on another branch keeps the leaf and says so, with Go There",
    step("other-branch", async () => {
      const tree = await treeView(page());
      const file = demo().sessionFile;
      // pi's leaf was an older entry: its turn (a question and its answer) is a branch beside the user's.
      // One write for both, so that one notice names them (two would each offer Go There).
      appendFileSync(
        file,
        piLine("pi0000b1", DEMO_IDS.askFlag, "user", "pi took another road") +
          piLine("pi0000b2", "pi0000b1", "assistant", "pi answered on its road"),
      );
      await expectVisible(row(tree, "pi0000b2"), "the other branch's rows", FOLLOW_TIMEOUT_MS);
      const text = await waitUntil(
        async () => {
          const t = await notificationsText(page());
          return /pi added 2 entries to .* on another branch/.test(t) ? t : undefined;
        },
        "the notification about the other branch",
        FOLLOW_TIMEOUT_MS,
      );
      assert.match(text, /on another branch/);
      await expectVisible(
        page().locator(".notification-list-item .monaco-button", { hasText: "Go There" }),
        "the Go There button",
      );
      assert.equal(await activeLeafId(tree), "pi0000a2", "the leaf stays where the user was");
      await screenshot(page(), "follow-pi-other-branch");
      await page().locator(".notification-list-item .monaco-button", { hasText: "Go There" }).first().click();
      await waitForLeaf(tree, "pi0000b2", "Go There moving the leaf to the end of pi's branch", FOLLOW_TIMEOUT_MS);
      const chat = await chatView(page());
      await expectVisible(chat.locator(".msg", { hasText: "pi answered on its road" }), "pi's branch in the chat");
    }),
  );
});
