/**
 * Continue as Branch in the core: an aside asked from the leaf, the main branch going on meanwhile, then continued.
 * The leaf moves to the aside's answer (with a summary of the branch left when asked for), the path declares the
 * agent's whole loadout again (the aside ran with read-only tools), the next request offers every tool, and the aside
 * reads as an ordinary path. Refused — nothing written — for a running aside, one continued already, a row on no
 * aside and an aside that ended before it answered.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { currentSystemMessage } from "../../../src/core/messages.js";
import { ASIDE_TOOL_NAMES, askAside } from "../../../src/core/parallel/aside.js";
import { branchRunOf } from "../../../src/core/parallel/branch-lookup.js";
import { readBranchRuns } from "../../../src/core/parallel/branch-run-lines.js";
import { continueAside } from "../../../src/core/parallel/continue-aside.js";
import { runBranch } from "../../../src/core/parallel/branch-run.js";
import { systemMessageAt } from "../../../src/core/prompt/prompt-at-entry.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";
import { turnAsideTurn } from "../../util/aside-session.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { requestTexts } from "./helpers.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

/** The tool names an OpenAI request offered. */
function toolNames(body: FakeRequestBody): string[] {
  return ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name).sort();
}

/** The newest request whose messages carry `marker`. */
function requestWith(marker: string): FakeRequestBody {
  const body = fake.requests.findLast((b) => requestTexts(b).join("\n").includes(marker));
  assert.ok(body, `a request carried ${marker}`);
  return body;
}

function replies(body: FakeRequestBody): FakeReply {
  const text = requestTexts(body).join("\n");
  if (text.includes("SLOWASIDE")) return { text: "slow aside ".repeat(20), chunks: 20, chunkDelayMs: 40 };
  if (text.includes("NEXT") && text.includes("ASIDEQ")) return { text: "next answer" };
  if (text.includes("ASIDEQ")) return { text: "The aside says: heron." };
  return { text: "main answer" };
}

/** A session whose agent has the workspace's tools, one turn, an aside from there, then one more main turn. */
async function withAside() {
  const sm = await SessionManager.create(tmp.dir, tmp.dir);
  const { agent } = newAgent(sm, {
    model: openAIModel(fake),
    tools: createWorkspaceTools(tmp.dir),
    systemPrompt: "You are terse. MAINPROMPT",
  });
  fake.setDefault(replies);
  const { aside, asked, mainLeaf } = await turnAsideTurn(agent, {
    fake,
    cwd: tmp.dir,
    systemPrompt: "You are terse. MAINPROMPT",
    question: "ASIDEQ what is the word?",
    mainPrompt: "second, on the main branch",
  });
  return { sm, agent, asked, aside, mainLeaf, branchId: aside.branchId as string, answerId: aside.tipId as string };
}

