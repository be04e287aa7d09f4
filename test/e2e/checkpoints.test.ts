/**
 * End to end, in a real VS Code (code-server + Chromium): files follow the session tree. In a new session of the
 * demo workspace the local fake model answers one prompt, then calls `write` on notes.txt for a second one (the
 * tool result row gets a badge with the count). Clicking the first reply asks "Restore files to this point?" with
 * notes.txt in the list (the screenshot for the README, docs/checkpoints-restore.png); restoring brings notes.txt
 * back to its earlier content on disk. Clicking the leaf of the first branch and restoring brings the written
 * content back, and "Agent: Undo File Restore" from the palette undoes that. The tool result row's "Show Changes at
 * This Point" opens the diff of notes.txt, both sides read from the checkpoints. Then, on a new branch from the first
 * reply (notes.txt as it was), "Compare with Current Branch" on the writing branch lists notes.txt under "Files that
 * differ" and a click opens its diff; "Bring Conclusions Here" from there with "Bring Files" brings the written
 * content; after an undo and an edit by hand, bringing it again leaves conflict markers and "Open Conflicts" opens
 * VS Code's merge editor on the three versions (the question's screenshot is docs/bring-files.png). Screenshots in
 * test-results/e2e/checkpoints-*.png.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { FrameLocator } from "playwright-core";
import {
  activeLeafId,
  chatView,
  MODEL_TIMEOUT_MS,
  pickFromRowMenu,
  refreshDocsScreenshot,
  row,
  sendAndAwait,
  treeView,
  waitForLeaf,
} from "../util/agent-ui.js";
import { demoWorkbenchSuite } from "../util/demo-workbench.js";
import {
  clickDialogButton,
  clickMenuItem,
  dialog,
  expectVisible,
  findWebview,
  pickQuickItem,
  quickOpenFile,
  runCommand,
  screenshot,
  waitUntil,
} from "../util/workbench.js";

const ORIGINAL = "The original notes, written by hand.\n";
const WRITTEN = "Rewritten by the agent on the first branch.\n";
const BY_HAND = "Changed by hand on the other branch.\n";

const { demo, step, page, workspaceText, openAgentTree } = demoWorkbenchSuite({
  name: "checkpoints",
  model: { chunkDelayMs: 5 },
  settings: {
    "agentTree.tools.autoApprove": ["write"],
    // Only the files question on a click: the summary question has its own tests.
    "agentTree.branchSummary.ask": "never",
  },
  // A new session: the window opens on an empty tree.
  newSession: true,
  files: { "notes.txt": ORIGINAL },
});

/** The first reply (before any file changed) and the leaf of the branch that wrote notes.txt. */
let firstReply: string;
let writtenLeaf: string;

