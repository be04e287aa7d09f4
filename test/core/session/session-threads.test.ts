import assert from "node:assert/strict";
import { test } from "node:test";
import {
  buildSessionThreads,
  flattenThreads,
  type SessionThread,
  type ThreadableSession,
} from "../../../src/core/session/session-threads.js";

const s = (path: string, minutes: number, parent?: string): ThreadableSession => ({
  path: `/sessions/${path}.jsonl`,
  modified: new Date(Date.UTC(2026, 0, 1, 0, minutes)),
  ...(parent === undefined ? {} : { parentSessionPath: `/sessions/${parent}.jsonl` }),
});

/** "name(fork, fork)" for a quick look at a forest. */
function shape(threads: readonly SessionThread<ThreadableSession>[]): string {
  const name = (t: SessionThread<ThreadableSession>): string => {
    const base = t.session.path.replace(/^\/sessions\/|\.jsonl$/g, "");
    return t.forks.length ? `${base}(${t.forks.map(name).join(" ")})` : base;
  };
  return threads.map(name).join(" ");
}

test("forks nest under the session they were forked from, forks of forks too", () => {
  const threads = buildSessionThreads([s("a", 1), s("b", 2, "a"), s("c", 3, "b"), s("d", 4)]);
  assert.equal(shape(threads), "d a(b(c))");
  assert.deepEqual(
    flattenThreads(threads).map((r) => [r.session.path, r.depth, r.forkOf?.path]),
    [
      ["/sessions/d.jsonl", 0, undefined],
      ["/sessions/a.jsonl", 0, undefined],
      ["/sessions/b.jsonl", 1, "/sessions/a.jsonl"],
      ["/sessions/c.jsonl", 2, "/sessions/b.jsonl"],
    ],
  );
});

test("newest activity first: a thread's newest session (a fork included) orders it and its siblings", () => {
  // a is old but its fork a2 is the newest session of all; b1 is newer than b2 on its own, but b2 has a newer fork.
  const threads = buildSessionThreads([
    s("a", 1),
    s("x", 50),
    s("a2", 90, "a"),
    s("b", 5),
    s("b1", 20, "b"),
    s("b2", 10, "b"),
    s("b2a", 30, "b2"),
  ]);
  assert.equal(shape(threads), "a(a2) x b(b2(b2a) b1)");
  assert.equal(threads[0].activity, Date.UTC(2026, 0, 1, 0, 90));
});

test("a fork whose parent is missing is a thread of its own", () => {
  assert.equal(shape(buildSessionThreads([s("orphan", 5, "deleted"), s("a", 1)])), "orphan a");
});

test("cycles are cut: every session appears once", () => {
  const threads = buildSessionThreads([s("a", 2, "b"), s("b", 1, "a"), s("self", 3, "self")]);
  assert.equal(shape(threads), "self b(a)");
  assert.equal(flattenThreads(threads).length, 3);
});

test("parent paths are compared resolved", () => {
  const threads = buildSessionThreads([
    s("a", 1),
    { path: "/sessions/f.jsonl", modified: new Date(5), parentSessionPath: "/sessions/../sessions/a.jsonl" },
  ]);
  assert.equal(shape(threads), "a(f)");
});
