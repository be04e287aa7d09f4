import { test } from "node:test";
import assert from "node:assert/strict";
import { decodeTreeColumns } from "../../src/shared/tree-columns.js";
import {
  buildTreeColumns,
  buildTreeNodes,
  envelopeToDto,
  kindOf,
  labelChangeOf,
  singleLine,
  type EnvelopeLike,
} from "../../src/host/tree-dto.js";

const env = (id: string, parentId: string | null, type: string, extra: Partial<EnvelopeLike> = {}): EnvelopeLike => ({
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
  const dto = envelopeToDto(
    env("a", null, "message", { role: "assistant", toolCallsOnly: true, toolName: "read, bash", failed: true }),
    "checkpoint",
  );
  assert.deepEqual(dto, {
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
  const plain = envelopeToDto(env("b", "a", "compaction", { tokens: 12000, orphan: true, hidden: false }));
  assert.deepEqual(plain, {
    id: "b",
    parentId: "a",
    kind: "compaction",
    timestamp: "2026-01-01T00:00:00.000Z",
    preview: "text of b",
    tokens: 12000,
    orphan: true,
  });
  assert.equal(envelopeToDto(env("c", "a", "message", { role: "user" }), "").label, undefined);
});

test("numeric timestamps become ISO strings; previews are single-line and bounded", () => {
  const dto = envelopeToDto(env("a", null, "message", { role: "user", timestamp: 0, preview: "line1\n\n  line2\t" }));
  assert.equal(dto.timestamp, "1970-01-01T00:00:00.000Z");
  assert.equal(dto.preview, "line1 line2");
  const long = singleLine("y".repeat(500));
  assert.equal(long.length, 200);
  assert.ok(long.endsWith("…"));
});

test("buildTreeNodes keeps file order and resolves labels", () => {
  const envs = [env("r", null, "message", { role: "user" }), env("s", "r", "message", { role: "assistant" })];
  const nodes = buildTreeNodes(envs, (id) => (id === "s" ? "done" : undefined));
  assert.deepEqual(
    nodes.map((n) => [n.id, n.kind, n.label]),
    [
      ["r", "user", undefined],
      ["s", "assistant", "done"],
    ],
  );
});

test("label entries yield label changes; clearing has no label", () => {
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "x" }), { id: "a", label: "x" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a" }), { id: "a" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "" }), { id: "a" });
  assert.equal(labelChangeOf({ type: "message" }), undefined);
  assert.equal(labelChangeOf({ type: "label", targetId: 4 }), undefined);
});

test("buildTreeColumns encodes parents as indexes, drops later duplicates and decodes back to the rows", () => {
  const envs = [
    env("r", null, "message", { role: "user", timestamp: "2026-01-01T00:00:01.000Z" }),
    env("a", "r", "message", { role: "assistant", toolName: "read", toolCallsOnly: true }),
    env("c", "r", "compaction", { tokens: 1234, preview: "x".repeat(300) }),
    env("a", "c", "message", { role: "user", preview: "duplicate" }),
    env("o", "missing", "custom_message", { orphan: true, hidden: true }),
    env("self", "self", "message", { role: "assistant", failed: true }),
  ];
  const cols = buildTreeColumns(envs, (id) => (id === "c" ? "kept" : undefined), "c");
  assert.equal(cols.count, 5);
  assert.deepEqual(cols.parents, [-1, 0, 0, -1, -1]);
  assert.equal(cols.leaf, 2);
  assert.deepEqual(cols.labels, { at: [2], text: ["kept"] });
  assert.deepEqual(cols.tokens, { at: [2], value: [1234] });
  assert.equal(cols.childrenSorted, false, "roots o and self are older than root r");
  const rows = decodeTreeColumns(cols);
  const expected = buildTreeNodes([envs[0], envs[1], envs[2], envs[4], envs[5]], (id) =>
    id === "c" ? "kept" : undefined,
  );
  // Decoded rows match the row objects, except that a parent naming no entry reads as null.
  assert.deepEqual(
    rows,
    expected.map((d) => (d.id === "o" || d.id === "self" ? { ...d, parentId: null } : d)),
  );
  assert.equal(rows[2].preview.length, 200);
});

test("buildTreeColumns: an entry the store made a root to break a parentId cycle is a root row", () => {
  // The store flags the cycle's first entry `orphan` although its parentId names an entry (b).
  const envs = [env("a", "b", "message", { role: "user", orphan: true }), env("b", "a", "message", { role: "user" })];
  const cols = buildTreeColumns(envs, () => undefined, "b");
  assert.deepEqual(cols.parents, [-1, 0]);
});

test("buildTreeColumns reports whether children already come in timestamp order", () => {
  const at = (s: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
  const inOrder = [
    env("r", null, "message", { role: "user", timestamp: at(0) }),
    env("a", "r", "message", { role: "assistant", timestamp: at(1) }),
    env("b", "r", "message", { role: "assistant", timestamp: at(2) }),
  ];
  assert.equal(buildTreeColumns(inOrder, () => undefined, "b").childrenSorted, true);
  const chain = [inOrder[0], inOrder[1], { ...inOrder[2], parentId: "a", timestamp: at(0) }];
  assert.equal(buildTreeColumns(chain, () => undefined, null).childrenSorted, true, "only siblings are compared");
  const outOfOrder = [inOrder[0], { ...inOrder[1], timestamp: at(5) }, inOrder[2]];
  assert.equal(buildTreeColumns(outOfOrder, () => undefined, null).childrenSorted, false);
});

test("buildTreeColumns makes multi-line previews single-line", () => {
  const cols = buildTreeColumns(
    [env("r", null, "message", { role: "user", preview: "a\n\n b" })],
    () => undefined,
    null,
  );
  assert.deepEqual(decodeTreeColumns(cols)[0].preview, "a b");
});

test("a branch summary's fromId travels in the row and through the columns", () => {
  const envs = [
    env("u", null, "message", { role: "user" }),
    env("s", "u", "branch_summary", { fromId: "x" }),
    env("x", "u", "message", { role: "assistant" }),
  ];
  assert.equal(envelopeToDto(envs[1]).fromId, "x");
  const cols = buildTreeColumns(envs, () => undefined, "s");
  assert.deepEqual(cols.fromIds, { at: [1], id: ["x"] });
  const rows = decodeTreeColumns(cols);
  assert.equal(rows[1].fromId, "x");
  assert.equal(rows[0].fromId, undefined);
});

test("buildTreeColumns carries the changed-file counts as a sparse column that decodes onto the rows", () => {
  const envs = [
    env("u", null, "message", { role: "user" }),
    env("r", "u", "message", { role: "toolResult", toolName: "write" }),
    env("k", "r", "custom", { preview: "agent-tree/checkpoint" }),
  ];
  const cols = buildTreeColumns(envs, () => undefined, "k", new Map([["r", 2]]));
  assert.deepEqual(cols.changedFiles, { at: [1], value: [2] });
  assert.deepEqual(
    decodeTreeColumns(cols).map((d) => d.changedFiles),
    [undefined, 2, undefined],
  );
  assert.equal(envelopeToDto(envs[1], undefined, 2).changedFiles, 2);
  assert.deepEqual(buildTreeColumns(envs, () => undefined, null).changedFiles, { at: [], value: [] });
});
