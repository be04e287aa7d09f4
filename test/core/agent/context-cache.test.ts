import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import { ContextCache } from "../../../src/core/agent/context-cache.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { emptyUsage } from "../../../src/core/messages.js";

type Op =
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "model"; id: string }
  | { kind: "thinking"; level: string }
  | { kind: "label"; pick: number }
  | { kind: "branch"; pick: number }
  | { kind: "reset" }
  | { kind: "compact"; pick: number }
  | { kind: "summary"; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant("user" as const), text: fc.string() }),
  fc.record({ kind: fc.constant("assistant" as const), text: fc.string() }),
  fc.record({ kind: fc.constant("model" as const), id: fc.constantFrom("a", "b") }),
  fc.record({ kind: fc.constant("thinking" as const), level: fc.constantFrom("off", "low", "high") }),
  fc.record({ kind: fc.constant("label" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("branch" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("reset" as const) }),
  fc.record({ kind: fc.constant("compact" as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant("summary" as const), pick: fc.nat() }),
);

function apply(sm: SessionManager, o: Op): void {
  const ids = sm.getEntries().map((e) => e.id);
  const pick = (n: number): string | undefined => (ids.length ? ids[n % ids.length] : undefined);
  switch (o.kind) {
    case "user":
      sm.appendMessage({ role: "user", content: o.text, timestamp: 1 });
      break;
    case "assistant":
      sm.appendMessage({
        role: "assistant",
        content: [{ type: "text", text: o.text }],
        provider: "openai",
        model: "m",
        usage: emptyUsage(),
        stopReason: "stop",
        timestamp: 2,
      });
      break;
    case "model":
      sm.appendModelChange("openai", o.id);
      break;
    case "thinking":
      sm.appendThinkingLevelChange(o.level);
      break;
    case "label": {
      const id = pick(o.pick);
      if (id) sm.appendLabelChange(id, "l");
      break;
    }
    case "branch": {
      const id = pick(o.pick);
      if (id) sm.branch(id);
      break;
    }
    case "reset":
      sm.resetLeaf();
      break;
    case "compact": {
      const path = sm.getPath();
      if (path.length) sm.appendCompaction("summary", path[o.pick % path.length].id, 10);
      break;
    }
    case "summary": {
      const id = pick(o.pick);
      sm.branchWithSummary(id ?? null, "left a branch");
      break;
    }
  }
}

test("the cached context always equals a fresh buildSessionContext()", () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
      const sm = SessionManager.inMemory("/w");
      const cache = new ContextCache(sm);
      for (const o of ops) {
        apply(sm, o);
        assert.deepEqual(cache.get(), sm.buildSessionContext());
      }
    }),
    { numRuns: 150 },
  );
});

test("get() hands out copies: changing one does not change the next", () => {
  const sm = SessionManager.inMemory("/w");
  sm.appendMessage({ role: "user", content: "hi", timestamp: 1 });
  const cache = new ContextCache(sm);
  cache.get().messages.pop();
  assert.equal(cache.get().messages.length, 1);
});

test("a deleted branch that took an entry off the path rebuilds the cached context", async () => {
  const sm = SessionManager.inMemory("/p");
  const reply = (text: string) => ({
    role: "assistant" as const,
    content: [{ type: "text" as const, text }],
    provider: "openai",
    model: "m",
    usage: emptyUsage(),
    stopReason: "stop" as const,
    timestamp: 2,
  });
  const a = sm.appendMessage({ role: "user", content: "q", timestamp: 1 });
  const side = sm.appendMessage(reply("side"));
  sm.branch(a);
  sm.appendMessage(reply("main"));
  // A summary of the side branch brought to the main line, then a message below it: the leaf.
  sm.appendBranchSummary(side, "what the side branch said");
  sm.appendMessage({ role: "user", content: "go on", timestamp: 3 });
  const cache = new ContextCache(sm);
  assert.ok(cache.get().messages.some((m) => m.role === "branchSummary"));
  await sm.deleteBranch(side);
  assert.deepEqual(cache.get(), sm.buildSessionContext());
  assert.equal(
    cache.get().messages.some((m) => m.role === "branchSummary"),
    false,
  );
});
