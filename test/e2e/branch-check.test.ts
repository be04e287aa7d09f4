/**
 * End to end, in a real VS Code (code-server + Chromium) with the local fake model: **Explore in Parallel…** with
 * three branches and the check `test -f ok.txt`, which passes only where the branch wrote ok.txt (one of the three;
 * the other two change fewer lines, so only the check puts it first). Each branch's check runs in its copy when it
 * finishes: the newest row of each shows ✓ or ✗ (its hover the check), the file records each check, the workspace
 * gets no ok.txt. The summary tab ranks the passing branch first; its **Adopt Best Branch** button brings ok.txt into
 * the workspace and moves the leaf to that branch. **Run Check Again** on a row appends a new record. Screenshots in
 * test-results/e2e/branch-check-*.png.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { before, describe, it } from "node:test";
import type { Page } from "playwright-core";
import type { FakeReply, FakeRequestBody } from "../util/fake-provider-common.js";
import { pickFromRowMenu, readSession, row, treeView, waitForLeaf } from "../util/agent-ui.js";
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
import { clickDialogButton, expectVisible, findWebview, screenshot, waitUntil } from "../util/workbench.js";

const CHECK = "test -f ok.txt";

/** The second exploring request writes ok.txt (three lines); the others one line of notes.txt; then they answer. */
let writes = 0;
function replies(body: FakeRequestBody): FakeReply {
  const last = wireMessages(body).at(-1);
  if (last?.role === "tool") return { text: `Done: ${String(last.content).slice(0, 40)}`, chunkDelayMs: 20 };
  if (JSON.stringify(last?.content ?? "").includes("CHECKED")) {
    writes++;
    const call =
      writes === 2
        ? { name: "write", args: { path: "ok.txt", content: "one\ntwo\nthree\n" } }
        : { name: "write", args: { path: "notes.txt", content: `branch ${writes}\n` } };
    return { text: `Branch ${writes} writes.`, toolCalls: [call], chunkDelayMs: 50 };
  }
  return { text: `Echo: ${JSON.stringify(last?.content ?? "").slice(1, 40)}`, chunkDelayMs: 5 };
}

const suite = branchesWorkbenchSuite("branch-check", { "notes.txt": "the notes\n" }, replies);
const { demo, step, wb, workspaceText } = suite;
let page: Page;
let sessionFile: string;
/** Branch first entry → its newest message entry, and the one that wrote ok.txt. */
let tips: Map<string, string>;
let passing: string;

/** Every branch's run lines' latest state. */
const runStates = (): Map<string, string> => branchRunStates(sessionFile);

/** The check records of the file, in order. */
function checkRecords(): { parentId: string; data: { state: string; branchId: string; command: string } }[] {
  return readSession(sessionFile)
    .filter((l) => l.type === "custom" && l.customType === "agent-tree/branch-check")
    .map((l) => ({
      parentId: l.parentId as string,
      data: l.data as { state: string; branchId: string; command: string },
    }));
}

