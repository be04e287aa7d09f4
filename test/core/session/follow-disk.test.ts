/**
 * The open session follows what another program (pi, which takes no lock) appends to its file: only whole lines
 * past what it read, through the same scan as an open, the leaf following them when they continue from it; a
 * replaced or shrunk file is said, not read; our own appends are no one else's. (docs/tree-navigation.md)
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { describe, test } from "node:test";
import { SessionManager, type DiskRefresh, type SessionChange } from "../../../src/core/index.js";
import { assistant, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { piLine, treeShape, writtenSession } from "../../util/pi-appends.js";

const tmp = tempDirPerTest();

const written = (): Promise<{ file: string; leaf: string }> => writtenSession(tmp.dir);
const shape = treeShape;

/** What a fresh read-only open of `file` finds: its entries' shape, its load issues and its leaf. */
async function reopened(file: string): Promise<{ shape: string[]; issues: unknown[]; leaf: string | null }> {
  const fresh = await SessionManager.open(file, { readOnly: true });
  try {
    return { shape: shape(fresh), issues: fresh.getLoadIssues(), leaf: fresh.getLeafId() };
  } finally {
    await fresh.close();
  }
}

/** Waits (bounded) until `done` holds, letting watcher events in. */
async function until(done: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 25));
  assert.ok(done(), `timed out waiting for ${what}`);
}

