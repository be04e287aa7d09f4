import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { HookEventMap } from "../../../src/core/hooks/hook-events.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { BranchSummaryEntry } from "../../../src/core/session/types.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import type { FakeServer } from "../../util/fake-provider-common.js";
import type { AgentSessionOptions } from "../../../src/core/agent/agent-session.js";
import { KEYED_PROVIDER } from "../../util/test-models.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { anthropicModel, fileSize, newAgent, openAIModel, twoApproaches } from "./helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { assistant, fileSession, toolResult, user } from "../../util/session-builder.js";

/**
 * u1 → a1 → u2 → a2(read src/a.ts) → t2 → a3   ← leaf
 *            ↘ u3 → a4
 */
/** {@link buildTree} with an agent on it (`options` as newAgent's). */
async function treeAgent(dir: string, options: Partial<AgentSessionOptions> = {}) {
  const tree = await buildTree(dir);
  return { ...tree, ...newAgent(tree.sm, options) };
}

function buildTree(dir: string): ReturnType<typeof twoApproaches> {
  return twoApproaches(dir, {
    call: { text: "Reading", name: "read", args: { path: "src/a.ts" } },
    result: "export const a = 1;",
    a3: "Approach A works",
    a4: "Approach B result",
    leaf: "a",
  });
}

function userPromptOf(fake: FakeServer, i = fake.requests.length - 1): string {
  const msgs = fake.requests[i].messages as { role: string; content: unknown }[];
  return JSON.stringify(msgs.filter((m) => m.role === "user").map((m) => m.content));
}