function notes(): string {
  return workspaceText("notes.txt");
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
  await expectVisible(dialog(page()).getByText("Restore files to this point?"), "the restore question");
  const text = (await dialog(page()).innerText()).replace(/\s+/g, " ");
  // The progress of the comparison stays a moment after it finished (VS Code shows progress for a minimum time).
  const comparing = page().locator(".notification-toast", { hasText: "Comparing the workspace files" });
  await waitUntil(
    async () => ((await comparing.count()) === 0 ? true : undefined),
    "the comparison's progress to close",
  );
  const path = shot ? await screenshot(page(), shot) : undefined;
  await clickDialogButton(page(), "Restore files to this point");
  if (path) refreshDocsScreenshot(path, "checkpoints-restore.png");
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

/** Waits for the diff editor tab `tab`: notes.txt as written by hand on one side, as the agent wrote it on the other. */
async function expectNotesDiff(tab: string, originalSide: string, writtenSide: string): Promise<void> {
  await expectVisible(page().locator(".part.editor .tab", { hasText: tab }), "the diff editor's tab");
  const diff = page().locator(".part.editor .monaco-diff-editor").first();
  await expectVisible(diff.getByText("The original notes, written by hand."), originalSide);
  await expectVisible(diff.getByText("Rewritten by the agent on the first branch."), writtenSide);
}

/** Bring Conclusions Here → Summarize from `entryId`; returns the text of "Also bring its file changes?". */
async function bringConclusionsAsked(t: FrameLocator, entryId: string): Promise<string> {
  await pickFromRowMenu(page(), t, entryId, "Bring Conclusions Here");
  await pickQuickItem(page(), "Summarize");
  await expectVisible(dialog(page()).getByText("Also bring its file changes?"), "the files question");
  return (await dialog(page()).innerText()).replace(/\s+/g, " ");
}

describe("files follow the session tree (code-server)", { timeout: 10 * 60_000 }, () => {
  it(
    "the model writes a file on one branch; its tool result row shows the count",
    step("write", async () => {
      const t = await openAgentTree(520);
      await quickOpenFile(page(), "notes.txt");
      const chat = await chatView(page());
      await sendAndAwait(chat, "What is in this project?", "Echo: What is in this project?", "the first reply");
      firstReply = await leafShowing(t, "Echo: What is in this project?");

      const write = `/tool write ${JSON.stringify({ path: "notes.txt", content: WRITTEN })}`;
      await sendAndAwait(chat, write, "Tool result from write", "the answer after the write");
      writtenLeaf = await leafShowing(t, "Tool result from write");
      await waitForNotes(WRITTEN, "the agent's write on disk");
      const badge = t.locator('[role="treeitem"].kind-toolResult .files-badge');
      await expectVisible(badge, "the changed-files badge on the write's tool result row");
      assert.equal((await badge.innerText()).trim(), "1");
      await screenshot(page(), "checkpoints-01-written");
    }),
  );

  it(
    "clicking the first reply and restoring brings the earlier content back",
    step("restore-back", async () => {
      const t = await treeView(page());
      const question = await switchAndRestore(t, firstReply, "checkpoints-02-restore-question");
      assert.match(question, /1 file would change/);
      assert.match(question, /notes\.txt \(changed back\)/);
      assert.match(question, /Keep current files/);
      await waitForLeaf(t, firstReply, "the first reply to become the leaf");
      await waitForNotes(ORIGINAL, "notes.txt back to its content before the write");
      await expectVisible(
        page().locator(".notification-list-item", { hasText: "Restored 1 file to this point." }),
        "the message after the restore, with its Undo action",
      );
      await screenshot(page(), "checkpoints-03-restored");
    }),
  );

  it(
    "clicking the leaf of the first branch and restoring brings the written content back; Undo File Restore undoes it",
    step("restore-forward", async () => {
      const t = await treeView(page());
      await switchAndRestore(t, writtenLeaf);
      await waitForLeaf(t, writtenLeaf, "the write turn's leaf to be the leaf again");
      await waitForNotes(WRITTEN, "the written content back on disk");
      await screenshot(page(), "checkpoints-04-forward");

      await runCommand(page(), "Agent: Undo File Restore");
      await waitForNotes(ORIGINAL, "Undo File Restore putting the earlier content back");
      await screenshot(page(), "checkpoints-05-undone");
    }),
  );

  it(
    "Show Changes at This Point opens the diff of the turn's file, both sides read from the checkpoints",
    step("show-changes", async () => {
      const t = await treeView(page());
      await t.locator('[role="treeitem"].kind-toolResult').first().click({ button: "right" });
      await clickMenuItem(page(), "Show Changes at This Point");
      await expectNotesDiff("notes.txt (changes of this turn)", "the file before the turn", "the file after the turn");
      await screenshot(page(), "checkpoints-06-show-changes");
    }),
  );

  it(
    "Compare with Current Branch lists the written file under Files that differ, and a click opens its diff",
    step("compare-files", async () => {
      // The turn's diff from the step before shows the same two checkpoints: VS Code would bring that tab back.
      await runCommand(page(), "View: Close All Editors");
      const t = await treeView(page());
      // Back to the first reply (its files are the current ones: nothing is asked), and a new branch from there.
      await row(t, firstReply).click();
      await waitForLeaf(t, firstReply, "the first reply to become the leaf");
      const chat = await chatView(page());
      await sendAndAwait(chat, "Another idea", "Echo: Another idea", "the reply on the new branch");
      await leafShowing(t, "Echo: Another idea");

      await pickFromRowMenu(page(), t, writtenLeaf, "Compare with Current Branch");
      const view = await findWebview(page(), ".cmp-files");
      const file = view.locator(".cmp-files .cmp-file", { hasText: "notes.txt" });
      await expectVisible(file, "notes.txt under Files that differ");
      assert.match(await view.locator(".cmp-files").innerText(), /Files that differ\s+modified notes\.txt$/);
      await screenshot(page(), "checkpoints-07-compare-files");
      await file.click();
      await expectNotesDiff("notes.txt (compared branches)", "this branch's notes.txt", "the other branch's");
      await screenshot(page(), "checkpoints-08-compare-diff");
    }),
  );

  it(
    "Bring Conclusions Here with Bring Files brings the other branch's file content",
    step("bring-files", async () => {
      const t = await treeView(page());
      const question = await bringConclusionsAsked(t, writtenLeaf);
      assert.match(question, /That branch changed 1 file since the common ancestor\./);
      assert.match(question, /notes\.txt \(changed\)/);
      assert.match(question, /Conversation Only/);
      await clickDialogButton(page(), "Bring Files");
      await waitForNotes(WRITTEN, "the other branch's notes.txt brought here");
      // From the notification centre, which holds the message whether or not its toast is still up.
      await runCommand(page(), "Notifications: Show Notifications");
      await expectVisible(
        page().locator(".notifications-center .notification-list-item", {
          hasText: "Brought the other branch's conclusions and its file changes here: 1 file changed.",
        }),
        "the message after the files came along",
      );
      await runCommand(page(), "Notifications: Clear All Notifications");
      const leaf = await activeLeafId(t);
      await expectVisible(
        t.locator(`[role="treeitem"].kind-branch_summary[data-entry-id="${leaf}"]`),
        "the brought summary as the leaf",
      );
      await screenshot(page(), "checkpoints-09-brought-files");
    }),
  );

  it(
    "both changed the file: conflict markers, and Open Conflicts opens the merge editor on the three versions",
    step("bring-conflict", async () => {
      const t = await treeView(page());
      await runCommand(page(), "Agent: Undo File Restore");
      await waitForNotes(ORIGINAL, "Undo File Restore reverting the merge");
      await runCommand(page(), "Notifications: Clear All Notifications");
      writeFileSync(join(demo().workspace, "notes.txt"), BY_HAND);

      const question = await bringConclusionsAsked(t, writtenLeaf);
      assert.match(question, /notes\.txt \(conflict: both changed it\)/);
      // The planning's progress stays a moment after it finished (VS Code shows progress for a minimum time).
      const comparing = page().locator(".notification-toast", { hasText: "Comparing the other branch's files" });
      await waitUntil(
        async () => ((await comparing.count()) === 0 ? true : undefined),
        "the comparison's progress to close",
      );
      refreshDocsScreenshot(await screenshot(page(), "checkpoints-10-bring-files-question"), "bring-files.png");
      await clickDialogButton(page(), "Bring Files");
      await waitForNotes(
        "<<<<<<< current\n" + BY_HAND + "=======\n" + WRITTEN + ">>>>>>> other branch\n",
        "conflict markers in notes.txt",
      );
      // From the notification centre, which holds the message whether or not its toast is still up.
      await runCommand(page(), "Notifications: Show Notifications");
      const message = page().locator(".notifications-center .notification-list-item", {
        hasText: "1 file needs your attention",
      });
      await expectVisible(message, "the message with the conflict");
      await message.locator(".monaco-button", { hasText: "Open Conflicts" }).click();
      const merge = page().locator(".part.editor .merge-editor").first();
      await expectVisible(merge, "VS Code's merge editor");
      await expectVisible(merge.getByText("Changed by hand on the other branch.").first(), "Current: the file by hand");
      await expectVisible(
        merge.getByText("Rewritten by the agent on the first branch.").first(),
        "Incoming: the other branch's file",
      );
      await screenshot(page(), "checkpoints-11-merge-editor");
    }),
  );
});
