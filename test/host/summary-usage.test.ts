/**
 * A branch summary's and a compaction's model calls are counted: the store records their usage on the entry (as
 * pi 1.6 does), and the chat's usage line (chat-path.ts, usageOf) adds it. The model calls go through the real
 * OpenAI SDK to the fake server.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { emptyUsage } from "../../src/core/messages.js";
import type { BranchSummaryEntry, CompactionEntry } from "../../src/core/session/types.js";
import { usageOf } from "../../src/host/chat/chat-dto.js";
import { ChatPath } from "../../src/host/chat/chat-path.js";
import { newAgent, openAIModel } from "../core/agent/helpers.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assistant, readJsonl, user } from "../util/session-builder.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { SessionManager } from "../../src/core/session/session-manager.js";

describe("summary and compaction usage", () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  /** A session file: question → a1 → a branch to leave → its answer (the leaf); a move to a1 leaves the branch. */
  async function branchToLeave(): Promise<{ sm: SessionManager; a1: string }> {
    const sm = await SessionManager.create("/p", tmp.dir);
    sm.appendMessage(user("first question"));
    const a1 = sm.appendMessage(assistant("first answer"));
    sm.appendMessage(user("a branch to leave"));
    sm.appendMessage(assistant("its answer"));
    return { sm, a1 };
  }

  test("a branch summary written by navigateTree records its usage, and the usage line counts it", async () => {
    const { sm, a1 } = await branchToLeave();
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.enqueue({ text: "## Goal\nThe summary.", usage: { input: 1234, output: 56 } });
    const r = await agent.navigateTree(a1, { summarize: true });
    assert.ok(r.kind === "moved" && r.summaryEntry, r.kind);
    const line = readJsonl(sm.getSessionFile() as string).find((l) => l.type === "branch_summary") as
      BranchSummaryEntry | undefined;
    assert.equal(line?.usage?.input, 1234);
    assert.equal(line?.usage?.output, 56);
    assert.equal(r.summaryEntry.usage?.input, 1234);
    // The usage line of the path now at the summary: the first reply's usage plus the summary's.
    const after = usageOf(new ChatPath(sm).update().usage, 100_000);
    const firstReply = sm.getUsage(a1);
    assert.ok(firstReply);
    assert.equal(after.input, firstReply.input + 1234);
    await sm.close();
  });

  test("a hook's own summary records the usage the hook gives (pi's extension summary usage)", async () => {
    const { sm, a1 } = await branchToLeave();
    const { agent } = newAgent(sm);
    const hookUsage = { ...emptyUsage(), input: 77, output: 7 };
    agent.hooks.on("session_before_tree", () => ({ summary: { summary: "From the hook.", usage: hookUsage } }));
    const r = await agent.navigateTree(a1, { summarize: true });
    assert.ok(r.kind === "moved" && r.summaryEntry, r.kind);
    assert.deepEqual(r.summaryEntry.usage, hookUsage);
    assert.equal(sm.getUsage(r.summaryEntry.id)?.input, 77);
    await sm.close();
  });

  test("a compaction records its summarizer's usage, and the usage line counts it", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    for (let i = 0; i < 6; i++) {
      sm.appendMessage(user(`question ${i} ${"words ".repeat(200)}`));
      sm.appendMessage(assistant(`answer ${i} ${"words ".repeat(200)}`));
    }
    const compaction = { enabled: true, reserveTokens: 2000, keepRecentTokens: 500 };
    const { agent } = newAgent(sm, { model: openAIModel(fake), compaction });
    fake.enqueue({ text: "## Goal\nCompacted.", usage: { input: 4321, output: 65 } });
    const entry = (await agent.compact()) as CompactionEntry | undefined;
    assert.ok(entry, "compacted");
    assert.equal(entry.usage?.input, 4321);
    const line = readJsonl(sm.getSessionFile() as string).find((l) => l.type === "compaction") as
      CompactionEntry | undefined;
    assert.equal(line?.usage?.output, 65);
    const usage = usageOf(new ChatPath(sm).update().usage, 100_000);
    assert.ok(usage.input >= 4321, `${usage.input}`);
    await sm.close();
  });
});
