/**
 * Archiving branches (one appended line, undone by another) and deleting them for good (an atomic rewrite that
 * mends what pointed into the branch), across reopen, with a failure and a kill in the middle of the rewrite.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { ActiveBranchError, ARCHIVE_MARKER_TYPE, SessionManager } from "../../../src/core/index.js";
import { assistant, readJsonl, user } from "../../util/session-builder.js";
import { type FaultyDisk, faultyDisk } from "../../util/faulty-disk.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest("session-archive-");

/**
 * a → b → c (the main line, where the leaf ends) and b → d → e (a side branch). Returns the ids; the session is
 * open for writing.
 */
async function twoBranches(
  disk: FaultyDisk = faultyDisk(),
): Promise<{ sm: SessionManager; file: string; ids: Record<string, string> }> {
  const sm = await SessionManager.create("/proj", tmp.dir, { io: disk.io });
  const a = sm.appendMessage(user("first question"));
  const b = sm.appendMessage(assistant("first answer"));
  const d = sm.appendMessage(user("a side idea"));
  const e = sm.appendMessage(assistant("side answer"));
  sm.branch(b);
  const c = sm.appendMessage(user("the main line"));
  return { sm, file: sm.getSessionFile() as string, ids: { a, b, c, d, e } };
}

function lineCount(file: string): number {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "").length;
}

describe("archive a branch", () => {
  test("one appended line hides the branch, the leaf stays; unarchive is one more line; both survive reopen", async () => {
    const { sm, file, ids } = await twoBranches();
    const before = lineCount(file);
    const lineId = sm.archiveBranch(ids.d);
    assert.ok(lineId);
    assert.equal(lineCount(file), before + 1, "one line appended");
    const last = readJsonl(file).at(-1) as Record<string, unknown>;
    assert.equal(last.type, "custom");
    assert.equal(last.customType, ARCHIVE_MARKER_TYPE);
    assert.deepEqual(last.data, { targetId: ids.d, archived: true });
    assert.equal(last.parentId, ids.c, "it hangs off the leaf");
    assert.equal(sm.getLeafId(), ids.c, "the leaf did not move");
    assert.deepEqual(sm.getArchivedBranches(), [ids.d]);
    assert.deepEqual([...sm.getArchivedIds()].sort(), [ids.d, ids.e].sort());
    assert.equal(sm.isArchived(ids.e), true);
    assert.equal(sm.isArchived(ids.c), false);
    assert.equal(sm.archiveBranch(ids.e), undefined, "already archived (below an archived entry): nothing written");
    assert.equal(lineCount(file), before + 1);
    await sm.close();

    const reopened = await SessionManager.open(file);
    assert.equal(reopened.getLeafId(), ids.c, "resumes where it was, not on the archive line");
    assert.deepEqual(reopened.getArchivedBranches(), [ids.d]);
    assert.deepEqual(
      reopened.buildSessionContext().messages.map((m) => m.role),
      ["user", "assistant", "user"],
      "the context is the main line's",
    );
    assert.equal(reopened.unarchiveBranch(ids.e).length, 1, "unarchiving from inside the branch brings it back");
    assert.equal(lineCount(file), before + 2);
    assert.deepEqual(reopened.getArchivedBranches(), []);
    assert.equal(reopened.getLeafId(), ids.c);
    await reopened.close();
    const again = await SessionManager.open(file, { readOnly: true });
    assert.deepEqual(again.getArchivedBranches(), []);
    assert.equal(again.getLeafId(), ids.c);
    await again.close();
  });

  test("nested archived branches: unarchiving an inner entry brings back every branch above it", async () => {
    const { sm, ids } = await twoBranches();
    sm.archiveBranch(ids.e);
    sm.archiveBranch(ids.d);
    assert.deepEqual(sm.getArchivedBranches(), [ids.e, ids.d]);
    assert.equal(sm.unarchiveBranch(ids.e).length, 2);
    assert.equal(sm.isArchived(ids.e), false);
    await sm.close();
  });

  test("the branch holding the leaf is refused with ActiveBranchError and nothing is written", async () => {
    const { sm, file, ids } = await twoBranches();
    const bytes = fs.readFileSync(file);
    assert.throws(() => sm.archiveBranch(ids.b), ActiveBranchError);
    assert.throws(() => sm.archiveBranch(ids.c), ActiveBranchError);
    await assert.rejects(sm.deleteBranch(ids.c), ActiveBranchError);
    assert.deepEqual(fs.readFileSync(file), bytes);
    assert.throws(() => sm.appendCustomEntry(ARCHIVE_MARKER_TYPE, { targetId: ids.d, archived: true }), /reserved/);
    await sm.close();
  });

  test("read-only views cannot archive", async () => {
    const { sm, file, ids } = await twoBranches();
    await sm.close();
    const view = await SessionManager.open(file, { readOnly: true });
    assert.throws(() => view.archiveBranch(ids.d), /read-only/);
    await assert.rejects(view.deleteBranch(ids.d), /read-only/);
    await view.close();
  });
});

