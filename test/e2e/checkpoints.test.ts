/**
 * End to end, in a real VS Code (code-server + Chromium): files follow the session tree. In a new session of the
 * demo workspace the local fake model answers one prompt, then calls `write` on notes.txt for a second one (the
 * tool result row gets a badge with the count). Clicking the first reply asks "Restore files to this point?" with
 * notes.txt in the list (the screenshot for the README, docs/checkpoints-restore.png); restoring brings notes.txt
 * back to its earlier content on disk. Clicking the leaf of the first branch and restoring brings the written
 * content back, and "Agent: Undo File Restore" from the palette undoes that. The tool result row's "Show Changes at
 * This Point" opens the diff of notes.txt, both sides read from the checkpoints. Screenshots in
 * test-results/e2e/checkpoints-*.png.
 */
import assert from "node:assert/strict";
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { FrameLocator, Page } from "playwright-core";
import { generateDemo, type DemoWorkspace } from "../../demo/generate-demo.js";
import {
  activeLeafId,
  chatView,
  row,
  sendPrompt,
  startAgentWorkbench,
  treeView,
  uiStep,
  waitForLeaf,
  type AgentWorkbench,
} from "../util/agent-ui.js";
import { REPO_ROOT } from "../util/code-server.js";
import { startFakeOpenAI, type FakeServer } from "../util/fake-openai-server.js";
import {
  clickDialogButton,
  clickMenuItem,
  dialog,
  expectVisible,
  openViewContainer,
  quickOpenFile,
  runCommand,
  screenshot,
  setSidebarWidth,
  waitUntil,
} from "../util/workbench.js";

const MODEL_TIMEOUT_MS = 60_000;
const ORIGINAL = "The original notes, written by hand.\n";
const WRITTEN = "Rewritten by the agent on the first branch.\n";

let tmp: string;
let fake: FakeServer;
let demo: DemoWorkspace;
let ui: AgentWorkbench | undefined;
let page: Page;
/** The first reply (before any file changed) and the leaf of the branch that wrote notes.txt. */
let firstReply: string;
let writtenLeaf: string;

function step(name: string, fn: () => Promise<void>): () => Promise<void> {
  return uiStep(() => ui, `checkpoints-${name}`, fn);
}

function notes(): string {
  return readFileSync(join(demo.workspace, "notes.txt"), "utf8");
}

async function waitForNotes(text: string, what: string): Promise<void> {
  await waitUntil(
    async () => (notes() === text ? true : undefined),
    `${what} (notes.txt is ${JSON.stringify(notes())})`,
  );
}

/** Clicks a row and answers the restore question with "Restore files to this point". */
async function switchAndRestore(t: FrameLocator, entryId: string, shot?: string): Promise<string> {
  await row(t, entryId).click();
  await expectVisible(dialog(page).getByText("Restore files to this point?"), "the restore question");
  const text = (await dialog(page).innerText()).replace(/\s+/g, " ");
  // The progress of the comparison stays a moment after it finished (VS Code shows progress for a minimum time).
  const comparing = page.locator(".notification-toast", { hasText: "Comparing the workspace files" });
  await waitUntil(
    async () => ((await comparing.count()) === 0 ? true : undefined),
    "the comparison's progress to close",
  );
  const path = shot ? await screenshot(page, shot) : undefined;
  await clickDialogButton(page, "Restore files to this point");
  if (path && (process.env.AGENT_TREE_UPDATE_SCREENSHOT === "1" || !existsSync(docsShot())))
    copyFileSync(path, docsShot());
  return text;
}

/** Waits until the leaf row shows `text` and returns its id. */
async function leafShowing(t: FrameLocator, text: string): Promise<string> {
  return waitUntil(
    async () => {
      const id = await activeLeafId(t);
      return id !== undefined && (await row(t, id).innerText()).includes(text) ? id : undefined;
    },
    `the row showing "${text}" to become the leaf`,
    MODEL_TIMEOUT_MS,
  );
}

function docsShot(): string {
  return join(REPO_ROOT, "docs", "checkpoints-restore.png");
}