describe("continue an aside as a branch (core)", { timeout: 60_000 }, () => {
  it("moves the leaf to the answer, summarizes the branch left, and the next request has every tool", async () => {
    const { sm, agent, aside, mainLeaf, branchId, answerId } = await withAside();
    const full = agent
      .getTools()
      .map((t) => t.name)
      .sort();
    assert.ok(full.includes("write") && full.includes("bash"), "the agent has tools that change files");
    assert.deepEqual(toolNames(requestWith("ASIDEQ")), [...ASIDE_TOOL_NAMES].sort(), "the aside could only read");

    const result = await continueAside(agent, answerId, { summarize: true });
    assert.equal(result.kind, "moved");

    // The leaf: the answer, then the summary of the branch left, then the record of the agent's own loadout.
    const path = sm.getPathEnvelopes().map((e) => e.id);
    assert.ok(path.includes(answerId), "the answer is on the path");
    assert.ok(!path.includes(mainLeaf), "the main branch was left");
    const summary = result.kind === "moved" ? result.summaryEntry : undefined;
    assert.ok(summary, "the branch left was summarized");
    assert.equal(summary.parentId, answerId, "its summary hangs off the answer");
    assert.equal(summary.fromId, mainLeaf, "it summarizes the main branch left");
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "system", "the loadout is recorded at the leaf");
    assert.equal(leaf.parentId, summary.id);
    const declared = (currentSystemMessage(sm.buildSessionContext().messages)?.toolsAdded ?? []).map((t) => t.name);
    assert.deepEqual(declared.sort(), full, "the path declares every tool of the agent again");
    assert.deepEqual(
      (systemMessageAt(sm, answerId)?.toolsAdded ?? []).map((t) => t.name).sort(),
      [...ASIDE_TOOL_NAMES].sort(),
      "the aside's own path still replays what it ran with",
    );

    // The aside is an ordinary path now.
    const run = readBranchRuns(sm).get(branchId);
    assert.equal(run?.continued, true, "its last run line says it was continued");
    assert.equal(run?.kind, "aside");
    assert.equal(branchRunOf(sm, answerId), undefined, "its rows are on no branch run");

    await agent.prompt("NEXT: go on from the aside");
    const next = requestWith("NEXT");
    assert.deepEqual(toolNames(next), full, "the next request offers every tool");
    assert.ok(requestTexts(next).join("\n").includes("ASIDEQ"), "with the aside's question and answer in its context");
    assert.ok(requestTexts(next).join("\n").includes("The aside says: heron."));
    assert.equal(aside.state, "done");
    await sm.close();
  });

  it("without a summary the leaf's visible entry is the answer; a second Continue is refused", async () => {
    const { sm, agent, branchId, answerId } = await withAside();
    const result = await continueAside(agent, branchId, { summarize: false });
    assert.equal(result.kind, "moved");
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "system");
    assert.equal(leaf.parentId, answerId, "the loadout record hangs off the answer");
    assert.equal(sm.getEntries().filter((e) => e.type === "branch_summary").length, 0, "no summary");

    const count = sm.getEntryCount();
    const again = await continueAside(agent, answerId);
    assert.deepEqual(again, { kind: "refused", reason: "That aside was continued as a branch already." });
    assert.equal(sm.getEntryCount(), count, "nothing written");
    await sm.close();
  });

  it("refuses a running aside, a row on no aside, an explored branch and an aside without an answer", async () => {
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: createWorkspaceTools(tmp.dir) });
    fake.setDefault(replies);
    await agent.prompt("first");
    const first = sm.getLeafId() as string;

    let branchId: string | undefined;
    const started = new Promise<void>((resolve) => {
      void askAside({
        session: agent,
        question: "SLOWASIDE take your time",
        model: openAIModel(fake),
        cwd: tmp.dir,
        onEvent: (e) => {
          if (e.type === "branch_entry" && branchId === undefined) {
            branchId = e.entryId;
            resolve();
          }
        },
      });
    });
    await started;
    const count = sm.getEntryCount();
    const running = await continueAside(agent, branchId as string);
    assert.equal(running.kind, "refused");
    assert.match(running.kind === "refused" ? running.reason : "", /still answering/);
    assert.equal(sm.getLeafId(), first, "the leaf stayed");
    for (const w of agent.runs.offLeaf()) await w.run?.done;

    assert.deepEqual(await continueAside(agent, first), {
      kind: "refused",
      reason: "That row is not on an aside (Agent: Ask Aside…).",
    });
    const explored = await runBranch({
      session: agent,
      parentId: first,
      prompt: "EXPLORED",
      model: openAIModel(fake),
      kind: "explore",
      groupId: "g",
      tools: [],
      cwd: tmp.dir,
    });
    const onExplore = await continueAside(agent, explored.tipId as string);
    assert.equal(onExplore.kind, "refused", "an explored branch is adopted, not continued");

    // Stopped before the model answered: its newest message is its question.
    const stop = new AbortController();
    stop.abort();
    const unanswered = await askAside({
      session: agent,
      question: "ASIDEQ never answered",
      model: openAIModel(fake),
      cwd: tmp.dir,
      signal: stop.signal,
    });
    assert.ok(unanswered.branchId, `its question was written (${unanswered.state})`);
    const none = await continueAside(agent, unanswered.branchId);
    assert.equal(none.kind, "refused");
    assert.match(none.kind === "refused" ? none.reason : "", /before it answered/);
    assert.equal(sm.getLeafId(), first, "the leaf never moved");
    assert.ok(sm.getEntryCount() > count);
    await sm.close();
  });
});