describe("refreshFromDisk", () => {
  for (const readOnly of [false, true])
    test(`pi's appends are taken in and the leaf follows them (${readOnly ? "read-only" : "writer"})`, async () => {
      const { file, leaf } = await written();
      const sm = await SessionManager.open(file, { readOnly });
      try {
        const changes: SessionChange[] = [];
        sm.subscribe((c) => changes.push(c));
        assert.deepEqual(sm.refreshFromDisk().added, [], "nothing new yet");
        fs.appendFileSync(file, piLine("pi000001", leaf, "from pi"));
        fs.appendFileSync(file, piLine("pi000002", "pi000001", "and more"));
        const r = sm.refreshFromDisk();
        assert.deepEqual(
          r.added.map((e) => e.id),
          ["pi000001", "pi000002"],
        );
        assert.equal(r.followed, true);
        assert.equal(r.otherBranch, false);
        assert.equal(sm.getLeafId(), "pi000002");
        assert.equal(sm.getEntry("pi000002")?.type, "message");
        assert.deepEqual(
          changes.map((c) => (c.type === "append" ? `append ${c.entry.id}${c.byOther ? " by other" : ""}` : c.type)),
          ["append pi000001 by other", "append pi000002 by other", "leaf"],
        );
        const texts = sm.buildSessionContext().messages.map((m) => (m as { content?: unknown }).content);
        assert.deepEqual(texts.slice(-2), ["from pi", "and more"], "the context has them");
        assert.deepEqual(sm.refreshFromDisk().added, [], "each line once");
      } finally {
        await sm.close();
      }
    });

  test("only the bytes past what was read are read: the lines before are not scanned again", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file, { readOnly: true });
    try {
      // Damage the second line in place (same length, the header untouched): a scan from the start would see it.
      const bytes = fs.readFileSync(file);
      const second = bytes.indexOf(10) + 1;
      const fd = fs.openSync(file, "r+");
      fs.writeSync(fd, Buffer.from("#".repeat(10)), 0, 10, second);
      fs.closeSync(fd);
      fs.appendFileSync(file, piLine("pi000001", leaf, "new"));
      const r = sm.refreshFromDisk();
      assert.deepEqual(
        r.added.map((e) => e.id),
        ["pi000001"],
      );
      assert.deepEqual(r.issues, [], "the damaged line before was not read again");
    } finally {
      await sm.close();
    }
  });

  test("a line without its newline is held until it is whole", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file, { readOnly: true });
    try {
      const line = piLine("pi000001", leaf, "half now, half later");
      fs.appendFileSync(file, line.slice(0, 40));
      assert.deepEqual(sm.refreshFromDisk().added, [], "pi is still writing it");
      assert.deepEqual(sm.getLoadIssues(), [], "and it is no damage");
      fs.appendFileSync(file, line.slice(40));
      assert.deepEqual(
        sm.refreshFromDisk().added.map((e) => e.id),
        ["pi000001"],
      );
      assert.deepEqual(sm.getLoadIssues(), []);
    } finally {
      await sm.close();
    }
  });

  test("a torn last line seen at open is read once pi completes it", async () => {
    const { file, leaf } = await written();
    const line = piLine("pi000001", leaf, "opened mid-write");
    fs.appendFileSync(file, line.slice(0, 30));
    const sm = await SessionManager.open(file);
    try {
      assert.equal(sm.getLoadIssues().length, 1, "the open reports the torn line");
      fs.appendFileSync(file, line.slice(30));
      assert.deepEqual(
        sm.refreshFromDisk().added.map((e) => e.id),
        ["pi000001"],
      );
      assert.deepEqual(sm.getLoadIssues(), [], "whole now: no issue left");
      const ours = sm.appendMessage(assistant("after it"));
      assert.equal(sm.getEntry(ours)?.parentId, "pi000001");
    } finally {
      await sm.close();
    }
    const again = await SessionManager.open(file);
    try {
      assert.deepEqual(again.getLoadIssues(), []);
      assert.equal(again.getEntryCount(), 4);
    } finally {
      await again.close();
    }
  });

  test("a corrupt line is reported with its number and the lines after it are taken in", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    try {
      fs.appendFileSync(file, `{"type":"message","id":"bad0001","parentId":"${leaf}",oops}\n`);
      fs.appendFileSync(file, piLine("pi000002", leaf, "after the bad line"));
      const r = sm.refreshFromDisk();
      assert.deepEqual(
        r.added.map((e) => e.id),
        ["pi000002"],
      );
      assert.equal(r.issues.length, 1);
      assert.equal(r.issues[0].line, 4);
      assert.match(r.issues[0].reason, /not valid JSON/);
      assert.deepEqual(
        sm.getLoadIssues().map((i) => i.line),
        [4],
      );
      assert.equal(sm.getLeafId(), "pi000002");
      // What a fresh open reads is the same.
      const fresh = await reopened(file);
      assert.deepEqual(fresh.shape, shape(sm));
      assert.deepEqual(fresh.issues, sm.getLoadIssues());
    } finally {
      await sm.close();
    }
  });

  test("a duplicate id is left out as the open leaves it out; an unknown parent makes an orphan", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    try {
      fs.appendFileSync(file, piLine(leaf, null, "same id as ours"));
      fs.appendFileSync(file, piLine("pi000003", "nobody00", "lost parent"));
      const r = sm.refreshFromDisk();
      assert.deepEqual(
        r.added.map((e) => [e.id, e.orphan === true]),
        [["pi000003", true]],
      );
      assert.match(r.issues[0].reason, /duplicate entry id/);
      const fresh = await reopened(file);
      assert.deepEqual(fresh.shape, shape(sm));
    } finally {
      await sm.close();
    }
  });

  for (const how of ["replaced by a rename", "cut short", "rewritten in place"] as const)
    test(`a file ${how} is said, and not read`, async () => {
      const { file, leaf } = await written();
      const sm = await SessionManager.open(file);
      try {
        const said: DiskRefresh[] = [];
        sm.onAppendedByOther((r) => said.push(r));
        const bytes = fs.readFileSync(file, "utf8");
        if (how === "replaced by a rename") {
          fs.writeFileSync(`${file}.tmp`, bytes + piLine("pi000001", leaf, "in the new file"));
          fs.renameSync(`${file}.tmp`, file);
        } else if (how === "cut short") fs.truncateSync(file, bytes.indexOf("\n") + 1);
        else fs.writeFileSync(file, bytes.replace('"session"', '"session" ') + piLine("pi000001", leaf, "x"));
        const r = sm.refreshFromDisk();
        assert.equal(r.replaced, true);
        assert.deepEqual(r.added, []);
        assert.equal(sm.getEntryCount(), 2, "nothing of it was read");
        assert.equal(sm.refreshFromDisk().replaced, true, "and it stays so");
        assert.equal(said.length, 1, "said once");
        assert.throws(() => sm.appendMessage(user("not here")), /replaced|deleted/);
      } finally {
        await sm.close();
      }
    });

  test("our own appends are not another program's; after pi's, ours chain on and a fresh open is the same tree", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    try {
      const said: DiskRefresh[] = [];
      sm.onAppendedByOther((r) => said.push(r));
      const mine = sm.appendMessage(user("mine"));
      assert.deepEqual(sm.refreshFromDisk().added, []);
      fs.appendFileSync(file, piLine("pi000001", mine, "pi goes on from mine"));
      sm.refreshFromDisk();
      const next = sm.appendMessage(assistant("mine again"));
      assert.equal(sm.getEntry(next)?.parentId, "pi000001", "the leaf followed pi, and ours goes on from it");
      // pi appends between our writes again: our next write takes it in first (the leaf stays ours).
      fs.appendFileSync(file, piLine("pi000002", leaf, "pi on an older entry"));
      const last = sm.appendMessage(user("last"));
      assert.equal(sm.getEntry(last)?.parentId, next);
      assert.deepEqual(
        said.map((r) => r.added.map((e) => e.id)),
        [["pi000001"], ["pi000002"]],
      );
      assert.equal(said[1].otherBranch, true);
      const fresh = await reopened(file);
      assert.deepEqual(fresh.shape, shape(sm));
      assert.deepEqual(fresh.issues, []);
      assert.equal(fresh.leaf, last);
    } finally {
      await sm.close();
    }
  });

  test("entries on another branch keep the leaf and say where they end; keepLeaf keeps it on their continuation", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    try {
      const q = sm.getEnvelopes()[0].id;
      fs.appendFileSync(file, piLine("pi000001", q, "a sibling of the answer"));
      const r = sm.refreshFromDisk();
      assert.equal(r.followed, false);
      assert.equal(r.otherBranch, true);
      assert.equal(r.otherLeafId, "pi000001");
      assert.equal(sm.getLeafId(), leaf);
      fs.appendFileSync(file, piLine("pi000002", leaf, "under our leaf, while our agent runs"));
      const kept = sm.refreshFromDisk({ keepLeaf: true });
      assert.equal(kept.followed, false);
      assert.equal(kept.otherBranch, true);
      assert.equal(sm.getLeafId(), leaf);
    } finally {
      await sm.close();
    }
  });

  test("after our own rewrite (a deleted branch) pi's appends are followed in the new file", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    try {
      const q = sm.getEnvelopes()[0].id;
      sm.branch(q);
      const side = sm.appendMessage(assistant("a side answer"));
      sm.branch(leaf);
      await sm.deleteBranch(side);
      fs.appendFileSync(file, piLine("pi000001", leaf, "after the rewrite"));
      const r = sm.refreshFromDisk();
      assert.equal(r.replaced, false);
      assert.deepEqual(
        r.added.map((e) => e.id),
        ["pi000001"],
      );
      const fresh = await reopened(file);
      assert.deepEqual(fresh.shape, shape(sm));
    } finally {
      await sm.close();
    }
  });
});

