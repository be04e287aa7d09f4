/**
 * Another program (pi takes no lock) appends to the file in the instants around one of our appends: between our
 * read of what it appended and our look at the file's size (before the write), or between that look and our
 * write, or right after it. Its lines are taken into the open session then, in file order, through the same scan
 * as refreshFromDisk; our entries read back whole from where they really are; the leaf stays where our write put
 * it; and a fresh open finds the same tree, leaf, entries and issues. (docs/tree-navigation.md, "When pi writes
 * to the open session")
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { describe, test } from "node:test";
import { SessionManager, type DiskRefresh, type SessionChange, type SessionFileIo } from "../../../src/core/index.js";
import { assistant, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { piLine, treeShape, writtenSession } from "../../util/pi-appends.js";

const tmp = tempDirPerTest();

const written = (): Promise<{ file: string; leaf: string }> => writtenSession(tmp.dir);
const shape = treeShape;

/** What each change said, briefly. */
function said(changes: SessionChange[]): string[] {
  return changes.map((c) => (c.type === "append" ? `append ${c.entry.id}${c.byOther ? " by other" : ""}` : c.type));
}

/**
 * Every entry reads back whole (getEntry, getPath, the context), and a fresh open of the file finds the same
 * entries (bodies included), tree, issues and leaf.
 */
async function assertSameAsReopen(sm: SessionManager, file: string): Promise<void> {
  const bodies = sm.getEnvelopes().map((e) => sm.getEntry(e.id));
  for (const [k, e] of sm.getEnvelopes().entries()) assert.equal(bodies[k]?.id, e.id, `entry ${e.id} reads whole`);
  assert.deepEqual(
    sm.getPath().map((e) => e.id),
    sm.getPathEnvelopes().map((e) => e.id),
  );
  sm.buildSessionContext();
  const fresh = await SessionManager.open(file, { readOnly: true });
  try {
    assert.deepEqual(shape(sm), shape(fresh), "the same tree as a fresh open");
    assert.deepEqual(sm.getLoadIssues(), fresh.getLoadIssues(), "the same issues as a fresh open");
    assert.equal(sm.getLeafId(), fresh.getLeafId(), "the same leaf as a fresh open");
    assert.deepEqual(
      bodies,
      fresh.getEnvelopes().map((e) => fresh.getEntry(e.id)),
      "the same entries as a fresh open",
    );
    assert.deepEqual(sm.buildSessionContext(), fresh.buildSessionContext());
  } finally {
    await fresh.close();
  }
}

/** The session counts the file's lines as they are: a corrupt line of pi's is reported with its number. */
function assertLinesCounted(sm: SessionManager, file: string): void {
  fs.appendFileSync(file, "{not json\n");
  const lines = fs.readFileSync(file, "utf8").split("\n").length - 1;
  assert.deepEqual(
    sm.refreshFromDisk({ keepLeaf: true }).issues.map((i) => i.line),
    [lines],
  );
}

/**
 * A write(2) that, once armed, lets `other` append to the file first (between our look at its size and our
 * write), or after our bytes (`after`), then writes ours as the real one does.
 */
function racingWrite(): { io: SessionFileIo; arm: (other: () => void, after?: () => void) => void } {
  let pending: { other: () => void; after?: () => void } | undefined;
  const io: SessionFileIo = {
    write: (fd, buf, offset, length) => {
      const now = pending;
      pending = undefined;
      now?.other();
      const n = fs.writeSync(fd, buf, offset, length);
      now?.after?.();
      return n;
    },
  };
  return { io, arm: (other, after) => (pending = { other, after }) };
}

