/** wordDiff: runs that rebuild both texts, changed runs exactly where the texts differ, bounded on huge inputs. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import type { DiffSpan } from "../../../src/core/compare/compare-types.js";
import { MAX_EDITS, wordDiff } from "../../../src/core/compare/word-diff.js";

const joined = (runs: DiffSpan[]): string => runs.map((r) => r.text).join("");
const changed = (runs: DiffSpan[]): string[] => runs.filter((r) => r.changed).map((r) => r.text);

describe("wordDiff", () => {
  test("equal texts: one unchanged run each", () => {
    assert.deepEqual(wordDiff("same text", "same text"), {
      left: [{ text: "same text" }],
      right: [{ text: "same text" }],
    });
  });

  test("a replaced word is the only changed run on each side", () => {
    const d = wordDiff("Use approach A for the parser.", "Use approach B for the parser.");
    assert.deepEqual(changed(d.left), ["A"]);
    assert.deepEqual(changed(d.right), ["B"]);
  });

  test("words added on one side are changed there only", () => {
    const d = wordDiff("keep the API", "keep the public API stable");
    assert.deepEqual(changed(d.left), []);
    assert.deepEqual(changed(d.right), ["public ", " stable"]);
  });

  test("the runs always rebuild both texts, and unchanged runs are common to both", () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom("a", "b", "c", " ", ".", "\n", "é"), { maxLength: 60 }),
        fc.array(fc.constantFrom("a", "b", "c", " ", ".", "\n", "é"), { maxLength: 60 }),
        (x, y) => {
          const a = x.join("");
          const b = y.join("");
          const d = wordDiff(a, b);
          assert.equal(joined(d.left), a);
          assert.equal(joined(d.right), b);
          const keptA = d.left
            .filter((r) => !r.changed)
            .map((r) => r.text)
            .join("");
          const keptB = d.right
            .filter((r) => !r.changed)
            .map((r) => r.text)
            .join("");
          assert.equal(keptA, keptB, "the unchanged words are the same on both sides");
        },
      ),
    );
  });

  test("two unrelated huge texts: the middle is changed as a whole, texts intact", () => {
    const a = Array.from({ length: 5000 }, (_, i) => `alpha${i}`).join(" ");
    const b = Array.from({ length: 5000 }, (_, i) => `beta${i}`).join(" ");
    const d = wordDiff(a, b);
    assert.equal(joined(d.left), a);
    assert.equal(joined(d.right), b);
    assert.ok(d.left.length <= 3 && d.right.length <= 3, "few runs when past the edit bound");
    assert.ok(MAX_EDITS < 10_000);
  });
});
