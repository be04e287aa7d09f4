/**
 * parentId cycles in a damaged file: reported as load issues, broken at the cycle's entry that comes first
 * in the file (it becomes a root), every entry in getTree(), no path repeating an entry, forks without
 * duplicate ids.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SessionManager, type SessionTreeNode } from "../../../src/core/index.js";
import { readJsonl, SessionBuilder, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest("session-cycles-");

/** A v3 file with entries given as [id, parentId] (user messages), in this file order. */
function writeSession(name: string, links: [string, string | null][]): string {
  const s = new SessionBuilder({ id: name, cwd: "/", start: Date.UTC(2025, 0, 1) - 1000 }).header();
  for (const [id, parentId] of links) s.message(user(`text of ${id}`), { id, parentId });
  return s.write(tmp.dir, name);
}

function treeIds(nodes: SessionTreeNode[]): string[] {
  const out: string[] = [];
  const stack = [...nodes];
  for (let guard = 0; stack.length > 0 && guard < 10_000; guard++) {
    const n = stack.pop() as SessionTreeNode;
    out.push(n.entry.id);
    stack.push(...n.children);
  }
  return out.sort();
}

function assertNoRepeats(ids: string[]): void {
  assert.equal(new Set(ids).size, ids.length, `repeated entries: ${ids.join(",")}`);
}

describe("parentId cycles", () => {
  test("A ↔ B: reported, broken at A (first in the file), every entry in the tree, paths without repeats", async () => {
    const file = writeSession("two.jsonl", [
      ["root0001", null],
      ["aaaaaaaa", "bbbbbbbb"],
      ["bbbbbbbb", "aaaaaaaa"],
      ["child001", "bbbbbbbb"],
    ]);
    const sm = await SessionManager.open(file, { readOnly: true });
    const issues = sm.getLoadIssues();
    assert.equal(issues.length, 1, JSON.stringify(issues));
    assert.equal(issues[0].line, 3);
    assert.match(issues[0].reason, /parentId cycle aaaaaaaa → bbbbbbbb → aaaaaaaa; entry aaaaaaaa is shown as a root/);
    const tree = sm.getTree();
    assert.deepEqual(treeIds(tree), ["aaaaaaaa", "bbbbbbbb", "child001", "root0001"]);
    const a = tree.find((n) => n.entry.id === "aaaaaaaa");
    assert.equal(a?.orphan, true);
    assert.equal(sm.getEnvelope("aaaaaaaa")?.orphan, true);
    assert.deepEqual(
      sm.getPath("child001").map((e) => e.id),
      ["aaaaaaaa", "bbbbbbbb", "child001"],
    );
    assert.equal(sm.getLeafId(), "child001");
    assert.equal(sm.buildSessionContext().messages.length, 3);
    await sm.close();
  });

  test("a 3-cycle holding the leaf: the path and the context never repeat, a fork has no duplicate ids", async () => {
    const file = writeSession("three.jsonl", [
      ["root0001", null],
      ["cccccccc", "eeeeeeee"],
      ["dddddddd", "cccccccc"],
      ["eeeeeeee", "dddddddd"],
    ]);
    const sm = await SessionManager.open(file);
    assert.equal(sm.getLoadIssues().length, 1);
    assert.match(sm.getLoadIssues()[0].reason, /cccccccc → eeeeeeee → dddddddd → cccccccc/);
    assert.equal(sm.getLeafId(), "eeeeeeee");
    const pathIds = sm.getPath().map((e) => e.id);
    assertNoRepeats(pathIds);
    assert.deepEqual(pathIds, ["cccccccc", "dddddddd", "eeeeeeee"]);
    assert.equal(sm.buildSessionContext().messages.length, 3);
    assert.deepEqual(treeIds(sm.getTree()), ["cccccccc", "dddddddd", "eeeeeeee", "root0001"]);
    assert.equal(sm.findCommonAncestor("eeeeeeee", "dddddddd"), "dddddddd");

    const fork = (await sm.createBranchedSession("eeeeeeee")) as string;
    const forkIds = readJsonl(fork)
      .slice(1)
      .map((l) => l.id as string);
    assertNoRepeats(forkIds);
    const forked = await SessionManager.open(fork, { readOnly: true });
    assert.deepEqual(forked.getLoadIssues(), [], "the fork holds the cycle again");
    assert.deepEqual(
      forked.getPath().map((e) => e.id),
      ["cccccccc", "dddddddd", "eeeeeeee"],
    );
    await forked.close();

    // Appending continues from the leaf; the new entry hangs below the broken cycle.
    const next = sm.appendMessage({ role: "user", content: "next", timestamp: 9 });
    assert.deepEqual(
      sm.getPath().map((e) => e.id),
      ["cccccccc", "dddddddd", "eeeeeeee", next],
    );
    await sm.close();
  });

  test("a self-parented entry and an entry hanging below a cycle stay visible; files without cycles report none", async () => {
    const file = writeSession("mixed.jsonl", [
      ["selfself", "selfself"],
      ["aaaaaaaa", "bbbbbbbb"],
      ["bbbbbbbb", "aaaaaaaa"],
      ["below001", "aaaaaaaa"],
      ["later001", "ffffffff"],
      ["ffffffff", null],
    ]);
    const sm = await SessionManager.open(file, { readOnly: true });
    assert.deepEqual(
      sm.getLoadIssues().map((i) => i.line),
      [3],
    );
    assert.equal(treeIds(sm.getTree()).length, 6);
    // A forward reference that is no cycle: an ordinary child of a later entry.
    assert.deepEqual(
      sm.getPath("later001").map((e) => e.id),
      ["ffffffff", "later001"],
    );
    await sm.close();
  });
});
