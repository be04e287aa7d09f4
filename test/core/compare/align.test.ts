/** alignKeys: matches in order, positional pairing of what lies between, one-sided leftovers; exact and large. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { alignKeys, type AlignedPair } from "../../../src/core/compare/align.js";

/** The alignment as "a=b", "a-" (left only), "-b" (right only), matched pairs with "=", others with "~". */
function show(a: string[], b: string[]): string[] {
  return alignKeys(a, b).map((p) =>
    p.a < 0 ? `-${b[p.b]}` : p.b < 0 ? `${a[p.a]}-` : `${a[p.a]}${p.matched ? "=" : "~"}${b[p.b]}`,
  );
}

/** Every index of both sides exactly once, increasing on each side; matched pairs have equal keys. */
function checkWellFormed(a: readonly string[], b: readonly string[], pairs: readonly AlignedPair[]): void {
  const as = pairs.filter((p) => p.a >= 0).map((p) => p.a);
  const bs = pairs.filter((p) => p.b >= 0).map((p) => p.b);
  assert.deepEqual(
    as,
    a.map((_, i) => i),
  );
  assert.deepEqual(
    bs,
    b.map((_, i) => i),
  );
  for (const p of pairs) if (p.matched) assert.equal(a[p.a], b[p.b]);
}

describe("alignKeys", () => {
  test("equal sequences match one to one", () => {
    assert.deepEqual(show(["x", "y", "z"], ["x", "y", "z"]), ["x=x", "y=y", "z=z"]);
  });

  test("a divergent middle is paired by position between equal prefix and suffix", () => {
    assert.deepEqual(show(["p", "a1", "a2", "s"], ["p", "b1", "s"]), ["p=p", "a1~b1", "a2-", "s=s"]);
  });

  test("one side empty: everything goes to the other side", () => {
    assert.deepEqual(show(["x", "y"], []), ["x-", "y-"]);
    assert.deepEqual(show([], ["x"]), ["-x"]);
    assert.deepEqual(show([], []), []);
  });

  test("a turn inserted on one side is left to that side, the rest still matches", () => {
    assert.deepEqual(show(["q1", "q2", "q3"], ["q1", "extra", "q2", "q3"]), ["q1=q1", "-extra", "q2=q2", "q3=q3"]);
  });

  test("with classes, what lies between matches pairs only with its own class", () => {
    const a = ["sum", "tA", "cmp", "tB"];
    const b = ["tX"];
    const classes = { a: ["summary", "turn", "compaction", "turn"], b: ["turn"] };
    const shown = alignKeys(a, b, classes).map((p) => `${p.a < 0 ? "-" : a[p.a]}/${p.b < 0 ? "-" : b[p.b]}`);
    assert.deepEqual(shown, ["sum/-", "tA/tX", "cmp/-", "tB/-"]);
    const big = Array.from({ length: 700 }, (_, i) => (i % 2 ? "t" : "s"));
    const pairs = alignKeys(
      big.map((k, i) => `${k}${i}`),
      big.map((k, i) => `${k}${i}x`),
      { a: big, b: big },
    );
    assert.ok(
      pairs.every((p) => p.a < 0 || p.b < 0 || big[p.a] === big[p.b]),
      "large gaps keep classes apart too",
    );
    assert.equal(pairs.filter((p) => p.a >= 0 && p.b >= 0).length, 700);
  });

  test("repeated keys match in order (longest common subsequence)", () => {
    assert.deepEqual(show(["go", "x", "go"], ["go", "go"]), ["go=go", "x-", "go=go"]);
  });

  test("any input: every position exactly once, in order on both sides, matches have equal keys", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 40 }),
        fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 40 }),
        (a, b) => {
          checkWellFormed(a, b, alignKeys(a, b));
          // Classes: the key's letter class (a/b vs c/d); a pair never mixes classes.
          const cls = (k: string): string => (k < "c" ? "low" : "high");
          const pairs = alignKeys(a, b, { a: a.map(cls), b: b.map(cls) });
          checkWellFormed(a, b, pairs);
          for (const p of pairs) if (p.a >= 0 && p.b >= 0) assert.equal(cls(a[p.a]), cls(b[p.b]));
        },
      ),
    );
  });

  test("huge sequences (beyond the exact limit) align through unique keys and stay well formed", () => {
    const n = 60_000;
    const a: string[] = [];
    const b: string[] = [];
    for (let i = 0; i < n; i++) {
      a.push(`q${i}`);
      // The right side rewrites every 100th turn and inserts one after every 1000th.
      b.push(i % 100 === 50 ? `rewritten${i}` : `q${i}`);
      if (i % 1000 === 999) b.push(`inserted${i}`);
    }
    const pairs = alignKeys(a, b);
    checkWellFormed(a, b, pairs);
    const matched = pairs.filter((p) => p.matched).length;
    assert.equal(matched, n - n / 100, "every turn not rewritten is matched");
    const rewritten = pairs.filter((p) => p.a >= 0 && p.b >= 0 && !p.matched);
    assert.equal(rewritten.length, n / 100, "each rewritten turn is paired with its rewrite");
    for (const p of rewritten) assert.equal(b[p.b], `rewritten${p.a}`);
    assert.equal(pairs.filter((p) => p.a < 0).length, n / 1000, "the insertions are right-only");
  });

  test("huge sequences with nothing in common pair by position", () => {
    const a = Array.from({ length: 40_000 }, (_, i) => `l${i}`);
    const b = Array.from({ length: 30_000 }, (_, i) => `r${i}`);
    const pairs = alignKeys(a, b);
    checkWellFormed(a, b, pairs);
    assert.equal(pairs.filter((p) => p.a >= 0 && p.b >= 0).length, 30_000);
    assert.equal(pairs.filter((p) => p.b < 0).length, 10_000);
  });
});