describe("navigateTree", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("root user message: leaf reset to null, text returned, and the move survives a reopen", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const r = await agent.navigateTree(ids.u1);
    // pi's fields beside `kind`: a script written against pi reads `cancelled` and `editorText`.
    assert.deepEqual(r, { kind: "moved", cancelled: false, editorText: "Start the task" });
    assert.equal(sm.getLeafId(), null);
    assert.deepEqual(sm.buildSessionContext().messages, []);
    const file = sm.getSessionFile()!;
    await sm.close();
    const again = await SessionManager.open(file);
    assert.equal(again.getLeafId(), null);
    await again.close();
  });

  it("the first user message of a named session: the leaf goes to the session name before it (pi's move)", async () => {
    // pi 1.6.0's navigateTree: a user message's parent becomes the leaf, whatever that parent is; only a message
    // with no parent resets the leaf. The session name stays on the path, so the session keeps its name.
    const sm = await fileSession(tmp.dir);
    const name = sm.appendSessionInfo("My session");
    const u1 = sm.appendMessage(user("First question"));
    sm.appendMessage(assistant("First answer"));
    const { agent } = newAgent(sm);
    const r = await agent.navigateTree(u1);
    assert.ok(r.kind === "moved", r.kind);
    assert.equal(r.editorText, "First question");
    assert.equal(sm.getLeafId(), name);
    assert.deepEqual(sm.buildSessionContext().messages, []);
    assert.equal(sm.getSessionName(), "My session");
    await sm.close();
  });

  it("non-user message: the leaf becomes that entry, no editor text", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const r = await agent.navigateTree(ids.a4);
    assert.deepEqual(r, { kind: "moved", cancelled: false });
    assert.equal(sm.getLeafId(), ids.a4);
    await sm.close();
  });

  it("user message in the middle: leaf goes to its parent", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const r = await agent.navigateTree(ids.u3);
    assert.ok(r.kind === "moved", r.kind);
    assert.equal(r.editorText, "Try approach B");
    assert.equal(sm.getLeafId(), ids.a1);
    await sm.close();
  });

  it("no-op on the current leaf writes nothing", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const size = fileSize(sm);
    assert.deepEqual(await agent.navigateTree(ids.a3, { summarize: true }), { kind: "noop", cancelled: false });
    assert.equal(fileSize(sm), size);
    await sm.close();
  });

  it("unknown target and navigating while a prompt streams are clear errors", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    await assert.rejects(agent.navigateTree("nope1234"), /no entry with id "nope1234"/);
    fake.enqueue({ stall: true, text: "thinking" });
    let rejection: Promise<void> | undefined;
    agent.subscribe((e) => {
      if (e.type !== "message_update" || rejection) return;
      rejection = assert.rejects(agent.navigateTree(ids.a4), /while a prompt is running; abort it first/);
      agent.abort();
    });
    await agent.prompt("go");
    assert.ok(rejection, "the stream was seen");
    await rejection;
    await sm.close();
  });

  it("a user message on the current path: the summary covers what came after it, ancestor = the message", async () => {
    // u1 a1 u2 a2 u3 a3 ← leaf; select u3 (its text goes back to the editor, the leaf to a2).
    const sm = await fileSession(tmp.dir);
    const u1 = sm.appendMessage(user("one"));
    const a1 = sm.appendMessage(assistant("a one"));
    const u2 = sm.appendMessage(user("two"));
    const a2 = sm.appendMessage(assistant("a two"));
    const u3 = sm.appendMessage(user("three"));
    const a3 = sm.appendMessage(assistant("a three"));
    const { agent } = newAgent(sm);
    let prepared: HookEventMap["session_before_tree"]["preparation"] | undefined;
    agent.hooks.on("session_before_tree", (e) => void (prepared = e.preparation));
    const r = await agent.navigateTree(u3, { summarize: true, extractive: true });
    assert.ok(r.kind === "moved", r.kind);
    assert.equal(r.editorText, "three");
    assert.equal(prepared?.commonAncestorId, u3);
    assert.deepEqual(
      prepared?.entriesToSummarize.map((e) => e.id),
      [a3],
    );
    assert.equal(r.summaryEntry?.parentId, a2, "the summary hangs where the leaf goes");
    assert.equal(r.summaryEntry?.fromId, a3);
    assert.match(r.summaryEntry?.summary ?? "", /a three/);

    // The root user message: everything after it, and the summary becomes a new root.
    const r2 = await agent.navigateTree(u1, { summarize: true, extractive: true });
    assert.ok(r2.kind === "moved", r2.kind);
    assert.equal(prepared?.commonAncestorId, u1);
    assert.deepEqual(
      prepared?.entriesToSummarize.map((e) => e.id),
      [a1, u2, a2, r.summaryEntry?.id],
      "the selected message itself is not summarized",
    );
    assert.equal(r2.summaryEntry?.parentId, null);
    await sm.close();
  });

  it("summarizes with the model: entries back to the common ancestor, fromId = old leaf, parent = new leaf", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    const treeEvents: HookEventMap["session_tree"][] = [];
    agent.hooks.on("session_tree", (e) => void treeEvents.push(e));
    let prepared: HookEventMap["session_before_tree"]["preparation"] | undefined;
    agent.hooks.on("session_before_tree", (e) => void (prepared = e.preparation));
    const r = await agent.navigateTree(ids.a4, { summarize: true });
    assert.ok(r.kind === "moved", r.kind);
    assert.deepEqual(
      prepared?.entriesToSummarize.map((e) => e.id),
      [ids.u2, ids.a2, ids.t2, ids.a3],
    );
    assert.equal(prepared?.commonAncestorId, ids.a1);
    const s = r.summaryEntry as BranchSummaryEntry;
    assert.equal(s.fromId, ids.a3);
    assert.equal(s.parentId, ids.a4);
    assert.equal(sm.getLeafId(), s.id);
    assert.match(s.summary, /## Goal/);
    assert.match(s.summary, /<read-files>\nsrc\/a\.ts\n<\/read-files>$/);
    assert.deepEqual(s.details, { readFiles: ["src/a.ts"], modifiedFiles: [] });
    assert.equal(s.fromHook, undefined);
    const prompt = userPromptOf(fake);
    assert.match(prompt, /\[User\]: Try approach A/);
    assert.doesNotMatch(prompt, /Try approach B|Start the task/, "only the abandoned branch is summarized");
    assert.equal(treeEvents.length, 1);
    assert.deepEqual(
      { ...treeEvents[0], summaryEntry: treeEvents[0].summaryEntry?.id },
      {
        type: "session_tree",
        newLeafId: s.id,
        oldLeafId: ids.a3,
        summaryEntry: s.id,
        fromHook: false,
      },
    );
    await sm.close();
  });

  it("custom instructions are appended as Additional focus, or replace the defaults", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    await agent.navigateTree(ids.a4, { summarize: true, customInstructions: "the API surface" });
    assert.match(userPromptOf(fake), /## Next Steps[^"]*Additional focus: the API surface/);
    await agent.navigateTree(ids.a3, {
      summarize: true,
      customInstructions: "List only decisions.",
      replaceInstructions: true,
    });
    const replaced = userPromptOf(fake);
    assert.match(replaced, /<\/conversation>\\n\\nList only decisions\."/);
    assert.doesNotMatch(replaced, /Use this format:/);
    await sm.close();
  });

  it("hook cancel: nothing written, leaf unchanged, session_tree not fired", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    let treeFired = false;
    agent.hooks.on("session_before_tree", () => ({ cancel: true }));
    agent.hooks.on("session_tree", () => void (treeFired = true));
    const size = fileSize(sm);
    assert.deepEqual(await agent.navigateTree(ids.a4, { summarize: true }), { kind: "cancelled", cancelled: true });
    assert.equal(fileSize(sm), size);
    assert.equal(sm.getLeafId(), ids.a3);
    assert.equal(treeFired, false);
    assert.equal(fake.requests.length, 0);
    await sm.close();
  });

  it("hook summary replaces the summarizer (fromHook, no model call)", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    let fromHook: boolean | undefined;
    agent.hooks.on("session_before_tree", (e) =>
      e.preparation.userWantsSummary ? { summary: { summary: "Hook summary", details: { custom: true } } } : undefined,
    );
    agent.hooks.on("session_tree", (e) => void (fromHook = e.fromHook));
    const r = await agent.navigateTree(ids.a4, { summarize: true });
    assert.ok(r.kind === "moved", r.kind);
    assert.equal(r.summaryEntry?.summary, "Hook summary");
    assert.deepEqual(r.summaryEntry?.details, { custom: true });
    assert.equal(r.summaryEntry?.fromHook, true);
    assert.equal(fromHook, true);
    assert.equal(fake.requests.length, 0);
    await sm.close();
  });

  it("hook overrides of customInstructions, replaceInstructions and label are used", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    agent.hooks.on("session_before_tree", () => ({
      customInstructions: "Hook focus.",
      replaceInstructions: true,
      label: "hook-label",
    }));
    const r = await agent.navigateTree(ids.a4, {
      summarize: true,
      customInstructions: "user focus",
      label: "user-label",
    });
    assert.ok(r.kind === "moved", r.kind);
    assert.match(userPromptOf(fake), /\\n\\nHook focus\."/);
    assert.doesNotMatch(userPromptOf(fake), /user focus/);
    assert.equal(sm.getLabel(r.summaryEntry!.id), "hook-label");
    await sm.close();
  });

  it("label goes on the summary entry when summarizing, else on the target", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const r1 = await agent.navigateTree(ids.a4, { summarize: true, label: "tried A" });
    assert.ok(r1.kind === "moved", r1.kind);
    assert.equal(sm.getLabel(r1.summaryEntry!.id), "tried A");
    assert.equal(sm.getLabel(ids.a4), undefined);
    const r2 = await agent.navigateTree(ids.u2, { label: "retry here" });
    assert.ok(r2.kind === "moved", r2.kind);
    assert.equal(r2.summaryEntry, undefined);
    assert.equal(sm.getLabel(ids.u2), "retry here");
    assert.equal(sm.getLeafId(), ids.a1);
    await sm.close();
  });

  it("summarizer failure (HTTP 500) cancels with an error and changes nothing", async () => {
    const { sm, ids, agent, events } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    for (let i = 0; i < 4; i++) fake.enqueue({ status: 500, headers: { "retry-after": "0" } });
    const size = fileSize(sm);
    const r = await agent.navigateTree(ids.a4, { summarize: true });
    assert.ok(r.kind === "failed", r.kind);
    assert.match(r.error, /Summarization failed/);
    assert.equal(fileSize(sm), size);
    assert.equal(sm.getLeafId(), ids.a3);
    assert.ok(events.some((e: AgentEvent) => e.type === "error" && e.source === "summary"));
    await sm.close();
  });

  it("abort during a stalled summary stream cancels and changes nothing", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    const controller = new AbortController();
    fake.enqueue(() => {
      setImmediate(() => controller.abort());
      return { stall: true, text: "## Goal\npartial" };
    });
    const size = fileSize(sm);
    const r = await agent.navigateTree(ids.a4, { summarize: true, signal: controller.signal });
    assert.deepEqual(r, { kind: "aborted", cancelled: true, aborted: true });
    assert.equal(fileSize(sm), size);
    assert.equal(sm.getLeafId(), ids.a3);
    await sm.close();
  });

  it("stops at a compaction on the abandoned branch", async () => {
    const { sm, ids } = await buildTree(tmp.dir);
    const comp = sm.appendCompaction("Earlier work summarized", ids.t2, 1234);
    const u5 = sm.appendMessage(user("After compaction request"));
    const a5 = sm.appendMessage(assistant("After compaction answer"));
    const { agent } = newAgent(sm);
    let prepared: string[] = [];
    agent.hooks.on("session_before_tree", (e) => void (prepared = e.preparation.entriesToSummarize.map((x) => x.id)));
    const r = await agent.navigateTree(ids.a4, { summarize: true });
    assert.ok(r.kind === "moved", r.kind);
    assert.deepEqual(prepared, [u5, a5]);
    assert.ok(!prepared.includes(comp));
    assert.match(r.summaryEntry!.summary, /After compaction request/);
    assert.doesNotMatch(r.summaryEntry!.summary, /approach A/);
    await sm.close();
  });

  it("keeps the summary request within the model's window with big tool results", async () => {
    const sm = await fileSession(tmp.dir);
    const root = sm.appendMessage(user("Start"));
    const other = sm.appendMessage(assistant("Other branch"));
    sm.branch(root);
    sm.appendMessage(user("Analyse the logs"));
    for (let i = 0; i < 6; i++) {
      sm.appendMessage(assistant(`Reading log ${i}`, [{ id: `r${i}`, name: "read", args: { path: `logs/${i}.log` } }]));
      sm.appendMessage(toolResult(`line ${i} `.repeat(20_000), "read", `r${i}`));
    }
    sm.appendMessage(assistant("Conclusion: the logs show a timeout in the fetcher."));
    const window = 20_000;
    const reserve = 4_000;
    const { agent } = newAgent(sm, {
      model: openAIModel(fake, { contextWindow: window }),
      branchSummary: { reserveTokens: reserve },
    });
    const r = await agent.navigateTree(other, { summarize: true });
    assert.ok(r.kind === "moved", r.kind);
    const sent = JSON.stringify(fake.requests[0].messages);
    assert.ok(sent.length / 4 < window - reserve, `prompt ~${Math.round(sent.length / 4)} tokens`);
    assert.match(sent, /Conclusion: the logs show a timeout/, "the newest messages are in");
    assert.match(sent, /characters omitted/, "big tool results are shortened, not dropped");
    assert.match(sent, /Analyse the logs/, "with shortened results the whole branch fits");
    assert.equal((r.summaryEntry!.details as { readFiles: string[] }).readFiles.length, 6);
    await sm.close();
  });

  it("works with no model: extractive summary marked in details", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir);
    const r = await agent.navigateTree(ids.a4, { summarize: true });
    assert.ok(r.kind === "moved", r.kind);
    const s = r.summaryEntry!;
    assert.equal((s.details as { extractive?: boolean }).extractive, true);
    assert.match(s.summary, /## Goal\nTry approach A and keep the API stable/);
    assert.match(s.summary, /## Last Conclusions\nApproach A works/);
    assert.match(s.summary, /<read-files>\nsrc\/a\.ts\n<\/read-files>$/);
    await sm.close();
  });

  it("extractive can be forced with a model configured (no model call)", async () => {
    const { sm, ids, agent } = await treeAgent(tmp.dir, { model: openAIModel(fake) });
    const r = await agent.navigateTree(ids.a4, { summarize: true, extractive: true });
    assert.ok(r.kind === "moved", r.kind);
    assert.equal((r.summaryEntry!.details as { extractive?: boolean }).extractive, true);
    assert.equal(fake.requests.length, 0);
    await sm.close();
  });

  it("a model with no key configured falls back to extractive", async () => {
    const { sm, ids } = await buildTree(tmp.dir);
    const { agent } = newAgent(sm, {
      model: { ...openAIModel(fake), provider: KEYED_PROVIDER },
      getApiKey: async () => undefined,
    });
    const r = await agent.navigateTree(ids.a4, { summarize: true });
    assert.ok(r.kind === "moved", r.kind);
    assert.equal((r.summaryEntry!.details as { extractive?: boolean }).extractive, true);
    assert.equal(fake.requests.length, 0);
    await sm.close();
  });

  it("a throwing hook is reported and does not break navigation", async () => {
    const { sm, ids, agent, events } = await treeAgent(tmp.dir);
    agent.hooks.on("session_before_tree", () => {
      throw new Error("hook exploded");
    });
    agent.hooks.on("session_tree", () => {
      throw new Error("after exploded");
    });
    const r = await agent.navigateTree(ids.a4, { summarize: true });
    assert.ok(r.kind === "moved", r.kind);
    assert.equal(sm.getLeafId(), r.summaryEntry!.id);
    const hookErrors = events.filter((e) => e.type === "error" && e.source === "hook");
    assert.equal(hookErrors.length, 2);
    await sm.close();
  });

  it("summarizes through the Anthropic SDK too", async () => {
    const anthropic = await startFakeAnthropic();
    try {
      const { sm, ids } = await buildTree(tmp.dir);
      const { agent } = newAgent(sm, { model: anthropicModel(anthropic) });
      const r = await agent.navigateTree(ids.a4, { summarize: true });
      assert.ok(r.kind === "moved", r.kind);
      assert.match(r.summaryEntry!.summary, /## Goal\nTry approach A/);
      assert.equal(anthropic.requests.length, 1);
      assert.match(JSON.stringify(anthropic.requests[0].system), /summarization/);
      await sm.close();
    } finally {
      await anthropic.close();
    }
  });
});