describe("files follow the session tree (code-server)", { timeout: 10 * 60_000 }, () => {
  before(async () => {
    tmp = mkdtempSync(join(tmpdir(), "agent-tree-e2e-checkpoints-"));
    fake = await startFakeOpenAI({ chunkDelayMs: 5 });
    demo = generateDemo(join(tmp, "demo"), {
      baseUrl: fake.baseURL,
      settings: {
        "agentTree.tools.autoApprove": ["write"],
        // Only the files question on a click: the summary question has its own tests.
        "agentTree.branchSummary.ask": "never",
      },
    });
    // A new session: the window opens on an empty tree.
    rmSync(demo.sessionFile);
    writeFileSync(join(demo.workspace, "notes.txt"), ORIGINAL);
    ui = await startAgentWorkbench({ workspace: demo.workspace, profileDir: join(tmp, "profile") });
    page = ui.page;
  });

  after(async () => {
    await ui?.close();
    await fake?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true, maxRetries: 3 });
  });

  it(
    "the model writes a file on one branch; its tool result row shows the count",
    step("write", async () => {
      await openViewContainer(page, "Agent");
      await setSidebarWidth(page, 520);
      await quickOpenFile(page, "notes.txt");
      const t = await treeView(page);
      const chat = await chatView(page);
      await sendPrompt(chat, "What is in this project?");
      await expectVisible(chat.getByText("Echo: What is in this project?"), "the first reply", MODEL_TIMEOUT_MS);
      firstReply = await leafShowing(t, "Echo: What is in this project?");

      await sendPrompt(chat, `/tool write ${JSON.stringify({ path: "notes.txt", content: WRITTEN })}`);
      await expectVisible(chat.getByText("Tool result from write"), "the answer after the write", MODEL_TIMEOUT_MS);
      writtenLeaf = await leafShowing(t, "Tool result from write");
      await waitForNotes(WRITTEN, "the agent's write on disk");
      const badge = t.locator('[role="treeitem"].kind-toolResult .files-badge');
      await expectVisible(badge, "the changed-files badge on the write's tool result row");
      assert.equal((await badge.innerText()).trim(), "1");
      await screenshot(page, "checkpoints-01-written");
    }),
  );

  it(
    "clicking the first reply and restoring brings the earlier content back",
    step("restore-back", async () => {
      const t = await treeView(page);
      const question = await switchAndRestore(t, firstReply, "checkpoints-02-restore-question");
      assert.match(question, /1 file would change/);
      assert.match(question, /notes\.txt \(changed back\)/);
      assert.match(question, /Keep current files/);
      await waitForLeaf(t, firstReply, "the first reply to become the leaf");
      await waitForNotes(ORIGINAL, "notes.txt back to its content before the write");
      await expectVisible(
        page.locator(".notification-list-item", { hasText: "Restored 1 file to this point." }),
        "the message after the restore, with its Undo action",
      );
      await screenshot(page, "checkpoints-03-restored");
    }),
  );

  it(
    "clicking the leaf of the first branch and restoring brings the written content back; Undo File Restore undoes it",
    step("restore-forward", async () => {
      const t = await treeView(page);
      await switchAndRestore(t, writtenLeaf);
      await waitForLeaf(t, writtenLeaf, "the write turn's leaf to be the leaf again");
      await waitForNotes(WRITTEN, "the written content back on disk");
      await screenshot(page, "checkpoints-04-forward");

      await runCommand(page, "Agent: Undo File Restore");
      await waitForNotes(ORIGINAL, "Undo File Restore putting the earlier content back");
      await screenshot(page, "checkpoints-05-undone");
    }),
  );

  it(
    "Show Changes at This Point opens the diff of the turn's file, both sides read from the checkpoints",
    step("show-changes", async () => {
      const t = await treeView(page);
      await t.locator('[role="treeitem"].kind-toolResult').first().click({ button: "right" });
      await clickMenuItem(page, "Show Changes at This Point");
      await expectVisible(
        page.locator(".part.editor .tab", { hasText: "notes.txt (changes of this turn)" }),
        "the diff editor's tab",
      );
      const diff = page.locator(".part.editor .monaco-diff-editor").first();
      await expectVisible(diff.getByText("The original notes, written by hand."), "the file before the turn");
      await expectVisible(diff.getByText("Rewritten by the agent on the first branch."), "the file after the turn");
      await screenshot(page, "checkpoints-06-show-changes");
    }),
  );
});