describe("another program appends while we append", () => {
  test("a line appended between our read of the file and our write is taken in, before ours", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    try {
      const changes: SessionChange[] = [];
      sm.subscribe((c) => changes.push(c));
      const refreshes: DiskRefresh[] = [];
      // The pre-write read finds pi000001 and tells its listeners; pi000002 lands right after that read.
      let once = true;
      sm.onAppendedByOther((r) => {
        refreshes.push(r);
        if (once) fs.appendFileSync(file, piLine("pi000002", "pi000001", "in the gap"));
        once = false;
      });
      fs.appendFileSync(file, piLine("pi000001", leaf, "before our write"));
      const mine = sm.appendMessage(user("mine"));
      assert.equal(sm.getEntry(mine)?.parentId, leaf, "ours goes on from our leaf");
      assert.equal(sm.getLeafId(), mine);
      assert.equal(sm.getEntry("pi000002")?.parentId, "pi000001", "the gap's line is in the session");
      assert.deepEqual(said(changes), ["append pi000001 by other", "append pi000002 by other", `append ${mine}`]);
      assert.deepEqual(
        refreshes.map((r) => r.added.map((e) => e.id)),
        [["pi000001"], ["pi000002"]],
      );
      assert.deepEqual(sm.refreshFromDisk().added, [], "each line once");
      assertLinesCounted(sm, file);
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });

  test("a line half-written before our write stays a line of its own: reported, and ours whole", async () => {
    const { file, leaf } = await written();
    const sm = await SessionManager.open(file);
    try {
      let once = true;
      sm.onAppendedByOther(() => {
        if (once) fs.appendFileSync(file, piLine("pi000002", leaf, "cut short by a crash").slice(0, 40));
        once = false;
      });
      fs.appendFileSync(file, piLine("pi000001", leaf, "before our write"));
      const mine = sm.appendMessage(user("mine"));
      assert.equal(sm.getEntry(mine)?.type, "message");
      assert.equal(sm.getLoadIssues().length, 1, "the half line is reported");
      assert.match(sm.getLoadIssues()[0].reason, /not valid JSON/);
      assert.equal(sm.getLoadIssues()[0].line, 5);
      // Ours is a line of its own (pi drops a line it cannot parse, with an entry glued to it).
      const lines = fs.readFileSync(file, "utf8").split("\n");
      assert.equal(JSON.parse(lines[5]).id, mine);
      assertLinesCounted(sm, file);
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });

  test("a line appended between our look at the size and our write: ours reads whole, theirs is taken in", async () => {
    const { file, leaf } = await written();
    const race = racingWrite();
    const sm = await SessionManager.open(file, { io: race.io });
    try {
      const changes: SessionChange[] = [];
      sm.subscribe((c) => changes.push(c));
      const refreshes: DiskRefresh[] = [];
      sm.onAppendedByOther((r) => refreshes.push(r));
      race.arm(() => fs.appendFileSync(file, piLine("pi000001", leaf, "just before ours")));
      const mine = sm.appendMessage(user("mine"));
      const entry = sm.getEntry(mine);
      assert.equal(entry?.type === "message" && entry.message.role, "user");
      assert.equal(entry?.parentId, leaf);
      assert.equal(sm.getEntry("pi000001")?.parentId, leaf, "theirs is in the tree, beside ours");
      assert.equal(sm.getLeafId(), mine, "the leaf is where our write put it");
      assert.deepEqual(said(changes), ["append pi000001 by other", `append ${mine}`]);
      assert.deepEqual(
        refreshes.map((r) => [r.added.map((e) => e.id), r.issues.length]),
        [[["pi000001"], 0]],
      );
      assert.deepEqual(sm.refreshFromDisk().added, [], "each line once");
      // The next write goes on after both.
      const next = sm.appendMessage(assistant("reply"));
      assert.equal(sm.getEntry(next)?.parentId, mine);
      assertLinesCounted(sm, file);
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });

  test("a half line appended between our look at the size and our write: ours is recovered from the glued line", async () => {
    const { file, leaf } = await written();
    const race = racingWrite();
    const sm = await SessionManager.open(file, { io: race.io });
    try {
      race.arm(() => fs.appendFileSync(file, piLine("pi000001", leaf, "its writer died").slice(0, 50)));
      const mine = sm.appendMessage(user("mine"));
      assert.equal(sm.getEntry(mine)?.parentId, leaf, "ours reads whole");
      assert.equal(sm.getLeafId(), mine);
      const issues = sm.getLoadIssues();
      assert.equal(issues.length, 1, "the half line is reported");
      assert.equal(issues[0].line, 4, "on the line ours shares with it");
      assert.match(issues[0].reason, /torn entry/);
      const next = sm.appendMessage(assistant("reply"));
      assert.equal(sm.getEntry(next)?.parentId, mine);
      assertLinesCounted(sm, file);
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });

  test("two lines of ours in one write (an entry beside the leaf and its leaf marker) land after theirs", async () => {
    const { file, leaf } = await written();
    const race = racingWrite();
    const sm = await SessionManager.open(file, { io: race.io });
    try {
      const q = sm.getEnvelopes()[0].id;
      race.arm(() => {
        fs.appendFileSync(file, piLine("pi000001", leaf, "one"));
        fs.appendFileSync(file, piLine("pi000002", "pi000001", "two"));
      });
      const side = sm.appendMessageAt(q, assistant("beside"));
      assert.equal(sm.getEntry(side)?.parentId, q);
      assert.equal(sm.getLeafId(), leaf, "the leaf stays where it was");
      assert.equal(sm.getEntry("pi000002")?.parentId, "pi000001");
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });

  test("our last line without its newline: pi ends it and appends between our look and our write", async () => {
    const { file, leaf } = await written();
    fs.truncateSync(file, fs.statSync(file).size - 1);
    const race = racingWrite();
    const sm = await SessionManager.open(file, { io: race.io });
    try {
      // pi 1.6 ends a last line that has no newline before it appends.
      race.arm(() => fs.appendFileSync(file, "\n" + piLine("pi000001", leaf, "after the unended line")));
      const mine = sm.appendMessage(user("mine"));
      assert.equal(sm.getEntry(mine)?.parentId, leaf);
      assert.equal(sm.getEntry("pi000001")?.parentId, leaf);
      assert.deepEqual(sm.getLoadIssues(), []);
      const next = sm.appendMessage(assistant("reply"));
      assert.equal(sm.getEntry(next)?.parentId, mine);
      assertLinesCounted(sm, file);
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });

  test("lines appended right after ours are taken in; a half one waits until it is whole", async () => {
    const { file, leaf } = await written();
    const race = racingWrite();
    const sm = await SessionManager.open(file, { io: race.io });
    try {
      const changes: SessionChange[] = [];
      sm.subscribe((c) => changes.push(c));
      const late = piLine("pi000002", leaf, "still being written");
      race.arm(
        () => undefined,
        () => {
          fs.appendFileSync(file, piLine("pi000001", leaf, "right after ours"));
          fs.appendFileSync(file, late.slice(0, 30));
        },
      );
      const mine = sm.appendMessage(user("mine"));
      assert.equal(sm.getEntry(mine)?.parentId, leaf);
      assert.equal(sm.getEntry("pi000001")?.parentId, leaf);
      assert.equal(sm.getLeafId(), mine, "the leaf is where our write put it");
      assert.deepEqual(said(changes), [`append ${mine}`, "append pi000001 by other"]);
      assert.deepEqual(sm.getLoadIssues(), [], "a line being written is no damage");
      fs.appendFileSync(file, late.slice(30));
      assert.deepEqual(
        sm.refreshFromDisk({ keepLeaf: true }).added.map((e) => e.id),
        ["pi000002"],
      );
      const fresh = await SessionManager.open(file, { readOnly: true });
      try {
        assert.deepEqual(shape(sm), shape(fresh));
        assert.deepEqual(fresh.getLoadIssues(), []);
      } finally {
        await fresh.close();
      }
    } finally {
      await sm.close();
    }
  });

  test("a write split by another program's line is refused; the file is read again from before it", async () => {
    const { file, leaf } = await written();
    let calls = 0;
    const io: SessionFileIo = {
      write: (fd, buf, offset, length) => {
        if (++calls === 2) fs.appendFileSync(file, piLine("pi000001", leaf, "between the halves"));
        // A short write: half of what was asked the first time.
        return fs.writeSync(fd, buf, offset, calls === 1 ? Math.ceil(length / 2) : length);
      },
    };
    const sm = await SessionManager.open(file, { io });
    try {
      assert.throws(() => sm.appendMessage(user("mine, split")), /another program/);
      assert.equal(sm.getEntryCount(), 2, "the split entry is not in the session");
      sm.refreshFromDisk({ keepLeaf: true });
      assert.equal(sm.getEntry("pi000001")?.parentId, leaf, "theirs is read");
      calls = 10;
      const next = sm.appendMessage(assistant("whole"));
      assert.equal(sm.getEntry(next)?.parentId, leaf);
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });

  test("the usual append (nothing else wrote) takes in nothing and says nothing", async () => {
    const { file } = await written();
    const sm = await SessionManager.open(file);
    try {
      const refreshes: DiskRefresh[] = [];
      sm.onAppendedByOther((r) => refreshes.push(r));
      for (let i = 0; i < 5; i++) sm.appendMessage(user(`m${i}`));
      assert.deepEqual(refreshes, []);
      await assertSameAsReopen(sm, file);
    } finally {
      await sm.close();
    }
  });
});