describe("watchDisk", () => {
  test("an append by another program shows within the poll, without a write of ours; close() stops the watch", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    const said: DiskRefresh[] = [];
    sm.onAppendedByOther((r) => said.push(r));
    sm.watchDisk({ intervalMs: 100 });
    try {
      sm.appendMessage(user("ours: not said"));
      fs.appendFileSync(file, piLine("pi000001", sm.getLeafId(), "from the terminal"));
      await until(() => said.length > 0, "the append to be noticed");
      assert.deepEqual(
        said.flatMap((r) => r.added.map((e) => e.id)),
        ["pi000001"],
      );
      assert.equal(sm.getLeafId(), "pi000001");
      assert.equal(sm.getEntry("pi000001")?.parentId === leaf, false, "pi went on from our write");
    } finally {
      await sm.close();
    }
    // Closed: a later append is not taken in (and the test process exits: nothing is left watching).
    fs.appendFileSync(file, piLine("pi000002", "pi000001", "after close"));
    await new Promise((r) => setTimeout(r, 250));
    assert.equal(said.length, 1);
  });

  test("keepLeaf is asked at each change: the leaf stays while it says so", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file, { readOnly: true });
    const said: DiskRefresh[] = [];
    sm.onAppendedByOther((r) => said.push(r));
    let running = true;
    const stop = sm.watchDisk({ intervalMs: 100, keepLeaf: () => running });
    try {
      fs.appendFileSync(file, piLine("pi000001", leaf, "while we run"));
      await until(() => said.length > 0, "the first append");
      assert.equal(sm.getLeafId(), leaf);
      running = false;
      fs.appendFileSync(file, piLine("pi000002", leaf, "a sibling, once idle"));
      await until(() => said.length > 1, "the second append");
      assert.equal(sm.getLeafId(), "pi000002", "idle: the leaf follows what continues from it");
      stop();
    } finally {
      await sm.close();
    }
  });
});
