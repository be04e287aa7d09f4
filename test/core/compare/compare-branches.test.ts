/**
 * BranchComparison on real session stores: the common ancestor, turns aligned by user message, statuses from
 * envelopes and bodies, word differences, summaries and compactions as turns of their own, one side empty, pages,
 * a file reopened lazily, and branches of thousands of turns.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, test } from "node:test";
import { BranchComparison, MAX_PAGE_TURNS } from "../../../src/core/compare/compare-branches.js";
import { statusOfCode, type CompareTurn } from "../../../src/core/compare/compare-types.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { assistant, namedSession, user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

const statuses = (c: BranchComparison): string[] => [...c.overview.statuses].map(statusOfCode);
const texts = (t: CompareTurn, side: "left" | "right"): string[] =>
  t.rows.flatMap((r) => (r[side] ? [`${r[side].item.kind}:${r[side].item.text}`] : []));

/**
 * u1 → a1 ┬→ u2 "Try approach A" → a2 → u3 "Run the tests" → a3 "All green"     (left)
 *         └→ u4 "Try approach B" → a4 → u5 "Run the tests" → a5 "All green"     (right)
 */
function forked(): { sm: SessionManager; ids: Record<string, string> } {
  return namedSession("/p", [
    "u1: Write a parser",
    "a1: Which approach?",
    "u2: Try approach A",
    "a2: Approach A: a hand-written recursive descent parser.",
    "u3: Run the tests",
    "a3: All green",
    "from a1",
    "u4: Try approach B",
    "a4: Approach B: a generated PEG parser.",
    "u5: Run the tests",
    "a5: All green",
  ]);
}

