/** What the tree sync reads from appended entries. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { labelChangeOf } from "../../src/host/tree-sync.js";

test("label entries yield label changes; clearing has no label", () => {
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "x" }), { id: "a", label: "x" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a" }), { id: "a" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "" }), { id: "a" });
  assert.equal(labelChangeOf({ type: "message" }), undefined);
  assert.equal(labelChangeOf({ type: "label", targetId: 4 }), undefined);
});
