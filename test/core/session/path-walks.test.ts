/**
 * The walks a move asks of the store — the fork of two paths (findCommonAncestor) and what the path to the leaf
 * changed since an earlier path (getPathChange) — walk from the entries up to their fork, not along whole paths,
 * and answer what a comparison of the two whole paths answers: in random trees, across orphans and broken parentId
 * cycles, after appends.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { EntryIndex } from "../../../src/core/session/entry-index.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { SessionBuilder, assistant, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest("session-path-walks-");

/** The ids of the path to `id` (root first), as getPathEnvelopes walks it. */
function pathIds(sm: SessionManager, id: string | null): string[] {
  return id === null ? [] : sm.getPathEnvelopes(id).map((e) => e.id);
}

/** How many entries two paths start with. */
function sharedStart(a: readonly string[], b: readonly string[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/** Checks both walks against whole-path comparisons for every pair of `ids` (and from no path). */
function assertWalks(sm: SessionManager, ids: readonly string[]): void {
  const leaf = sm.getLeafId();
  const leafPath = pathIds(sm, leaf);
  for (const a of ids) {
    const pathA = pathIds(sm, a);
    for (const b of ids) {
      const k = sharedStart(pathA, pathIds(sm, b));
      assert.equal(sm.findCommonAncestor(a, b), k === 0 ? null : pathA[k - 1], `fork of ${a} and ${b}`);
    }
    const change = sm.getPathChange(a);
    const shared = sharedStart(pathA, leafPath);
    assert.deepEqual(
      change && { shared: change.shared, tail: change.tail.map((e) => e.id), leafId: change.leafId },
      { shared, tail: leafPath.slice(shared), leafId: leaf },
      `the path's change since ${a}`,
    );
  }
  const whole = sm.getPathChange(null);
  assert.deepEqual(whole && [whole.shared, whole.tail.map((e) => e.id)], [0, leafPath]);
  assert.equal(sm.getPathChange("no-such-entry"), undefined);
}

describe("path walks of a move", () => {
  test("match whole-path comparisons in random trees, after moves and appends", () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(), fc.boolean()), { minLength: 1, maxLength: 60 }), (steps) => {
        const sm = SessionManager.inMemory("/tmp");
        const ids: string[] = [];
        for (const [pick, move] of steps) {
          // Sometimes branch from an earlier entry first (a move), then append there.
          if (move && ids.length > 0) sm.branch(ids[pick % ids.length]);
          ids.push(sm.appendMessage(ids.length % 2 === 0 ? user(`u${ids.length}`) : assistant(`a${ids.length}`)));
        }
        assertWalks(sm, ids);
        // A move to an earlier entry, and appends after it: the depths kept from before still hold.
        sm.branch(ids[steps[0][0] % ids.length]);
        ids.push(sm.appendMessage(user("after the move")));
        assertWalks(sm, ids);
      }),
      { numRuns: 80 },
    );
  });

  test("match whole-path comparisons across orphans and a broken parentId cycle", async () => {
    const s = new SessionBuilder({ id: "walks", cwd: "/", start: Date.UTC(2025, 0, 1) - 1000 }).header();
    const links: [string, string | null][] = [
      ["root0001", null],
      ["child001", "root0001"],
      ["child002", "child001"],
      ["sibling1", "root0001"],
      ["aaaaaaaa", "bbbbbbbb"],
      ["bbbbbbbb", "aaaaaaaa"],
      ["below-ab", "bbbbbbbb"],
      ["orphan01", "missing1"],
      ["below-or", "orphan01"],
      ["child003", "child002"],
    ];
    for (const [id, parentId] of links) s.message(user(`text of ${id}`), { id, parentId });
    const sm = await SessionManager.open(s.write(tmp.dir, "walks.jsonl"));
    const ids = links.map(([id]) => id);
    assertWalks(sm, ids);
    for (const id of ids) {
      sm.branch(id);
      assertWalks(sm, ids);
    }
    await sm.close();
  });

  test("build no path: a move in a long session walks from the two entries up to their fork", () => {
    const sm = SessionManager.inMemory("/tmp");
    const ids: string[] = [];
    for (let i = 0; i < 5000; i++) ids.push(sm.appendMessage(i % 2 === 0 ? user(`u${i}`) : assistant(`a${i}`)));
    const fork = ids[4990];
    sm.branch(fork);
    const other = sm.appendMessage(user("another branch"));
    // Whole paths are what these walks used to build (EntryIndex.pathTo): taken away, the walks must still answer.
    const pathTo = Object.getOwnPropertyDescriptor(EntryIndex.prototype, "pathTo");
    assert.ok(pathTo);
    Object.defineProperty(EntryIndex.prototype, "pathTo", {
      ...pathTo,
      value: () => assert.fail("a whole path was built"),
    });
    try {
      assert.equal(sm.findCommonAncestor(ids[4999], other), fork);
      const change = sm.getPathChange(ids[4999]);
      assert.equal(change?.shared, 4991);
      assert.deepEqual(
        change?.tail.map((e) => e.id),
        [other],
      );
    } finally {
      Object.defineProperty(EntryIndex.prototype, "pathTo", pathTo);
    }
  });
});
