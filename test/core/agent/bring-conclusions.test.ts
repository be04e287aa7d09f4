/**
 * AgentSession.bringConclusions: the summary range (common ancestor → selected node, stopping at a compaction),
 * the entry written (parent = current leaf, fromId = selected node, pi's branch_summary shape), the context
 * afterwards (the next model request carries it), reopening, pi's resume rule on the file (the real pi releases
 * read it in test/interop/bring-conclusions-in-pi.test.ts), hooks, and failure, cancel and refusal leaving the file
 * unchanged. Model calls go through the real SDK to the fake server.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { HookEventMap } from "../../../src/core/hooks/hook-events.js";
import { buildContextFromEntries } from "../../../src/core/session/context.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { SessionEntry } from "../../../src/core/session/types.js";
import type { AgentSessionOptions } from "../../../src/core/agent/agent-session.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { piLeafPath } from "../session/helpers.js";
import { readJsonl } from "../../util/session-builder.js";
import { fileSize, newAgent, openAIModel, requestText, twoApproaches } from "./helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { assistant, user } from "../../util/session-builder.js";

/**
 * u1 → a1 ┬→ u2 "Try approach A" → a2(write src/a.ts) → t2 → a3 "Approach A works"   ← other branch
 *         └→ u3 "Try approach B" → a4 "Approach B is slow"                          ← leaf
 */
/** {@link buildTree} with an agent on it (`options` as newAgent's). */
async function treeAgent(dir: string, options: Partial<AgentSessionOptions> = {}) {
  const tree = await buildTree(dir);
  return { ...tree, ...newAgent(tree.sm, options) };
}

function buildTree(dir: string): ReturnType<typeof twoApproaches> {
  return twoApproaches(dir, {
    call: { text: "Writing", name: "write", args: { path: "src/a.ts", content: "x" } },
    result: "Wrote src/a.ts",
    a3: "Approach A works: the parser passes all tests",
    a4: "Approach B is slow",
    leaf: "b",
  });
}

