/**
 * End to end, in a real VS Code (code-server + Chromium) with the local fake model: **Explore in Parallel…** on the
 * first reply's row with 3 branches whose `write` calls write different content to notes.txt. While and after they
 * run, the workspace's notes.txt keeps its content; the tree and the file hold 3 new branches from that node, and
 * running branches show so on their newest rows (the README's screenshot of three running branches is taken then).
 * **Adopt This Branch** on the second → it lists notes.txt (changed) and the file is untouched until **Adopt** is
 * clicked; then notes.txt has that branch's content and the leaf is on it; the real pi opens the file and sees the
 * three branches. **Ask Aside…** during a slow reply → the aside's answer shows (in the chat, marked as an aside),
 * the main reply completes, the leaf stays on the main branch and its context holds no aside. Two branches against a
 * slow reply: a click on a row of one while it runs → the chat shows its reply streaming, the input is disabled,
 * the leaf did not move (tree and file); Back to my branch → the main branch again. Screenshots in
 * test-results/e2e/parallel-*.png.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { FrameLocator, Page } from "playwright-core";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { FakeReply, FakeRequestBody } from "../util/fake-provider-common.js";
import {
  activeLeafId,
  chatView,
  pickFromRowMenu,
  readSession,
  refreshDocsScreenshot,
  row,
  sendPrompt,
  treeView,
  waitForLeaf,
  waitForLeafRow,
} from "../util/agent-ui.js";
import {
  answerExploreQuestions,
  BRANCHES_TIMEOUT_MS,
  branchesWorkbenchSuite,
  branchRunStates,
  expectAdoptQuestion,
  firstReplyLeaf,
  newestBelow,
  wireMessages,
} from "../util/explore-ui.js";
import {
  answerInputBox,
  clickDialogButton,
  expectVisible,
  runCommand,
  screenshot,
  waitUntil,
} from "../util/workbench.js";
import { latestRelease, piOpen } from "../interop/pi.js";

const ORIGINAL = "The original notes, written by hand.\n";

/** Each exploring branch writes its own content; the second call of a branch answers; asides read nothing. */
let written = 0;
function replies(body: FakeRequestBody): FakeReply {
  const last = wireMessages(body).at(-1);
  const lastText = JSON.stringify(last?.content ?? "");
  if (last?.role === "tool") return { text: `Done: ${String(last.content).slice(0, 40)}`, chunkDelayMs: 150 };
  if (lastText.includes("EXPLORE")) {
    written++;
    return {
      text: `Branch ${written} writes.`,
      toolCalls: [{ name: "write", args: { path: "notes.txt", content: `Written by branch ${written}.\n` } }],
      chunkDelayMs: 300,
    };
  }
  if (lastText.includes("WATCH"))
    return { text: "Watched branch streams word by word. ".repeat(10), chunks: 60, chunkDelayMs: 250 };
  if (lastText.includes("ASIDE")) return { text: "The aside answer: heron.", chunkDelayMs: 20 };
  if (lastText.includes("SLOW"))
    return { text: "A slow main reply, word by word. ".repeat(12), chunks: 60, chunkDelayMs: 150 };
  return { text: `Echo: ${lastText.slice(1, 40)}`, chunkDelayMs: 5 };
}

const suite = branchesWorkbenchSuite("parallel", { "notes.txt": ORIGINAL }, replies);
const { step, wb, workspaceText } = suite;
let page: Page;
let node: string;
let sessionFile: string;

function notes(): string {
  return workspaceText("notes.txt");
}

/** The branch run lines of the session file, latest per branch. */
const runStates = (): Map<string, string> => branchRunStates(sessionFile);

/**
 * Explore in Parallel… from a row's menu with `prompt` and `count` branches, the current model (picked) accepted;
 * returns the first entries of the branches it started, once all are in the file.
 */
async function explore(t: FrameLocator, entryId: string, prompt: string, count: number): Promise<string[]> {
  const earlier = new Set(runStates().keys());
  await pickFromRowMenu(page, t, entryId, "Explore in Parallel…");
  const start = await answerExploreQuestions(page, prompt, count);
  await start();
  return waitUntil(
    async () => {
      const ids = [...runStates().keys()].filter((id) => !earlier.has(id));
      return ids.length === count ? ids : undefined;
    },
    `${count} branches started`,
    BRANCHES_TIMEOUT_MS,
  );
}