describe("delete a branch for good", () => {
  test("the file is rewritten without it; labels and summaries pointing into it go; orphans are re-attached", async () => {
    const { sm, file, ids } = await twoBranches();
    // A label on the main line written while the leaf was in the side branch: it sits in the branch, and stays.
    sm.branch(ids.e);
    const keptLabel = sm.appendLabelChange(ids.a, "start");
    sm.branch(ids.c);
    // A label on the side branch (goes), a summary of it brought to the main line (goes), a reply below that.
    sm.appendLabelChange(ids.e, "side");
    const summary = sm.appendBranchSummary(ids.e, "what the side branch found");
    const after = sm.appendMessage(user("after the summary"));
    sm.archiveBranch(ids.e);
    const compaction = sm.appendCompaction("so far", summary, 100);
    const tail = sm.appendMessage(user("after the compaction"));

    const plan = sm.planBranchDeletion(ids.d);
    // The branch: d, e, the leaf marker into it and the kept label; then the side label, the summary and the
    // archive line that point into it.
    assert.equal(plan.branch, 4);
    assert.equal(plan.removed, 3 + 3);
    const result = await sm.deleteBranch(ids.d);
    assert.equal(result.removed, plan.removed);
    assert.equal(result.reattached, 2, "the kept label and the reply below the summary");
    assert.ok(result.backup && fs.existsSync(result.backup), "a backup is kept");

    const check = (s: SessionManager, what: string, leaf: string): void => {
      const byId = new Map(s.getEntries().map((e) => [e.id, e]));
      for (const gone of [ids.d, ids.e, summary]) assert.equal(byId.has(gone), false, `${what}: ${gone} is gone`);
      assert.equal(byId.get(keptLabel)?.parentId, ids.b, `${what}: the kept label hangs off the branch point`);
      assert.equal(s.getLabel(ids.a), "start", `${what}: the label on the main line stays`);
      assert.equal(byId.get(after)?.parentId, ids.c, `${what}: the reply is re-attached above the summary`);
      const c = byId.get(compaction) as { firstKeptEntryId: string };
      assert.equal(c.firstKeptEntryId, after, `${what}: the compaction keeps from the next entry that stays`);
      assert.equal(s.getLeafId(), leaf, `${what}: the leaf`);
      assert.deepEqual(s.getArchivedBranches(), [], `${what}: no archive line names a removed entry`);
      assert.deepEqual(s.getLoadIssues(), [], `${what}: no damage`);
    };
    check(sm, "after the delete", tail);
    // The session goes on in the new file.
    const more = sm.appendMessage(assistant("still writing"));
    await sm.close();
    assert.ok(
      readJsonl(file).some((l) => l.id === more),
      "appends go to the rewritten file",
    );

    const reopened = await SessionManager.open(file);
    check(reopened, "reopened", more);
    assert.equal(fs.existsSync(result.backup as string), false, "the next writable open removes the backup");
    await reopened.close();
  });

  test("damaged lines the branch does not own are kept as they were", async () => {
    const { sm, file, ids } = await twoBranches();
    await sm.close();
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.splice(2, 0, "{not json at all");
    fs.writeFileSync(file, lines.join("\n"));
    const damaged = await SessionManager.open(file);
    assert.equal(damaged.getLoadIssues().length, 1);
    await damaged.deleteBranch(ids.d);
    await damaged.close();
    assert.ok(fs.readFileSync(file, "utf8").includes("\n{not json at all\n"), "the corrupt line is still there");
    const reopened = await SessionManager.open(file, { readOnly: true });
    assert.equal(reopened.getLoadIssues().length, 1);
    assert.equal(reopened.hasEntry(ids.d), false);
    assert.equal(reopened.getLeafId(), ids.c);
    await reopened.close();
  });

  test("a failure between the temp file and the rename leaves the file and the session as they were", async () => {
    const disk = faultyDisk();
    const { sm, file, ids } = await twoBranches(disk);
    const bytes = fs.readFileSync(file);
    disk.beforeRename(() => {
      throw new Error("disk went away");
    });
    await assert.rejects(sm.deleteBranch(ids.d), /disk went away/);
    disk.beforeRename(undefined);
    assert.deepEqual(fs.readFileSync(file), bytes, "the file is untouched");
    assert.deepEqual(
      fs.readdirSync(tmp.dir).filter((n) => n.includes(".rewriting-")),
      [],
      "the temp file is removed",
    );
    assert.equal(sm.hasEntry(ids.d), true);
    const id = sm.appendMessage(assistant("the session still works"));
    await sm.close();
    assert.equal(readJsonl(file).at(-1)?.id, id);
  });

  test("a process killed mid-rewrite leaves the old file; the next open removes its temp file", () => {
    return (async () => {
      const { sm, file, ids } = await twoBranches();
      await sm.close();
      const bytes = fs.readFileSync(file);
      const child = spawnSync(
        process.execPath,
        ["--import", "tsx", path.join(__dirname, "archive-child.ts"), file, ids.d],
        { encoding: "utf8", timeout: 60_000 },
      );
      assert.equal(child.signal, "SIGKILL", `the child was killed in the rewrite (stderr: ${child.stderr})`);
      assert.deepEqual(fs.readFileSync(file), bytes, "the session file is as it was");
      const temps = fs.readdirSync(tmp.dir).filter((n) => n.includes(".rewriting-"));
      assert.equal(temps.length, 1, "the killed rewrite left its temp file");
      const reopened = await SessionManager.open(file);
      assert.equal(reopened.hasEntry(ids.d), true);
      assert.equal(reopened.getLeafId(), ids.c);
      // Removed once the open has returned.
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(
        fs.readdirSync(tmp.dir).filter((n) => n.includes(".rewriting-")),
        [],
        "the open removed the temp file of the dead process",
      );
      await reopened.close();
    })();
  });

  test("in memory the session is replaced the same way", async () => {
    const sm = SessionManager.inMemory("/proj");
    const a = sm.appendMessage(user("q"));
    const d = sm.appendMessage(assistant("side"));
    sm.branch(a);
    const c = sm.appendMessage(assistant("main"));
    const r = await sm.deleteBranch(d);
    assert.equal(r.removed, 1);
    assert.equal(r.backup, undefined);
    assert.deepEqual(
      sm
        .getEntries()
        .filter((e) => e.type === "message")
        .map((e) => e.id),
      [a, c],
    );
    assert.equal(sm.getLeafId(), c);
  });
});