describe("A check per branch in VS Code (code-server)", { timeout: 10 * 60_000 }, () => {
  before(() => {
    page = wb().page;
  });

  it(
    "three branches with a check: the rows show ✓ and ✗, the workspace is untouched",
    step("check", async () => {
      const first = await firstReplyLeaf(suite, "What is in this project?", BRANCHES_TIMEOUT_MS);
      const { tree: t, node } = first;
      sessionFile = first.sessionFile;

      await pickFromRowMenu(page, t, node, "Explore in Parallel…");
      const start = await answerExploreQuestions(page, "CHECKED: change something", 3, CHECK);
      await start();
      const branches = await waitUntil(
        async () => {
          const ids = [...runStates().keys()];
          return ids.length === 3 ? ids : undefined;
        },
        "3 branches started",
        BRANCHES_TIMEOUT_MS,
      );
      await waitUntil(
        async () => (checkRecords().filter((r) => r.data.state !== "running").length === 3 ? true : undefined),
        "every branch's check to end",
        BRANCHES_TIMEOUT_MS,
      );
      const lines = readSession(sessionFile);
      tips = new Map(branches.map((id) => [id, newestBelow(lines, id).id as string]));
      const ended = checkRecords().filter((r) => r.data.state !== "running");
      assert.deepEqual(
        ended.map((r) => r.data.command),
        [CHECK, CHECK, CHECK],
      );
      const passed = ended.filter((r) => r.data.state === "passed");
      assert.equal(passed.length, 1, JSON.stringify(ended.map((r) => r.data.state)));
      passing = passed[0].data.branchId;
      const below = new Set([passing]);
      for (const l of lines) if (typeof l.parentId === "string" && below.has(l.parentId) && l.id) below.add(l.id);
      const wroteOk = lines.find(
        (l) => l.type === "message" && JSON.stringify(l.message).includes('"ok.txt"') && below.has(l.id as string),
      );
      assert.ok(wroteOk, "the passing branch is the one that wrote ok.txt");
      for (const r of ended)
        assert.equal(r.parentId, tips.get(r.data.branchId), "each record hangs off its newest row");

      for (const [id, tip] of tips) {
        const mark = row(t, tip).locator(".check-mark");
        await expectVisible(mark, `the check mark of branch ${id}`, BRANCHES_TIMEOUT_MS);
        const want = id === passing ? "check-passed" : "check-failed";
        await waitUntil(
          async () => ((await mark.getAttribute("class"))?.includes(want) ? true : undefined),
          `the mark of branch ${id} to be ${want}`,
        );
        assert.equal(await mark.innerText(), id === passing ? "✓" : "✗");
        assert.match((await mark.getAttribute("title")) ?? "", /^Check `test -f ok\.txt`: (passed|failed)/);
      }
      assert.equal(fs.existsSync(path.join(demo().workspace, "ok.txt")), false, "the workspace has no ok.txt");
      assert.equal(workspaceText("notes.txt"), "the notes\n", "the workspace's file is untouched");
      await screenshot(page, "branch-check-01-marks");
    }),
  );

  it(
    "the summary tab ranks the passing branch first; Adopt Best Branch adopts it",
    step("adopt-best", async () => {
      const t = await treeView(page);
      const finished = page.getByText("Explore in Parallel ended: 3 done.");
      await expectVisible(finished, "the finish message");
      await page.getByRole("button", { name: "Show Summary" }).first().click();
      const summary = await findWebview(page, "#adopt-best");
      const first = summary.locator("tbody tr").first();
      await expectVisible(first, "the ranked table");
      assert.match(await first.innerText(), /✓ passed/);
      assert.equal(await summary.locator("tbody tr").count(), 3);
      await screenshot(page, "branch-check-02-summary");
      await summary.locator("#adopt-best").click();
      await expectAdoptQuestion(page, "ok.txt");
      await clickDialogButton(page, "Adopt");
      await waitUntil(
        async () => (fs.existsSync(path.join(demo().workspace, "ok.txt")) ? true : undefined),
        "ok.txt in the workspace",
      );
      assert.equal(workspaceText("ok.txt"), "one\ntwo\nthree\n");
      assert.equal(workspaceText("notes.txt"), "the notes\n", "the failing branches' notes.txt did not come");
      await waitForLeaf(t, tips.get(passing) as string, "the leaf on the passing branch's newest row");
      await screenshot(page, "branch-check-03-adopted");
    }),
  );

  it(
    "Run Check Again on a failing branch's row appends a new record",
    step("again", async () => {
      const t = await treeView(page);
      const failing = [...tips.keys()].find((id) => id !== passing) as string;
      const before = checkRecords().filter((r) => r.data.branchId === failing).length;
      await pickFromRowMenu(page, t, tips.get(failing) as string, "Run Check Again");
      await waitUntil(
        async () => {
          const mine = checkRecords().filter((r) => r.data.branchId === failing);
          return mine.length === before + 2 && mine.at(-1)?.data.state === "failed" ? true : undefined;
        },
        "a new running record and its outcome",
        BRANCHES_TIMEOUT_MS,
      );
    }),
  );
});
