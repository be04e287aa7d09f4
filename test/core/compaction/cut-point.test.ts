import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findCutPoint } from "../../../src/core/compaction/cut-point.js";
import { prepareCompaction } from "../../../src/core/compaction/prepare.js";
import { isContextOverflowError, shouldCompact } from "../../../src/core/compaction/settings.js";
import { estimateContextTokens } from "../../../src/core/compaction/tokens.js";
import { emptyUsage, type AgentMessage } from "../../../src/core/messages.js";
import { assistant, SessionBuilder, toolResult, user, type CallSpec } from "../../util/session-builder.js";

/** A session of `messages` chained in order (after what `b` holds). */
function chain(messages: AgentMessage[], b = new SessionBuilder()): SessionBuilder {
  for (const message of messages) b.message(message);
  return b;
}
const words = (k: number): string => "word ".repeat(k);
const read = (callId: string, path: string): CallSpec[] => [{ id: callId, name: "read", args: { path } }];
const result = (callId: string, text: string): AgentMessage => toolResult(text, "read", callId);

/** Five turns of user → assistant(tool call) → tool result → assistant, each ~1,000 tokens. */
function fiveTurns(): SessionBuilder {
  const msgs: AgentMessage[] = [];
  for (let i = 0; i < 5; i++)
    msgs.push(
      user(`turn ${i} ${words(100)}`),
      assistant(`calling ${i}`, read(`c${i}`, `f${i}.ts`)),
      result(`c${i}`, words(600)),
      assistant(`done ${i} ${words(100)}`),
    );
  return chain(msgs);
}

describe("cut point", () => {
  it("cuts at a user message and keeps at least keepRecentTokens", () => {
    const entries = fiveTurns().entries();
    const cut = findCutPoint(entries, 1500);
    const first = entries[cut];
    assert.equal(first.type === "message" && first.message.role, "user");
    assert.equal(cut, 12, "two whole turns (~2,000 tokens) are kept to cover 1,500");
  });
  it("never separates a tool call from its result, even inside one huge turn", () => {
    const msgs: AgentMessage[] = [user("do it")];
    for (let i = 0; i < 10; i++) msgs.push(assistant(`step ${i}`, read(`k${i}`, "a.ts")), result(`k${i}`, words(500)));
    const entries = chain(msgs).entries();
    const cut = findCutPoint(entries, 1000);
    assert.ok(cut > 0, "a single long turn can still be compacted");
    const first = entries[cut];
    assert.equal(first.type === "message" && first.message.role, "assistant");
  });
  it("returns 0 when everything fits in keepRecentTokens", () => {
    assert.equal(findCutPoint(fiveTurns().entries(), 1_000_000), 0);
  });
});

describe("prepareCompaction", () => {
  it("summarizes what precedes the cut, with file lists and tokensBefore", () => {
    const path = fiveTurns().entries();
    const messages = path
      .map((e) => (e.type === "message" ? e.message : undefined))
      .filter((m): m is AgentMessage => !!m);
    const prep = prepareCompaction(path, messages, 1500);
    assert.ok(prep);
    assert.equal(prep.firstKeptEntryId, path[12].id);
    assert.equal(prep.messagesToSummarize.length, 12);
    assert.deepEqual(prep.fileOps.readFiles, ["f0.ts", "f1.ts", "f2.ts"]);
    assert.equal(prep.tokensBefore, estimateContextTokens(messages));
    assert.equal(prep.previousSummary, undefined);
  });
  it("after a compaction, starts at its first kept entry and carries its summary and files", () => {
    const b = fiveTurns();
    const path = b.entries();
    b.entry(
      "compaction",
      {
        summary: "old summary",
        firstKeptEntryId: path[8].id,
        tokensBefore: 9999,
        details: { readFiles: ["earlier.ts"], modifiedFiles: [] },
      },
      { id: "cmp" },
    );
    const more = chain([user(`turn 5 ${words(100)}`), assistant(`done 5 ${words(900)}`)], b).entries();
    const prep = prepareCompaction(more, [], 1000);
    assert.ok(prep);
    assert.equal(prep.previousSummary, "old summary");
    assert.equal(prep.previousCompactions[0].id, "cmp");
    const firstSummarized = prep.messagesToSummarize[0];
    assert.equal(
      firstSummarized.role === "user" && firstSummarized.content,
      (path[8] as { message: { content: string } }).message.content,
    );
    assert.ok(prep.fileOps.readFiles.includes("earlier.ts"));
    assert.equal(prep.firstKeptEntryId, more[more.length - 2].id);
  });
});

describe("thresholds", () => {
  it("compacts when the context leaves less than the reserve", () => {
    const s = { enabled: true, reserveTokens: 1000, keepRecentTokens: 100 };
    assert.equal(shouldCompact(9001, 10_000, s), true);
    assert.equal(shouldCompact(9000, 10_000, s), false);
    assert.equal(shouldCompact(9001, 10_000, { ...s, enabled: false }), false);
  });
  it("recognizes context overflow errors from both APIs", () => {
    assert.ok(isContextOverflowError("This model's maximum context length is 8192 tokens"));
    assert.ok(isContextOverflowError("prompt is too long: 210000 tokens > 200000 maximum"));
    assert.ok(!isContextOverflowError("Incorrect API key provided"));
  });
  it("ignores usage reported before the latest compaction", () => {
    const a = { ...assistant("hi"), usage: { ...emptyUsage(), totalTokens: 50_000 }, timestamp: 10 } as AgentMessage;
    assert.equal(estimateContextTokens([user("x"), a]), 50_000);
    const after = estimateContextTokens([
      { role: "compactionSummary", summary: "s", tokensBefore: 1, timestamp: 20 },
      a,
    ]);
    assert.ok(after < 100);
  });
});