describe("BranchComparison", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => (tmp = tempDir("compare-test-")));
  afterEach(() => tmp.cleanup());

  test("common ancestor, ends, and divergent turns aligned by user message", () => {
    const { sm, ids } = forked();
    const c = BranchComparison.create(sm, ids.a3, ids.a5);
    assert.equal(c.overview.ancestor?.entryId, ids.a1);
    assert.equal(c.overview.ancestor?.sharedTurns, 1);
    assert.deepEqual(
      c.overview.ancestor?.items.map((i) => i.text),
      ["Write a parser", "Which approach?"],
      "the ancestor's turn up to the ancestor, for context",
    );
    assert.equal(c.overview.left.entryId, ids.a3);
    assert.equal(c.overview.left.title, "assistant: All green");
    assert.equal(c.overview.left.turns, 2);
    assert.deepEqual(statuses(c), ["changed", "same"]);
    const [first, second] = c.turns(0, 10);
    assert.deepEqual(texts(first, "left"), [
      "user:Try approach A",
      "assistant:Approach A: a hand-written recursive descent parser.",
    ]);
    assert.deepEqual(texts(first, "right"), ["user:Try approach B", "assistant:Approach B: a generated PEG parser."]);
    assert.deepEqual(
      first.rows[0].left?.spans?.filter((s) => s.changed).map((s) => s.text),
      ["A"],
      "word-level difference of the edited prompt",
    );
    assert.equal(second.status, "same");
    assert.equal(second.rows[0].left?.spans, undefined, "same items carry no spans");
  });

  test("equal previews but different bodies are changed (bodies are read when envelopes agree)", () => {
    const sm = SessionManager.inMemory("/p");
    const root = sm.appendMessage(user("Start"));
    const head = "x".repeat(300);
    const l = sm.appendMessage(assistant(`${head} ending one`));
    sm.branch(root);
    const r = sm.appendMessage(assistant(`${head} ending two`));
    assert.equal(sm.getEnvelope(l)?.preview, sm.getEnvelope(r)?.preview, "previews alike: only bodies tell");
    const c = BranchComparison.create(sm, l, r);
    assert.deepEqual(statuses(c), ["changed"]);
    const [turn] = c.turns(0, 1);
    assert.equal(turn.kind, "continuation", "entries after the ancestor before any user message");
    assert.deepEqual(
      turn.rows[0].right?.spans?.filter((s) => s.changed).map((s) => s.text),
      ["two"],
    );
  });

  test("one side empty: the node is on the other's path", () => {
    const { sm, ids } = forked();
    const c = BranchComparison.create(sm, ids.a3, ids.u2);
    assert.equal(c.overview.ancestor?.entryId, ids.u2);
    assert.deepEqual(statuses(c), ["left", "left"]);
    assert.equal(c.overview.right.turns, 0);
    const turns = c.turns(0, 5);
    assert.ok(turns.every((t) => t.rows.every((r) => r.right === undefined && r.status === "left")));
    assert.deepEqual(
      turns.map((t) => t.kind),
      ["continuation", "turn"],
    );
  });

  test("the same node on both sides: nothing differs", () => {
    const { sm, ids } = forked();
    const c = BranchComparison.create(sm, ids.a3, ids.a3);
    assert.equal(c.overview.statuses, "");
    assert.equal(c.overview.ancestor?.entryId, ids.a3);
  });

  test("summaries and compactions are turns of their own; bookkeeping entries are in none", () => {
    const { sm, ids } = forked();
    sm.branch(ids.a3);
    sm.appendLabelChange(ids.a3, "label is not a turn");
    sm.appendModelChange("openai", "gpt-x");
    const summary = sm.appendBranchSummary(ids.a5, "Approach B also passed its tests.");
    const comp = sm.appendCompaction("Earlier: parser work.", ids.u3, 1234);
    const after = sm.appendMessage(assistant("continuing after the compaction"));
    const c = BranchComparison.create(sm, after, ids.a5);
    const turns = c.turns(0, 10);
    assert.deepEqual(
      turns.map((t) => t.kind),
      ["turn", "turn", "branchSummary", "compaction", "continuation"],
    );
    assert.deepEqual(texts(turns[1], "left"), [
      "user:Run the tests",
      "assistant:All green",
      "model_change:openai/gpt-x",
    ]);
    assert.deepEqual(texts(turns[2], "left"), ["branch_summary:Approach B also passed its tests."]);
    assert.equal(turns[2].rows[0].left?.item.entryId, summary);
    assert.equal(turns[3].rows[0].left?.item.title, "1k tokens before");
    assert.equal(turns[3].rows[0].left?.item.entryId, comp);
    assert.deepEqual(statuses(c), ["changed", "changed", "left", "left", "left"]);
  });

  test("tool calls and results are items; a long tool output is cut for display but compared whole", () => {
    const sm = SessionManager.inMemory("/p");
    const root = sm.appendMessage(user("List files"));
    const make = (tail: string): string => {
      const call = sm.appendMessage(assistant("", ["ls"]));
      return (
        sm.appendMessage({
          role: "toolResult",
          toolCallId: `call_0`,
          toolName: "ls",
          content: [{ type: "text", text: "f".repeat(10_000) + tail }],
          isError: false,
          timestamp: 1,
        }) && call
      );
    };
    make("A");
    const l = sm.getLeafId() as string;
    sm.branch(root);
    make("B");
    const r = sm.getLeafId() as string;
    const c = BranchComparison.create(sm, l, r);
    assert.deepEqual(statuses(c), ["changed"], "outputs differ after the cut");
    const [turn] = c.turns(0, 1);
    assert.deepEqual(
      turn.rows.map((row) => [row.status, row.left?.item.kind, row.left?.item.title]),
      [
        ["same", "toolCall", "ls"],
        ["changed", "toolResult", "ls"],
      ],
    );
    assert.equal(turn.rows[1].left?.item.text.length, 4000);
    assert.equal(turn.rows[1].left?.item.omitted, 6001);
  });

  test("pages are clamped, and a file reopened read-only (bodies read lazily) compares the same", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const root = sm.appendMessage(user("root"));
    for (let i = 0; i < 120; i++) {
      sm.appendMessage(user(`question ${i}`));
      sm.appendMessage(assistant(`left answer ${i}`));
    }
    const left = sm.getLeafId() as string;
    sm.branch(root);
    for (let i = 0; i < 120; i++) {
      sm.appendMessage(user(`question ${i}`));
      sm.appendMessage(assistant(i % 10 === 0 ? `right answer ${i}` : `left answer ${i}`));
    }
    const right = sm.getLeafId() as string;
    const file = sm.getSessionFile() as string;
    const before = BranchComparison.create(sm, left, right);
    await sm.close();
    // Read-only, as a session another window holds (or pi's and Claude Code's) is opened.
    const again = await SessionManager.open(file, { readOnly: true });
    const c = BranchComparison.create(again, left, right);
    assert.equal(c.overview.statuses, before.overview.statuses);
    assert.equal(c.turnCount, 120);
    assert.equal(statuses(c).filter((s) => s === "changed").length, 12);
    assert.equal(c.turns(0, 1000).length, MAX_PAGE_TURNS);
    const tail = c.turns(110, 50);
    assert.deepEqual(
      tail.map((t) => t.index),
      Array.from({ length: 10 }, (_, i) => 110 + i),
    );
    assert.equal(tail[0].status, "changed");
    assert.deepEqual(c.turns(500, 10), []);
    await again.close();
  });

  test("thousands of turns: aligned per user message, inserted and rewritten turns found", () => {
    const sm = SessionManager.inMemory("/p");
    const root = sm.appendMessage(user("root"));
    const n = 3000;
    for (let i = 0; i < n; i++) {
      sm.appendMessage(user(`step ${i}`));
      sm.appendMessage(assistant(`done ${i}`));
    }
    const left = sm.getLeafId() as string;
    sm.branch(root);
    for (let i = 0; i < n; i++) {
      sm.appendMessage(user(i % 500 === 7 ? `changed step ${i}` : `step ${i}`));
      sm.appendMessage(assistant(`done ${i}`));
      if (i % 1000 === 999) {
        sm.appendMessage(user(`extra ${i}`));
        sm.appendMessage(assistant("extra reply"));
      }
    }
    const c = BranchComparison.create(sm, left, sm.getLeafId() as string);
    const s = statuses(c);
    assert.equal(s.length, n + 3);
    assert.equal(s.filter((x) => x === "right").length, 3, "the inserted turns");
    assert.equal(s.filter((x) => x === "changed").length, n / 500, "the rewritten prompts");
    assert.equal(s.filter((x) => x === "same").length, n - n / 500);
  });

  test("unknown ids throw a clear error", () => {
    const { sm, ids } = forked();
    assert.throws(() => BranchComparison.create(sm, ids.a3, "nope"), /no entry with id "nope"/);
  });
});
