import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { HookEventMap } from "../../../src/core/hooks/hook-events.js";
import { COMPACTION_SUMMARY_PREFIX } from "../../../src/core/messages.js";
import type { SessionManager } from "../../../src/core/session/session-manager.js";
import type { CompactionEntry } from "../../../src/core/session/types.js";
import { CONTEXT_OVERFLOW_REPLY } from "../../util/fake-openai-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { fileSize, newAgent, openAIModel } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { assistant, fileSession, toolResult, user } from "../../util/session-builder.js";

/** `turns` turns of ~1,000 tokens: user → assistant(read/edit) → tool result → assistant. Returns entry ids per turn start. */
function fill(sm: SessionManager, turns: number, offset = 0): string[] {
  const starts: string[] = [];
  for (let i = offset; i < offset + turns; i++) {
    starts.push(sm.appendMessage(user(`Request ${i}: ${"please ".repeat(60)}`)));
    const tool = i % 2 === 0 ? "read" : "edit";
    sm.appendMessage(assistant(`Step ${i}`, [{ id: `c${i}`, name: tool, args: { path: `src/f${i}.ts` } }]));
    sm.appendMessage(toolResult("data ".repeat(700), tool, `c${i}`));
    sm.appendMessage(assistant(`Finished ${i}. ${"detail ".repeat(40)}`));
  }
  return starts;
}
const settings = { enabled: true, reserveTokens: 2000, keepRecentTokens: 1500 };

