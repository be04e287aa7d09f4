import { test } from "node:test";
import assert from "node:assert/strict";
import {
  buildTreeNodes,
  envelopeToDto,
  findRecentEnvelope,
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

test("findRecentEnvelope searches from the end within its bound", () => {
  const envs = Array.from({ length: 50 }, (_, i) => env(`e${i}`, i === 0 ? null : `e${i - 1}`, "custom"));
  assert.equal(findRecentEnvelope(envs, "e49")?.id, "e49");
  assert.equal(findRecentEnvelope(envs, "e40", 20)?.id, "e40");
  assert.equal(findRecentEnvelope(envs, "e10", 20), undefined);
  assert.equal(findRecentEnvelope(envs, "missing"), undefined);
});

test("label entries yield label changes; clearing has no label", () => {
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "x" }), { id: "a", label: "x" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a" }), { id: "a" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "" }), { id: "a" });
  assert.equal(labelChangeOf({ type: "message" }), undefined);
  assert.equal(labelChangeOf({ type: "label", targetId: 4 }), undefined);
});
