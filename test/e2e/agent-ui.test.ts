/**
 * End to end, in a real VS Code (code-server 4.100.3 + Debian Chromium), doing what a user does with the
 * demo workspace's branched session: open the Agent sidebar, chat with a local OpenAI-compatible server
 * (tool call included) and watch the tree grow, click an earlier node and summarize, label a node from its
 * context menu, run "Agent: Summarize and Switch Branch" from the command palette, survive a model error
 * while summarizing, reload the window, fork, and start a new session. Every step leaves a screenshot in
 * test-results/e2e/. The steps share one window and run in order; each asserts on the UI and on the
 * session file the UI wrote.
 */
import assert from "node:assert/strict";
import { statSync } from "node:fs";
import { describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import { DEMO_IDS, DEMO_LABEL } from "../../demo/generate-demo.js";
import {
  activeLeafId,
  chatView,
  chatInput,
  entryById,
  MODEL_TIMEOUT_MS,
  readSession,
  refreshDocsScreenshot,
  row,
  rowIds,
  sendAndAwait,
  sessionFiles,
  treeListFocused,
  treeView,
  waitForLeaf,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import { defaultFakeReply, openAIConversationView, type FakeRequestBody } from "../util/fake-openai-server.js";
import {
  answerInputBox,
  clearNotifications,
  clickMenuItem,
  expectVisible,
  openViewContainer,
  pickQuickItem,
  pickQuickItemContaining,
  quickInput,
  runCommand,
  quickOpenFile,
  reloadWorkbench,
  screenshot,
  setSidebarWidth,
  waitUntil,
} from "../util/workbench.js";

const { demo, fake, step, wb, page, openAgentTree } = demoWorkbenchSuite({
  name: "agent-ui",
  model: { chunkDelayMs: 5 },
  // `ls` runs without the approval prompt so the chat step can show a tool call end to end.
  settings: { "agentTree.tools.autoApprove": ["ls"] },
});
/** The leaf the custom-prompt step leaves behind (the reload step expects it back). */
let customSummaryId: string | undefined;

/** Text of all the requests' messages (to check what the model was sent). */
function requestText(body: FakeRequestBody): string {
  return JSON.stringify(body.messages ?? []);
}

/** The demo session file's last line. */
function lastLine(file: string): Record<string, unknown> {
  const lines = readSession(file);
  return lines[lines.length - 1];
}

async function tree(): Promise<FrameLocator> {
  return treeView(page());
}

/** On-screen x of each row's innermost connector, label and role word (NaN for a part the row lacks). */
async function rowXs(t: FrameLocator, ids: string[]): Promise<{ connector: number; label: number; role: number }[]> {
  return Promise.all(
    ids.map((id) =>
      // No named inner functions: tsx's name-keeping helper does not exist in the page().
      row(t, id).evaluate((el) => {
        const xs: number[] = [];
        for (const [sel, last] of [
          [".guides", true],
          [".label-tag", false],
          [".role", false],
        ] as const) {
          const n = el.querySelector(sel)?.firstChild;
          const chars = n instanceof Text ? [...n.data].flatMap((c, i) => (c.trim() === "" ? [] : [i])) : [];
          if (!(n instanceof Text) || chars.length === 0) {
            xs.push(NaN);
            continue;
          }
          const i = last ? chars[chars.length - 1] : chars[0];
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          xs.push(r.getBoundingClientRect().left);
        }
        return { connector: xs[0], label: xs[1], role: xs[2] };
      }),
    ),
  );
}

describe("Agent Tree in VS Code (code-server)", { timeout: 15 * 60_000 }, () => {
  it(
    "opens the Agent sidebar on the demo session at its leaf",
    step("sidebar", async () => {
      // What a user would look at next to the agent: a tree wide enough to read, and the file it works on.
      const t = await openAgentTree(560);
      await quickOpenFile(page(), "cli.ts");
      // The label, the branch summary and the compaction of the sample session are drawn.
      await expectVisible(
        row(t, DEMO_IDS.branchAUser).locator(".label-tag", { hasText: DEMO_LABEL }),
        "the demo label",
      );
      await expectVisible(row(t, DEMO_IDS.branchSummary), "the demo branch summary row");
      await expectVisible(row(t, DEMO_IDS.compaction), "the demo compaction row");
      const chat = await chatView(page());
      await expectVisible(chat.getByText("run it with"), "the leaf's message in the chat");
      await screenshot(page(), "01-sidebar-demo-session");
    }),
  );

  it(
    "chats with the local model, runs a tool, and the tree grows",
    step("chat", async () => {
      const t = await tree();
      const before = new Set(await rowIds(t));
      const requestsBefore = fake().requests.length;
      const chat = await chatView(page());

      await sendAndAwait(
        chat,
        "Please say hello.",
        "Echo: Please say hello.",
        "the model's streamed reply in the chat",
      );
      const replyLeaf = await waitForLeaf(t, (id) => !before.has(id), "the reply to become the new leaf");
      assert.ok(fake().requests.length > requestsBefore, "the model server got no request");
      const sent = requestText(fake().requests[fake().requests.length - 1]);
      assert.match(sent, /Please say hello\./, "the prompt was not sent to the model");
      // The context starts from the compaction summary (the path's latest compaction).
      assert.match(sent, /compacted into the following summary/, "the compaction summary did not reach the model");
      const replyEntry = entryById(demo().sessionFile, replyLeaf);
      assert.equal(replyEntry?.type, "message", "the reply is not in the session file");
      await screenshot(page(), "02-chat-reply");

      // A tool call: the fake model calls `ls` (auto-approved in the demo settings), then answers.
      await sendAndAwait(chat, '/tool ls {"path": "."}', "Tool result from ls", "the answer after the tool result");
      const toolLeaf = await waitForLeaf(t, (id) => id !== replyLeaf && !before.has(id), "the tool turn's leaf");
      const toolResultRow = t.locator('[role="treeitem"].kind-toolResult', { hasText: "tool ls:" });
      await expectVisible(toolResultRow, "the ls tool result in the tree");
      const grown = await rowIds(t);
      assert.ok(
        grown.length >= before.size + 4,
        `the tree did not grow enough (${before.size} → ${grown.length} rows)`,
      );
      assert.equal(readSession(demo().sessionFile).at(-1)?.id, toolLeaf, "the last line is not the new leaf");
      await screenshot(page(), "03-tool-call");
      refreshDocsScreenshot(await screenshot(page(), "readme-screenshot"), "screenshot.png");
    }),
  );

  it(
    "clicking an earlier node and choosing Summarize adds a summary node and moves the leaf",
    step("summarize", async () => {
      const t = await tree();
      const oldLeaf = await activeLeafId(t);
      assert.ok(oldLeaf, "no active leaf before the move");
      const requestsBefore = fake().requests.length;

      await row(t, DEMO_IDS.branchALeaf).click();
      await screenshot(page(), "04-summary-question");
      await pickQuickItem(page(), "Summarize");
      await treeListFocused(t, "after the summary question closed");
      const summaryId = await waitForLeaf(
        t,
        (id) => id !== oldLeaf && id !== DEMO_IDS.branchALeaf,
        "the branch summary to become the leaf",
        MODEL_TIMEOUT_MS,
      );
      await expectVisible(
        t.locator(`[role="treeitem"].kind-branch_summary[data-entry-id="${summaryId}"]`),
        "the new summary row",
      );
      assert.ok(fake().requests.length > requestsBefore, "no summary request reached the model");
      assert.match(
        requestText(fake().requests.at(-1) ?? {}),
        /Please say hello\./,
        "the summary prompt lacks the branch left",
      );
      const entry = entryById(demo().sessionFile, summaryId);
      assert.equal(entry?.type, "branch_summary");
      assert.equal(entry?.parentId, DEMO_IDS.branchALeaf, "the summary does not hang off the clicked node");
      assert.equal(entry?.fromId, oldLeaf, "fromId is not the abandoned leaf");
      assert.match(String(entry?.summary), /## Goal/, "the summary text is not the model's");
      await screenshot(page(), "05-summarized");
    }),
  );

  it(
    "labels a node from its context menu",
    step("label", async () => {
      const t = await tree();
      await row(t, DEMO_IDS.branchCUser).click({ button: "right" });
      await screenshot(page(), "06-context-menu");
      await clickMenuItem(page(), "Label Entry…");
      await answerInputBox(page(), "env var idea");
      await treeListFocused(t, "after the label's input box closed");
      await expectVisible(
        row(t, DEMO_IDS.branchCUser).locator(".label-tag", { hasText: "env var idea" }),
        "the new label",
      );
      const label = readSession(demo().sessionFile).find(
        (l) => l.type === "label" && l.targetId === DEMO_IDS.branchCUser,
      );
      assert.equal(label?.label, "env var idea", "no label entry in the session file");
      await screenshot(page(), "07-labelled");
    }),
  );

  it(
    "rows keep their place when selected, focused, labelled or active, and stay readable at 300 px",
    step("row-states", async () => {
      const t = await tree();
      await setSidebarWidth(page(), 300);
      const leaf = await activeLeafId(t);
      assert.ok(leaf, "no active leaf");
      const ids = [DEMO_IDS.branchBReply, DEMO_IDS.branchCUser, leaf];
      const before = await rowXs(t, ids);
      // Selected: a click on the row's words, then Escape on the summary choice (nothing moves).
      await row(t, DEMO_IDS.branchBReply).locator(".text").click();
      await expectVisible(quickInput(page()), "the summary choice");
      await screenshot(page(), "07a-row-selected");
      await page().keyboard.press("Escape");
      // Focused: the tree takes the keyboard; the focus ring is on the selected row.
      await t.locator('[role="tree"]').focus();
      await expectVisible(t.locator('[role="tree"]:focus .tree-row.selected'), "the focus ring on the selected row");
      await screenshot(page(), "07b-row-focused");
      const after = await rowXs(t, ids);
      for (const [i, id] of ids.entries())
        for (const k of ["connector", "label", "role"] as const)
          assert.ok(
            Math.abs(after[i][k] - before[i][k]) <= 1 || (Number.isNaN(after[i][k]) && Number.isNaN(before[i][k])),
            `row ${id}: its ${k} moved from x=${before[i][k]} to x=${after[i][k]}`,
          );
      // The labelled row (previous step) and the active row, label and `← active` in full view.
      const marker = await row(t, leaf).locator(".active-marker").boundingBox();
      const leafBox = await row(t, leaf).boundingBox();
      assert.ok(marker && leafBox, "the active row and its marker are drawn");
      assert.ok(marker.x + marker.width <= leafBox.x + leafBox.width, "← active is cut off at 300 px");
      await screenshot(page(), "07c-labelled-and-active-at-300px");
      await setSidebarWidth(page(), 560);
    }),
  );

  it(
    '"Agent: Summarize and Switch Branch" from the command palette switches branch',
    step("palette", async () => {
      const t = await tree();
      await runCommand(page(), "Agent: Summarize and Switch Branch");
      await pickQuickItemContaining(page(), "No argument parsing", "No argument parsing needed");
      await pickQuickItem(page(), "No summary");
      await waitForLeaf(t, DEMO_IDS.branchCLeaf, "branch C's last message to become the leaf");
      // The move is persisted: a leaf marker pointing at the target is the last line.
      const last = lastLine(demo().sessionFile);
      assert.equal(last.type, "custom", "the move was not persisted");
      assert.deepEqual((last as { data?: unknown }).data, { targetId: DEMO_IDS.branchCLeaf });
      await screenshot(page(), "08-switched-from-palette");
    }),
  );

  it(
    "a model error while summarizing leaves the leaf where it was",
    step("model-error", async () => {
      const t = await tree();
      await clearNotifications(page());
      const sizeBefore = statSync(demo().sessionFile).size;
      const requestsBefore = fake().requests.length;
      fake().setDefault(() => ({ status: 500, body: { error: { message: "fake outage", type: "server_error" } } }));
      try {
        await row(t, DEMO_IDS.branchBReply).click();
        await pickQuickItem(page(), "Summarize");
        const error = page().locator(".notification-toast-container .notification-list-item", {
          has: page().locator(".codicon-error"),
        });
        await expectVisible(error, "an error notification about the failed summary", MODEL_TIMEOUT_MS);
        await screenshot(page(), "09-summary-error");
      } finally {
        fake().setDefault((body) => defaultFakeReply(openAIConversationView(body)));
      }
      assert.ok(fake().requests.length > requestsBefore, "the summary never reached the model");
      assert.equal(await activeLeafId(t), DEMO_IDS.branchCLeaf, "the leaf moved although the summary failed");
      assert.equal(
        statSync(demo().sessionFile).size,
        sizeBefore,
        "the session file changed although the summary failed",
      );
    }),
  );

  it(
    '"Summarize with custom prompt…" sends the focus to the model',
    step("custom-prompt", async () => {
      const t = await tree();
      const oldLeaf = await activeLeafId(t);
      await row(t, DEMO_IDS.branchBReply).click();
      await pickQuickItem(page(), "Summarize with custom prompt…");
      await answerInputBox(page(), "the parseArgs decision");
      customSummaryId = await waitForLeaf(
        t,
        (id) => id !== oldLeaf && id !== DEMO_IDS.branchBReply,
        "the focused summary to become the leaf",
        MODEL_TIMEOUT_MS,
      );
      assert.match(
        requestText(fake().requests.at(-1) ?? {}),
        /the parseArgs decision/,
        "the focus did not reach the model",
      );
      const entry = entryById(demo().sessionFile, customSummaryId);
      assert.equal(entry?.type, "branch_summary");
      assert.equal(entry?.parentId, DEMO_IDS.branchBReply);
      assert.equal(entry?.fromId, oldLeaf);
      await screenshot(page(), "10-custom-prompt-summary");
    }),
  );

  it(
    "reloading the window finds the same leaf",
    step("reload", async () => {
      await reloadWorkbench(page(), wb().url);
      await openViewContainer(page(), "Agent");
      const t = await tree();
      await waitForLeaf(t, customSummaryId ?? DEMO_IDS.branchCLeaf, "the leaf after the reload", MODEL_TIMEOUT_MS);
      await expectVisible(row(t, DEMO_IDS.branchCUser).locator(".label-tag", { hasText: "env var idea" }), "the label");
      await screenshot(page(), "11-after-reload");
    }),
  );

  it(
    '"Agent: Fork Session" copies the path into a new session',
    step("fork", async () => {
      const t = await tree();
      const filesBefore = new Set(sessionFiles(demo().sessionDir));
      await runCommand(page(), "Agent: Fork Session");
      await pickQuickItemContaining(page(), "skip the flag", "user: Option C: skip the flag");
      const forked = await waitUntil(
        async () => sessionFiles(demo().sessionDir).find((f) => !filesBefore.has(f)),
        "a new session file from the fork",
      );
      const header = readSession(forked)[0];
      assert.equal(header.type, "session");
      assert.equal(header.parentSession, demo().sessionFile, "the fork does not name its parent session");
      // The new session holds only the path: the other branches are gone from the tree.
      await waitUntil(
        async () => ((await rowIds(t)).includes(DEMO_IDS.branchAUser) ? undefined : true),
        "the tree to show the forked session (without branch A)",
      );
      const chat = await chatView(page());
      await waitUntil(
        async () => ((await chatInput(chat).inputValue()).includes("Option C") ? true : undefined),
        "the forked user message in the chat input",
      );
      // The fork keeps the demo's name (pi copies it): the tree's title marks the fork. Cut short in a narrow
      // sidebar, the title shows whole on hover (VS Code's hover of a view's description).
      const title = page().locator(".pane-header", { hasText: "Session Tree" }).locator(".description");
      await expectVisible(
        title.filter({ hasText: "Demo: a --verbose flag for the greeting CLI (fork)" }),
        "the fork's title",
      );
      await title.hover();
      await expectVisible(page().locator(".monaco-hover").filter({ hasText: "(fork)" }), "the title's hover");
      await page().mouse.move(0, 0);
      await screenshot(page(), "12-forked");
    }),
  );

  it(
    '"Agent: New Session" starts an empty session that grows as we chat',
    step("new-session", async () => {
      await runCommand(page(), "Agent: New Session");
      const t = await tree();
      await waitUntil(async () => ((await rowIds(t)).length === 0 ? true : undefined), "an empty tree");
      const filesBefore = new Set(sessionFiles(demo().sessionDir));
      const chat = await chatView(page());
      await sendAndAwait(chat, "Start fresh please.", "Echo: Start fresh please.", "the reply in the new session");
      await waitUntil(async () => ((await rowIds(t)).length >= 2 ? true : undefined), "user and reply rows");
      const created = sessionFiles(demo().sessionDir).find((f) => !filesBefore.has(f));
      assert.ok(created, "the new session wrote no file");
      const lines = readSession(created);
      assert.equal(lines[0].type, "session");
      assert.equal(await activeLeafId(t), lines.at(-1)?.id, "the leaf is not the last message");
      await screenshot(page(), "13-new-session");
    }),
  );
});
