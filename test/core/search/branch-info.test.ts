import assert from "node:assert/strict";
import { test } from "node:test";
import { BranchResolver, type EntryHead, type SessionTreeReader } from "../../../src/core/search/branch-info.js";

type Node = EntryHead & { id: string; text?: string; label?: string };

function tree(nodes: Node[], leafId: string | null): SessionTreeReader {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  return {
    head: (id) => byId.get(id),
    childIds: (id) => nodes.filter((n) => n.parentId === id).map((n) => n.id),
    label: (id) => byId.get(id)?.label,
    preview: (id) => byId.get(id)?.text ?? "",
    leafId,
  };
}

const u = (id: string, parentId: string | null, extra: Partial<Node> = {}): Node => ({
  id,
  parentId,
  type: "message",
  role: "user",
  text: `text of ${id}`,
  ...extra,
});
const a = (id: string, parentId: string | null, extra: Partial<Node> = {}): Node => ({
  id,
  parentId,
  type: "message",
  role: "assistant",
  ...extra,
});

test("a linear session is one branch, named by its first user message", () => {
  const r = new BranchResolver(tree([u("u1", null), a("a1", "u1"), u("u2", "a1"), a("a2", "u2")], "a2"));
  assert.deepEqual(r.branchOf("a2"), { active: true, firstUserMessageId: "u1", firstUserMessage: "text of u1" });
  assert.equal(r.firstUserOnPath("a2"), "text of u1");
});

test("after a fork, each branch is named by its first user message below the fork", () => {
  const r = new BranchResolver(
    tree([u("u1", null), a("a1", "u1"), u("u2", "a1"), a("a2", "u2"), u("u3", "a1"), a("a3", "u3")], "a3"),
  );
  assert.deepEqual(r.branchOf("a2"), { active: false, firstUserMessageId: "u2", firstUserMessage: "text of u2" });
  assert.deepEqual(r.branchOf("a3"), { active: true, firstUserMessageId: "u3", firstUserMessage: "text of u3" });
  // Above the fork: the stretch from the root.
  assert.equal(r.branchOf("a1").firstUserMessageId, "u1");
});

test("a regenerated reply (a fork at a user message) is named by that user message", () => {
  const r = new BranchResolver(tree([u("u1", null), a("a1", "u1"), a("a1b", "u1")], "a1b"));
  assert.equal(r.branchOf("a1").firstUserMessageId, "u1");
  assert.equal(r.branchOf("a1").active, false);
});

test("the nearest label on the path names the branch; labels and leaf markers make no fork", () => {
  const nodes: Node[] = [
    u("u1", null, { label: "root topic" }),
    a("a1", "u1"),
    u("u2", "a1"),
    { id: "l1", parentId: "u2", type: "label" },
    { id: "m1", parentId: "u2", type: "custom" },
    a("a2", "u2"),
    u("u3", "a2", { label: "deeper" }),
    a("a3", "u3"),
  ];
  const r = new BranchResolver(tree(nodes, "a3"));
  assert.equal(r.branchOf("a2").label, "root topic");
  assert.equal(r.branchOf("a3").label, "deeper");
  // No fork at u2 despite its three children: still the branch from the root.
  assert.equal(r.branchOf("a3").firstUserMessageId, "u1");
});

test("a parent cycle (a damaged file) ends the walk", () => {
  const r = new BranchResolver(tree([u("x", "y"), a("y", "x")], null));
  assert.equal(r.branchOf("x").active, false);
  assert.equal(r.branchOf("y").firstUserMessageId, "x");
});
