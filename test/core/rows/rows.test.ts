/** The tree's row (tree-row.ts) and its columnar form (row-columns.ts): one type from the store to the webview. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeRows, encodeEnvelopes, encodeTreeRows, indexOfId } from "../../../src/core/rows/row-columns.js";
import { rowWords } from "../../../src/core/entries/row-words.js";
import { singleLine, treeRowOf, treeRows } from "../../../src/core/rows/tree-row.js";
import { ENTRY_KINDS, kindOf, type EntryKind } from "../../../src/core/session/entry-kinds.js";
import type { EntryEnvelope } from "../../../src/core/session/types.js";

const env = (id: string, parentId: string | null, type: string, extra: Partial<EntryEnvelope> = {}): EntryEnvelope => ({
  id,
  parentId,
  type,
  timestamp: "2026-01-01T00:00:00.000Z",
  preview: `text of ${id}`,
  ...extra,
});

test("message roles and entry types map to row kinds", () => {
  assert.equal(kindOf("message", "user"), "user");
  assert.equal(kindOf("message", "assistant"), "assistant");
  assert.equal(kindOf("message", "toolResult"), "toolResult");
  assert.equal(kindOf("message", "bashExecution"), "bashExecution");
  assert.equal(kindOf("message", "custom"), "custom_message");
  assert.equal(kindOf("message", "branchSummary"), "branch_summary");
  assert.equal(kindOf("message", "compactionSummary"), "compaction");
  assert.equal(kindOf("message", "hookMessage"), "unknown");
  assert.equal(kindOf("message", "toString"), "unknown");
  assert.equal(kindOf("message"), "unknown");
  for (const t of ["custom_message", "branch_summary", "compaction", "label", "custom", "model_change"]) {
    assert.equal(kindOf(t), t);
  }
  assert.equal(kindOf("thinking_level_change"), "thinking_level_change");
  assert.equal(kindOf("session_info"), "session_info");
  assert.equal(kindOf("future_entry_type"), "unknown");
  assert.equal(kindOf("usage"), "usage");
  assert.equal(kindOf("context_edit"), "context_edit");
  assert.equal(kindOf("message", "system"), "system");
  assert.equal(kindOf("constructor"), "unknown");
});

test("an envelope becomes a row with only the flags that are set", () => {
  const row = treeRowOf(
    env("a", null, "message", { role: "assistant", toolCallsOnly: true, toolName: "read, bash", failed: true }),
    "checkpoint",
  );
  assert.deepEqual(row, {
    id: "a",
    parentId: null,
    kind: "assistant",
    timestamp: "2026-01-01T00:00:00.000Z",
    preview: "text of a",
    label: "checkpoint",
    toolCallsOnly: true,
    toolName: "read, bash",
    failed: true,
  });
  const plain = treeRowOf(env("b", "a", "compaction", { tokens: 12000, orphan: true, hidden: false }));
  assert.deepEqual(plain, {
    id: "b",
    parentId: "a",
    kind: "compaction",
    timestamp: "2026-01-01T00:00:00.000Z",
    preview: "text of b",
    tokens: 12000,
    orphan: true,
  });
  assert.equal(treeRowOf(env("c", "a", "message", { role: "user" }), "").label, undefined);
});

test("previews are single-line and bounded", () => {
  const row = treeRowOf(env("a", null, "message", { role: "user", preview: "line1\n\n  line2\t" }));
  assert.equal(row.preview, "line1 line2");
  const long = singleLine("y".repeat(500));
  assert.equal(long.length, 200);
  assert.ok(long.endsWith("…"));
});

test("treeRows keeps file order and resolves labels", () => {
  const envs = [env("r", null, "message", { role: "user" }), env("s", "r", "message", { role: "assistant" })];
  const rows = treeRows({ getEnvelopes: () => envs, getLabel: (id) => (id === "s" ? "done" : undefined) });
  assert.deepEqual(
    rows.map((n) => [n.id, n.kind, n.label]),
    [
      ["r", "user", undefined],
      ["s", "assistant", "done"],
    ],
  );
});

test("every kind has a role word: conversation as `word:`, bookkeeping as `[word]`", () => {
  const words = (kind: EntryKind, extra: Partial<EntryEnvelope> = {}) =>
    rowWords({ ...treeRowOf(env("x", null, "custom")), kind, ...extra });
  const role = (kind: EntryKind, extra: Partial<EntryEnvelope> = {}): string => words(kind, extra).role;
  assert.equal(role("user"), "user:");
  assert.equal(role("bashExecution"), "bash:");
  assert.equal(role("model_change"), "[model]");
  assert.equal(role("system"), "[system prompt]");
  assert.equal(role("toolResult", { toolName: "read" }), "tool read:");
  assert.deepEqual(words("compaction", { tokens: 12_345 }), { role: "[compaction]", text: "12k tokens before" });
  assert.equal(role("custom_message"), "hook message:");
  assert.equal(role("thinking_level_change"), "[thinking level]");
  assert.deepEqual(words("custom", { preview: "agent-tree/checkpoint" }), { role: "[checkpoint]", text: "" });
  assert.deepEqual(words("custom", { preview: "my-ext/state" }), { role: "[extension state]", text: "my-ext/state" });
  assert.deepEqual(words("label", { preview: "" }), { role: "[label]", text: "(label cleared)" });
  for (const k of ENTRY_KINDS) assert.notEqual(role(k), "", k);
});

test("columns encode parents as indexes, drop later duplicates and decode back to the rows", () => {
  const envs = [
    env("r", null, "message", { role: "user", timestamp: "2026-01-01T00:00:01.000Z" }),
    env("a", "r", "message", { role: "assistant", toolName: "read", toolCallsOnly: true }),
    env("c", "r", "compaction", { tokens: 1234, preview: "x".repeat(300) }),
    env("a", "c", "message", { role: "user", preview: "duplicate" }),
    env("o", "missing", "custom_message", { orphan: true, hidden: true }),
    env("self", "self", "message", { role: "assistant", failed: true }),
  ];
  const label = (id: string): string | undefined => (id === "c" ? "kept" : undefined);
  const cols = encodeEnvelopes(envs, label);
  assert.equal(cols.count, 5);
  assert.deepEqual([...cols.parents], [-1, 0, 0, -1, -1]);
  assert.equal(indexOfId(cols, "c"), 2);
  assert.equal(indexOfId(cols, "el"), -1, "a piece of an id is no id");
  assert.deepEqual(cols.labels, { at: [2], values: ["kept"] });
  assert.deepEqual(cols.tokens, { at: [2], values: [1234] });
  assert.deepEqual(cols.parentIds, { at: [3, 4], values: ["missing", "self"] });
  assert.deepEqual(
    [...(cols.order ?? [])].filter((i) => cols.parents[i] < 0),
    [3, 4, 0],
    "roots o and self are older than root r",
  );
  const rows = decodeRows(cols);
  const expected = [envs[0], envs[1], envs[2], envs[4], envs[5]].map((e) => treeRowOf(e, label(e.id)));
  // The self-parented row is a root in the columns; its parentId survives as a sparse field.
  assert.deepEqual(rows, expected);
  assert.equal(rows[2].preview.length, 200);
  assert.deepEqual(decodeRows(encodeTreeRows(rows)), rows, "rows → columns → rows is the identity");
});

test("columns: an entry the store made a root to break a parentId cycle is a root row", () => {
  // The store flags the cycle's first entry `orphan` although its parentId names an entry (b).
  const envs = [env("a", "b", "message", { role: "user", orphan: true }), env("b", "a", "message", { role: "user" })];
  assert.deepEqual([...encodeEnvelopes(envs, () => undefined).parents], [-1, 0]);
});

test("columns carry the sibling order only when file order is not that order", () => {
  const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const inOrder = [
    env("r", null, "message", { role: "user", timestamp: at(0) }),
    env("a", "r", "message", { role: "assistant", timestamp: at(1) }),
    env("b", "r", "message", { role: "assistant", timestamp: at(2) }),
  ];
  assert.equal(encodeEnvelopes(inOrder, () => undefined).order, undefined);
  const chain = [inOrder[0], inOrder[1], { ...inOrder[2], parentId: "a", timestamp: at(0) }];
  assert.equal(encodeEnvelopes(chain, () => undefined).order, undefined, "only siblings are compared");
  const outOfOrder = [inOrder[0], { ...inOrder[1], timestamp: at(5) }, inOrder[2]];
  assert.deepEqual(encodeEnvelopes(outOfOrder, () => undefined).order, Int32Array.of(0, 2, 1));
});

test("columns make multi-line previews single-line", () => {
  const cols = encodeEnvelopes([env("r", null, "message", { role: "user", preview: "a\n\n b" })], () => undefined);
  assert.deepEqual(decodeRows(cols)[0].preview, "a b");
});

test("a branch summary's fromId travels in the row and through the columns", () => {
  const envs = [
    env("u", null, "message", { role: "user" }),
    env("s", "u", "branch_summary", { fromId: "x" }),
    env("x", "u", "message", { role: "assistant" }),
  ];
  assert.equal(treeRowOf(envs[1]).fromId, "x");
  const cols = encodeEnvelopes(envs, () => undefined);
  assert.deepEqual(cols.fromIds, { at: [1], values: ["x"] });
  const rows = decodeRows(cols);
  assert.equal(rows[1].fromId, "x");
  assert.equal(rows[0].fromId, undefined);
});

test("changed-file counts travel as a sparse column that decodes onto the rows", () => {
  const envs = [
    env("u", null, "message", { role: "user" }),
    env("r", "u", "message", { role: "toolResult", toolName: "write" }),
    env("k", "r", "custom", { preview: "agent-tree/checkpoint" }),
  ];
  const cols = encodeEnvelopes(envs, () => undefined, new Map([["r", 2]]));
  assert.deepEqual(cols.changedFiles, { at: [1], values: [2] });
  assert.deepEqual(
    decodeRows(cols).map((d) => d.changedFiles),
    [undefined, 2, undefined],
  );
  assert.equal(treeRowOf(envs[1], undefined, 2).changedFiles, 2);
  assert.deepEqual(encodeEnvelopes(envs, () => undefined).changedFiles, { at: [], values: [] });
});
