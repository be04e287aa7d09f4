/** Branch picker rows of "Agent: Compare Branches…": tips first (current leaf on top), labels, requests, all nodes. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { branchPickRows } from "../../src/host/compare/compare-picks.js";
import { treeRowOf } from "../../src/core/rows/tree-row.js";
import type { EntryEnvelope } from "../../src/core/session/types.js";

let clock = 0;
const env = (id: string, parentId: string | null, type: string, extra: Partial<EntryEnvelope> = {}): EntryEnvelope => ({
  id,
  parentId,
  type,
  timestamp: new Date(Date.UTC(2026, 0, 1) + ++clock * 1000).toISOString(),
  preview: `text of ${id}`,
  ...extra,
});

/** u1 → a1 ┬→ u2 → a2 (older tip, labelled) ; a1 → u3 → a3 (leaf) ; a1 → u4 → a4 (newest tip) + a label entry. */
const envs: EntryEnvelope[] = [
  env("u1", null, "message", { role: "user", preview: "Write a parser" }),
  env("a1", "u1", "message", { role: "assistant" }),
  env("u2", "a1", "message", { role: "user", preview: "Try approach A" }),
  env("a2", "u2", "message", { role: "assistant", preview: "A works" }),
  env("u3", "a1", "message", { role: "user", preview: "Try approach B" }),
  env("a3", "u3", "message", { role: "assistant", preview: "B is slow" }),
  env("u4", "a1", "message", { role: "user", preview: "Try approach C" }),
  env("a4", "u4", "message", { role: "assistant", toolCallsOnly: true, toolName: "bash", preview: "" }),
  env("l1", "a2", "label", { preview: "plan-a" }),
];
const labels = new Map([["a2", "plan-a"]]);
const rowsOf = (label: (id: string) => string | undefined) => envs.map((e) => treeRowOf(e, label(e.id)));

test("the tips come first: the current leaf, then the others newest first, then every node", () => {
  const rows = branchPickRows(
    rowsOf((id) => labels.get(id)),
    "a3",
  );
  const tips = rows.slice(1, 4);
  assert.deepEqual(rows[0], { separator: "Branch tips" });
  assert.deepEqual(
    tips.map((r) => ("value" in r ? r.value : r.separator)),
    ["a3", "a4", "a2"],
    "a label hanging off a2 does not make it a branch point",
  );
  assert.deepEqual(tips[0], {
    label: "$(git-branch) assistant: B is slow",
    description: undefined,
    detail: "← active · answers: Try approach B",
    value: "a3",
  });
  assert.equal("value" in tips[1] && tips[1].label, "$(git-branch) assistant: [tool calls: bash]");
  assert.equal("value" in tips[2] && tips[2].description, "[plan-a]");
  assert.deepEqual(rows[4], { separator: "All nodes" });
  assert.ok(
    rows.slice(5).some((r) => "value" in r && r.value === "u1"),
    "inner nodes are listed after the tips",
  );
});

test("the end picked first is left out of the second pick", () => {
  const rows = branchPickRows(
    rowsOf(() => undefined),
    "a3",
    "a3",
  );
  assert.ok(!rows.some((r) => "value" in r && r.value === "a3"));
  assert.equal("value" in rows[1] && rows[1].value, "a4");
});

test("an empty session has no rows", () => {
  assert.deepEqual(branchPickRows([], null), []);
});