describe("compaction", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("compact() cuts at a turn boundary and records file lists and tokensBefore", async () => {
    const sm = await fileSession(tmp.dir);
    const starts = fill(sm, 6);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake), compaction: settings });
    const seen: HookEventMap["session_compact"][] = [];
    agent.hooks.on("session_compact", (e) => void seen.push(e));
    const entry = await agent.compact();
    assert.ok(entry);
    assert.equal(entry.firstKeptEntryId, starts[4], "two ~1,000-token turns kept for keepRecentTokens 1,500");
    assert.deepEqual(entry.details, {
      readFiles: ["src/f0.ts", "src/f2.ts"],
      modifiedFiles: ["src/f1.ts", "src/f3.ts"],
    });
    assert.ok(entry.tokensBefore > 5000, `tokensBefore ${entry.tokensBefore}`);
    assert.match(entry.summary, /## Goal/);
    assert.match(entry.summary, /<modified-files>\nsrc\/f1\.ts\nsrc\/f3\.ts\n<\/modified-files>$/);
    const ctx = sm.buildSessionContext().messages;
    assert.equal(ctx[0].role, "compactionSummary");
    assert.equal(ctx[1].role, "user");
    const sent = JSON.stringify(fake.requests[0].messages);
    assert.match(sent, /Request 3/);
    assert.doesNotMatch(sent, /Request 4/, "kept turns are not summarized");
    assert.deepEqual(
      events.filter((e) => e.type.startsWith("compaction")),
      [
        { type: "compaction_start", reason: "manual" },
        { type: "compaction_end", entryId: entry.id },
      ],
    );
    assert.equal(seen.length, 1);
    assert.equal(seen[0].fromHook, false);
    await sm.close();
  });

  it("a second compaction updates the previous summary and keeps its file lists", async () => {
    const sm = await fileSession(tmp.dir);
    fill(sm, 6);
    const { agent } = newAgent(sm, { model: openAIModel(fake), compaction: settings });
    const first = await agent.compact();
    fill(sm, 4, 6);
    const second = await agent.compact();
    assert.ok(first && second);
    const prompt = JSON.stringify(fake.requests[1].messages);
    assert.match(prompt, /<previous-summary>/);
    assert.ok(prompt.includes(JSON.stringify(first.summary).slice(1, 60)), "the first summary is sent for updating");
    const d = second.details as { readFiles: string[]; modifiedFiles: string[] };
    assert.ok(d.readFiles.includes("src/f0.ts") && d.readFiles.includes("src/f6.ts"));
    assert.equal(sm.buildSessionContext().messages.filter((m) => m.role === "compactionSummary").length, 1);
    await sm.close();
  });

  it("a hook can supply the compaction (fromHook) or cancel it", async () => {
    const sm = await fileSession(tmp.dir);
    fill(sm, 6);
    const { agent } = newAgent(sm, { model: openAIModel(fake), compaction: settings });
    let cancel = true;
    let prepared: HookEventMap["session_before_compact"] | undefined;
    agent.hooks.on("session_before_compact", (e) => {
      prepared = e;
      return cancel ? { cancel: true } : { compaction: { summary: "Hook compaction", details: { artifacts: 3 } } };
    });
    const size = fileSize(sm);
    assert.equal(await agent.compact("focus on tests"), undefined);
    assert.equal(fileSize(sm), size);
    assert.equal(prepared?.customInstructions, "focus on tests");
    assert.equal(prepared?.preparation.messagesToSummarize.length, 16);
    cancel = false;
    const entry = await agent.compact();
    assert.equal(entry?.summary, "Hook compaction");
    assert.equal(entry?.fromHook, true);
    assert.deepEqual(entry?.details, { artifacts: 3 });
    assert.equal(fake.requests.length, 0);
    await sm.close();
  });

  it("works with no model: extractive summary, marked in details", async () => {
    const sm = await fileSession(tmp.dir);
    fill(sm, 6);
    const { agent } = newAgent(sm, { compaction: settings });
    const entry = (await agent.compact()) as CompactionEntry<{ extractive?: boolean; readFiles: string[] }>;
    assert.equal(entry.details?.extractive, true);
    assert.match(entry.summary, /## Goal\nRequest 0/);
    assert.deepEqual(entry.details?.readFiles, ["src/f0.ts", "src/f2.ts"]);
    await sm.close();
  });

  it("a failing summarizer rejects compact() and writes nothing", async () => {
    const sm = await fileSession(tmp.dir);
    fill(sm, 6);
    const { agent } = newAgent(sm, { model: openAIModel(fake), compaction: settings });
    for (let i = 0; i < 4; i++) fake.enqueue({ status: 500, headers: { "retry-after": "0" } });
    const size = fileSize(sm);
    await assert.rejects(agent.compact(), /Summarization failed/);
    assert.equal(fileSize(sm), size);
    await sm.close();
  });

  it("nothing to compact resolves undefined", async () => {
    const sm = await fileSession(tmp.dir);
    fill(sm, 1);
    const { agent } = newAgent(sm, { model: openAIModel(fake), compaction: settings });
    assert.equal(await agent.compact(), undefined);
    assert.equal(fake.requests.length, 0);
    await sm.close();
  });

  it("compacts automatically before a request that would not leave the reserve free", async () => {
    const sm = await fileSession(tmp.dir);
    fill(sm, 6);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake, { contextWindow: 8000 }), compaction: settings });
    await agent.prompt("next step");
    assert.ok(events.some((e) => e.type === "compaction_start" && e.reason === "threshold"));
    assert.equal(fake.requests.length, 2, "one summary request, then the prompt");
    const sent = fake.requests[1].messages as { role: string; content: unknown }[];
    assert.ok(JSON.stringify(sent[0].content).includes(JSON.stringify(COMPACTION_SUMMARY_PREFIX).slice(1, 40)));
    assert.ok(
      !sent.some((m) => typeof m.content === "string" && m.content.startsWith("Request 0")),
      "old turns are gone",
    );
    assert.equal(sent.at(-1)?.content, "next step");
    const last = sm.getLeafEntry();
    assert.equal(last?.type === "message" && last.message.role, "assistant");
    await sm.close();
  });

  it("on a context-overflow error, compacts and retries once", async () => {
    const sm = await fileSession(tmp.dir);
    fill(sm, 6);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake), compaction: settings });
    fake.enqueue(CONTEXT_OVERFLOW_REPLY);
    await agent.prompt("go on");
    const reasons = events
      .filter((e): e is Extract<AgentEvent, { type: "compaction_start" }> => e.type === "compaction_start")
      .map((e) => e.reason);
    assert.deepEqual(reasons, ["overflow"]);
    assert.equal(fake.requests.length, 3);
    const last = sm.getLeafEntry();
    assert.ok(last?.type === "message" && last.message.role === "assistant");
    assert.match(JSON.stringify(last.message), /Echo: go on/);
    assert.equal(events.filter((e) => e.type === "error").length, 0);
    await sm.close();
  });
});