describe("Explore in Parallel and Ask Aside in VS Code (code-server)", { timeout: 12 * 60_000 }, () => {
  before(() => {
    page = wb().page;
  });

  it(
    "three branches run from a row in their own copies; the workspace file keeps its content",
    step("explore", async () => {
      const first = await firstReplyLeaf(suite, "What is in this project?", BRANCHES_TIMEOUT_MS);
      ({ node, sessionFile } = first);
      const t = first.tree;

      // While they run: three branches in the file, the user's file untouched.
      const branches = await explore(t, node, "EXPLORE: rewrite notes.txt your way", 3);
      for (const id of branches) await expectVisible(row(t, id), `branch ${id} in the tree`);
      await expectVisible(t.locator(".running-tag").first(), "a running branch's newest row showing it runs");
      assert.equal(notes(), ORIGINAL, "the workspace file while the branches run");
      refreshDocsScreenshot(await screenshot(page, "parallel-01-running"), "explore-parallel.png");

      await waitUntil(
        async () => ([...runStates().values()].every((s) => s === "done") ? true : undefined),
        "every branch to finish",
        BRANCHES_TIMEOUT_MS,
      );
      assert.equal(notes(), ORIGINAL, "the workspace file after the branches ran");
      await t.locator(".running-tag").first().waitFor({ state: "detached" });
      const lines = readSession(sessionFile);
      for (const id of branches) {
        const first = lines.find((l) => l.id === id);
        assert.equal(first?.parentId, node, "each branch starts at the node");
      }
      assert.equal(await activeLeafId(t), node, "the leaf stayed where it was");
      await expectVisible(page.getByText("Explore in Parallel ended: 3 done."), "the finish message");
      await screenshot(page, "parallel-02-finished");
    }),
  );

  it(
    "Adopt This Branch on the second brings its file into the workspace and moves the leaf to it; pi sees the branches",
    step("adopt", async () => {
      const t = await treeView(page);
      const lines = readSession(sessionFile);
      const branches = [...runStates().keys()];
      const second = branches[1];
      const tip = newestBelow(lines, second);
      // The branch's first reply: below its prompt, after the system entry the branch records its prompt in.
      const byId = new Map(lines.map((l) => [l.id, l]));
      const below = (l: (typeof lines)[number], id: string): boolean => {
        for (let p = byId.get(l.parentId as string); p; p = byId.get(p.parentId as string))
          if (p.id === id) return true;
        return false;
      };
      const call = lines.find(
        (l) => l.type === "message" && (l.message as { role?: string }).role === "assistant" && below(l, second),
      );
      const content = JSON.stringify(call?.message).match(/Written by branch \d\./)?.[0];
      assert.ok(content, "the second branch wrote notes.txt");
      // The node's row is on no branch: its menu has none of the branches' items (they show on their rows only).
      const menuItem = (label: string) => page.locator(".monaco-menu .action-label", { hasText: label });
      await row(t, node).click({ button: "right" });
      await expectVisible(menuItem("Label Entry"), "the node row's menu");
      for (const item of ["Adopt This Branch", "Archive Other Branches", "Run Check Again", "Continue as Branch"])
        assert.equal(await menuItem(item).count(), 0, `no ${item} on the node's row`);
      await page.keyboard.press("Escape");
      await menuItem("Label Entry").waitFor({ state: "hidden" });
      await pickFromRowMenu(page, t, tip.id as string, "Adopt This Branch");
      // It lists the files it will change, and changes none before the answer.
      await expectAdoptQuestion(page, "notes.txt (changed)");
      await screenshot(page, "parallel-03-adopt-question");
      assert.equal(notes(), ORIGINAL, "no file changed before the answer");
      await clickDialogButton(page, "Adopt");
      await waitUntil(async () => (notes() === `${content}\n` ? true : undefined), "the branch's content on disk");
      await waitForLeaf(t, tip.id as string, "the leaf on the adopted branch's newest entry");
      await screenshot(page, "parallel-03-adopted");

      const pi = piOpen(latestRelease(), sessionFile);
      const users = pi.entries.filter((e) => e.parentId === node && e.type === "message" && e.message.role === "user");
      assert.deepEqual(
        users.map((e) => e.id).sort(),
        [...branches].sort(),
        `pi ${latestRelease().version} sees the three branches from the node`,
      );
    }),
  );

  it(
    "Ask Aside during a slow reply answers, the main reply completes, the leaf and its context stay the main branch's",
    step("aside", async () => {
      const t = await treeView(page);
      const chat = await chatView(page);
      await sendPrompt(chat, "SLOW: tell me a long story");
      await expectVisible(chat.getByRole("button", { name: "Abort" }), "the main reply streaming");
      await runCommand(page, "Agent: Ask Aside…");
      await answerInputBox(page, "ASIDE: what is the word?");
      await expectVisible(
        page.getByText("Aside: The aside answer: heron.").first(),
        "the aside's answer",
        BRANCHES_TIMEOUT_MS,
      );
      await screenshot(page, "parallel-04-aside");
      const leaf = await waitForLeafRow(
        t,
        "A slow main reply",
        "the main reply to complete as the leaf",
        BRANCHES_TIMEOUT_MS,
      );
      const view = await SessionManager.open(sessionFile, { readOnly: true });
      try {
        assert.equal(view.getLeafId(), leaf, "the file's leaf is the main reply");
        const context = JSON.stringify(view.buildSessionContext().messages);
        assert.ok(!context.includes("ASIDE"), "the main context holds no aside");
        const aside = view.getEnvelopes().find((e) => e.role === "user" && e.preview.includes("ASIDE"));
        assert.ok(aside, "the aside is in the file");
        assert.ok(!view.getPathEnvelopes().some((e) => e.id === aside.id), "off the active path");
        // The chat shows the answer marked as an aside, apart from the path's messages.
        const shown = chat.locator(`.msg-aside[data-aside-id="${aside.id}"]`);
        await expectVisible(shown, "the aside in the chat");
        assert.match(await shown.innerText(), /Aside[\s\S]*ASIDE: what is the word\?[\s\S]*heron/);
        assert.equal(await chat.locator(`[data-message-id="${aside.id}"]`).count(), 0, "not a message of the path");
      } finally {
        await view.close();
      }
    }),
  );

  it(
    "a click on a running branch's row shows it streaming in the chat, read-only, the leaf stays; Back returns",
    step("watch", async () => {
      const t = await treeView(page);
      const chat = await chatView(page);
      const leaf = await activeLeafId(t);
      assert.ok(leaf, "a leaf before exploring");
      const branches = await explore(t, leaf, "WATCH: take your time", 2);
      const watched = branches[0];
      await expectVisible(row(t, watched), "the branch's first row");
      await row(t, watched).click();

      const banner = chat.locator(".watch-banner");
      await expectVisible(banner, "the watched branch's banner");
      assert.match(await banner.innerText(), /Branch [12] of 2 is running — read-only until it finishes/);
      const reply = chat.locator(".msg", { hasText: "Watched branch streams" }).last();
      await expectVisible(reply, "the branch's reply in the chat", BRANCHES_TIMEOUT_MS);
      const first = await reply.innerText();
      await waitUntil(
        async () => ((await reply.innerText()) !== first ? true : undefined),
        "the reply to grow as the branch streams",
        BRANCHES_TIMEOUT_MS,
      );
      assert.equal(runStates().get(watched), "running", "the branch still runs while its reply shows");
      await expectVisible(chat.locator(".msg", { hasText: "WATCH: take your time" }), "the branch's prompt");
      assert.equal(await chat.locator('textarea[aria-label="Message"]').isDisabled(), true, "the input is read-only");
      await screenshot(page, "parallel-05-watch");
      assert.equal(await activeLeafId(t), leaf, "the tree's leaf did not move");
      const view = await SessionManager.open(sessionFile, { readOnly: true });
      try {
        assert.equal(view.getLeafId(), leaf, "the file's leaf did not move");
      } finally {
        await view.close();
      }

      await banner.getByText("Back to my branch").click();
      await banner.waitFor({ state: "detached" });
      assert.equal(await chat.locator('textarea[aria-label="Message"]').isEnabled(), true);
      await expectVisible(chat.locator(".msg", { hasText: "A slow main reply" }), "the main branch's reply");
      assert.equal(await chat.locator(".msg", { hasText: "WATCH: take your time" }).count(), 0, "the main branch");
      await waitUntil(
        async () => (branches.every((id) => runStates().get(id) === "done") ? true : undefined),
        "both branches to finish",
        BRANCHES_TIMEOUT_MS,
      );
      assert.equal(await activeLeafId(t), leaf, "the leaf stayed after they ended");
    }),
  );
});
