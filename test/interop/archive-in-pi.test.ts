/**
 * Archived and deleted branches in the real pi 0.73.1 and 1.6.0: after an archive line, and after a branch was
 * deleted for good (the file rewritten, what pointed into the branch dropped, orphans re-attached), pi opens the
 * file with the same tree, leaf, context and labels, and what pi appends next hangs off the point we were at.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { SessionManager } from "../../src/core/index.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, ourView, piOpen, releases, runPi, timedMessages } from "./pi.js";

const tmp = tempDirPerTest("agent-tree-interop-");

const { user: userMsg, assistant: reply } = timedMessages(1_750_000_000_000, { provider: "openai", model: "gpt-4.1" });

/** Main line a → b → c, side branch b → d → e with a label and a summary of it brought to the main line. */
async function session(name: string): Promise<{ file: string; d: string; c: string; summary: string }> {
  const sm = await SessionManager.create("/proj", path.join(tmp.dir, name));
  sm.appendMessage(userMsg("plan the parser", 1));
  const b = sm.appendMessage(reply("two ways to do it", 2));
  const d = sm.appendMessage(userMsg("try the regex way", 3));
  const e = sm.appendMessage(reply("regexes get messy", 4));
  sm.appendLabelChange(e, "regex attempt");
  sm.branch(b);
  const c = sm.appendMessage(userMsg("try the hand-written way", 5));
  sm.appendMessage(reply("cleaner", 6));
  const summary = sm.appendBranchSummary(e, "the regex way got messy");
  sm.appendMessage(userMsg("go on with the hand-written parser", 7));
  await sm.close();
  return { file: sm.getSessionFile() as string, d, c, summary };
}

async function ours(file: string): Promise<ReturnType<typeof ourView>> {
  const sm = await SessionManager.open(file, { readOnly: true });
  const view = ourView(sm);
  await sm.close();
  return view;
}

/** pi appends a message to a copy; returns its parent as we read the copy, and our leaf before. */
async function piContinues(file: string, tag: string): Promise<void> {
  for (const release of releases()) {
    const copy = path.join(tmp.dir, `${tag}-continued-by-pi-${release.version}.jsonl`);
    fs.copyFileSync(file, copy);
    const before = await SessionManager.open(copy, { readOnly: true });
    const leaf = before.getLeafId();
    await before.close();
    const [, id] = runPi(release, [
      { op: "open", file: copy },
      { op: "message", message: userMsg("one more", 9) },
    ]) as [null, string];
    const continued = await SessionManager.open(copy, { readOnly: true });
    assert.equal(continued.getLeafId(), id, `pi ${release.version}: its message is the leaf`);
    const path_ = continued.getPath().map((e) => e.id);
    assert.ok(leaf !== null && path_.includes(leaf), `pi ${release.version}: it continued from our leaf`);
    await continued.close();
  }
}

describe("archived and deleted branches in the real pi", { timeout: 180_000 }, () => {
  test("an archive line: same tree, leaf and context in pi; pi continues from the same point", async () => {
    const { file, d } = await session("archive");
    const sm = await SessionManager.open(file);
    assert.ok(sm.archiveBranch(d));
    await sm.close();
    const view = await ours(file);
    for (const release of releases()) assertSameView(piOpen(release, file), view, `pi ${release.version}`);
    await piContinues(file, "archive");
  });

  test("a deleted branch: pi reads the rewritten file the same, without the branch, and continues it", async () => {
    const { file, d, c, summary } = await session("delete");
    const sm = await SessionManager.open(file);
    await sm.deleteBranch(d);
    await sm.close();
    const view = await ours(file);
    assert.equal(
      view.entries.some((e) => e.id === d || e.id === summary),
      false,
    );
    for (const release of releases()) {
      const pi = piOpen(release, file);
      assertSameView(pi, view, `pi ${release.version}`);
      const orphan = pi.entries.find((e) => e.parentId !== null && !pi.entries.some((p) => p.id === e.parentId));
      assert.equal(orphan, undefined, `pi ${release.version}: no entry lost its parent`);
      assert.ok(
        pi.entries.some((e) => e.parentId === c || e.id === c),
        `pi ${release.version}: the main line is there`,
      );
    }
    await piContinues(file, "delete");
  });
});