describe("bringConclusions", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("summarizes the other branch from the common ancestor to the node and appends it at the leaf", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    let prepared: HookEventMap["session_before_tree"]["preparation"] | undefined;
    const treeEvents: HookEventMap["session_tree"][] = [];
    agent.hooks.on("session_before_tree", (e) => void (prepared = e.preparation));
    agent.hooks.on("session_tree", (e) => void treeEvents.push(e));

    const r = await agent.bringConclusions(ids.a3);
    assert.ok(r.kind === "moved", r.kind);

    assert.deepEqual(
      prepared?.entriesToSummarize.map((e) => e.id),
      [ids.u2, ids.a2, ids.t2, ids.a3],
      "from after the common ancestor to the selected node",
    );
    assert.equal(prepared?.commonAncestorId, ids.a1);
    assert.equal(prepared?.bringFrom, ids.a3);
    assert.equal(prepared?.targetId, ids.a4);
    assert.equal(prepared?.oldLeafId, ids.a4);
    const prompt = requestText(fake.requests[0]);
    assert.match(prompt, /\[User\]: Try approach A/);
    assert.doesNotMatch(prompt, /Try approach B|Start the task/, "neither the current branch nor the shared part");

    const s = r.summaryEntry;
    assert.ok(s);
    assert.equal(s.type, "branch_summary");
    assert.equal(s.parentId, ids.a4, "appended at the current leaf");
    assert.equal(s.fromId, ids.a3, "fromId names the selected node");
    assert.equal(sm.getLeafId(), s.id, "the summary is the leaf: the user stays on this branch");
    assert.deepEqual(
      sm.getPath().map((e) => e.id),
      [ids.u1, ids.a1, ids.u3, ids.a4, s.id],
    );
    assert.match(s.summary, /## Goal/);
    assert.match(s.summary, /<modified-files>\nsrc\/a\.ts\n<\/modified-files>$/);
    assert.deepEqual(s.details, { readFiles: [], modifiedFiles: ["src/a.ts"] });
    assert.deepEqual(
      treeEvents.map((e) => ({ ...e, summaryEntry: e.summaryEntry?.id })),
      [{ type: "session_tree", newLeafId: s.id, oldLeafId: ids.a4, summaryEntry: s.id, fromHook: false }],
    );
    await sm.close();
  });

  it("writes exactly pi's branch_summary line, and the model sees the summary in its next request", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    const r = await agent.bringConclusions(ids.a3, { customInstructions: "the test results" });
    assert.ok(r.kind === "moved", r.kind);
    assert.match(requestText(fake.requests[0]), /Additional focus: the test results/);
    const line = readJsonl(sm.getSessionFile() as string).at(-1) as Record<string, unknown>;
    // pi 1.6's field order, with the summarizer's usage recorded (the chat's usage line counts it).
    assert.deepEqual(Object.keys(line), [
      "type",
      "id",
      "parentId",
      "timestamp",
      "fromId",
      "summary",
      "details",
      "usage",
    ]);
    const usage = line.usage as { input: number; output: number };
    assert.ok(usage.input > 0 && usage.output > 0, JSON.stringify(usage));
    assert.deepEqual(sm.getUsage(String(line.id)), line.usage);
    assert.equal(line.id, r.summaryEntry?.id);

    const context = sm.buildSessionContext().messages;
    assert.deepEqual(context.at(-1), {
      role: "branchSummary",
      summary: r.summaryEntry?.summary,
      fromId: ids.a3,
      timestamp: Date.parse(String(line.timestamp)),
    });
    await agent.prompt("Which approach should we keep?");
    const sent = requestText(fake.requests.at(-1) ?? {});
    assert.match(sent, /summary of a branch/i, "the branch summary preamble");
    assert.match(sent, /Try approach A and keep the API stable/, "the brought summary's content");
    assert.match(sent, /Which approach should we keep\?/);
    await sm.close();
  });

  it("without a model the extractive summarizer writes it; reopening resumes at it; pi's reading agrees", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const r = await agent.bringConclusions(ids.a3);
    assert.ok(r.kind === "moved", r.kind);
    const s = r.summaryEntry;
    assert.ok(s);
    assert.match(s.summary, /^\(Extractive summary/);
    assert.match(s.summary, /Try approach A and keep the API stable/);
    assert.doesNotMatch(s.summary, /Try approach B/);
    assert.equal((s.details as { extractive?: boolean }).extractive, true);
    const ours = sm.buildSessionContext();
    const file = sm.getSessionFile() as string;
    await sm.close();

    const again = await SessionManager.open(file);
    assert.equal(again.getLeafId(), s.id);
    assert.deepEqual(again.buildSessionContext(), ours);
    await again.close();
    // pi resumes at the last line and walks its parents: the summary is on that path, with our context.
    assert.deepEqual(buildContextFromEntries(piLeafPath(file) as unknown as SessionEntry[]), ours);
  });

  it("the range stops at a compaction on the other branch, as branch summaries do", async () => {
    const { sm, ids } = await buildTree(tmp.dir);
    sm.branch(ids.a3);
    const comp = sm.appendCompaction("Approach A condensed", ids.a3, 500);
    const u5 = sm.appendMessage(user("Polish approach A"));
    const a5 = sm.appendMessage(assistant("Polished"));
    sm.branch(ids.a4);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    let prepared: HookEventMap["session_before_tree"]["preparation"] | undefined;
    agent.hooks.on("session_before_tree", (e) => void (prepared = e.preparation));
    const r = await agent.bringConclusions(a5);
    assert.ok(r.kind === "moved", r.kind);
    assert.deepEqual(
      prepared?.entriesToSummarize.map((e) => e.id),
      [u5, a5],
    );
    assert.notEqual(comp, undefined);
    assert.doesNotMatch(requestText(fake.requests[0]), /Try approach A/);
    assert.equal(r.summaryEntry?.fromId, a5);
    await sm.close();
  });

  it("a model failure, an abort, and a hook cancel change nothing", async () => {
    const { sm, ids, agent, events } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    const size = fileSize(sm);

    for (let i = 0; i < 4; i++) fake.enqueue({ status: 500, headers: { "retry-after": "0" } });
    const failed = await agent.bringConclusions(ids.a3);
    assert.ok(failed.kind === "failed", failed.kind);
    assert.match(failed.error, /Summarization failed/);
    assert.ok(events.some((e) => e.type === "error" && e.source === "summary"));

    const controller = new AbortController();
    controller.abort();
    assert.deepEqual(await agent.bringConclusions(ids.a3, { signal: controller.signal }), { kind: "aborted" });

    const off = agent.hooks.on("session_before_tree", () => ({ cancel: true }));
    assert.deepEqual(await agent.bringConclusions(ids.a3), { kind: "cancelled" });
    off();

    assert.equal(fileSize(sm), size, "nothing was written");
    assert.equal(sm.getLeafId(), ids.a4);
    await sm.close();
  });

  it("a hook's summary is used as it is (fromHook), with the hook's label", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    agent.hooks.on("session_before_tree", (e) =>
      e.preparation.bringFrom ? { summary: { summary: "From the hook" }, label: "brought" } : undefined,
    );
    const r = await agent.bringConclusions(ids.a3);
    assert.ok(r.kind === "moved", r.kind);
    assert.equal(r.summaryEntry?.summary, "From the hook");
    assert.equal(r.summaryEntry?.fromHook, true);
    assert.equal(sm.getLabel(r.summaryEntry?.id as string), "brought");
    assert.equal(sm.getLeafId(), r.summaryEntry?.id, "the label does not move the leaf");
    assert.equal(fake.requests.length, 0);
    await sm.close();
  });

  it("refuses what cannot be brought: a node on the current branch, an empty conversation, unknown ids", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const size = fileSize(sm);
    for (const onPath of [ids.a1, ids.a4]) {
      const r = await agent.bringConclusions(onPath);
      assert.ok(r.kind === "failed", r.kind);
      assert.match(r.error, /on the current branch/);
    }
    await assert.rejects(agent.bringConclusions("nope1234"), /no entry with id "nope1234"/);
    sm.resetLeaf();
    const empty = await agent.bringConclusions(ids.a3);
    assert.ok(empty.kind === "failed", empty.kind);
    assert.match(empty.error, /conversation is empty here/);
    sm.branch(ids.a4);
    assert.ok(fileSize(sm) > size, "the test's own moves are written");
    const moved = fileSize(sm);
    // A node whose branch after the common ancestor holds no message (only a model change).
    sm.branch(ids.a1);
    const bookkeeping = sm.appendModelChange("openai", "other");
    sm.branch(ids.a4);
    const before = fileSize(sm);
    const none = await agent.bringConclusions(bookkeeping);
    assert.ok(none.kind === "failed", none.kind);
    assert.match(none.error, /no messages to summarize/);
    assert.equal(fileSize(sm), before);
    assert.ok(before > moved);
    await sm.close();
  });

  it("a read-only view refuses before anything runs", async () => {
    const { sm, ids } = await buildTree(tmp.dir);
    const file = sm.getSessionFile() as string;
    await sm.close();
    const view = await SessionManager.open(file, { readOnly: true });
    const { agent } = newAgent(view);
    await assert.rejects(agent.bringConclusions(ids.a3), /read-only/);
    await view.close();
  });
});
