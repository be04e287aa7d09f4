/**
 * The system prompt of branches that run beside the user's: each records on its own path what differs from the
 * prompt replayed at its start (its tools, its folder), so replaying the branch gives the prompt it ran under;
 * without a prompt of its own a branch sends the one in force at its start node. The main path is untouched.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { askAside, ASIDE_TOOL_NAMES } from "../../../src/core/parallel/aside.js";
import { runBranch } from "../../../src/core/parallel/branch-run.js";
import { systemMessageAt, systemPromptAt } from "../../../src/core/prompt/prompt-at-entry.js";
import { normalizePromptOptions } from "../../../src/core/prompt/prompt-options.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import type { FakeRequestBody } from "../../util/fake-provider-common.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

/** The system message text of an OpenAI request ("" when it has none). */
function systemOf(body: FakeRequestBody): string {
  const messages = body.messages as { role: string; content: unknown }[];
  const m = messages.find((x) => x.role === "system" || x.role === "developer");
  return m === undefined ? "" : typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}

function requestWith(marker: string): FakeRequestBody {
  const body = fake.requests.find((b) => JSON.stringify(b.messages).includes(marker));
  assert.ok(body, `a request carried ${marker}`);
  return body;
}

describe("branch system prompt (core)", { timeout: 60_000 }, () => {
  it("an aside records its own loadout on its path and replays the prompt it ran under", async () => {
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      tools: createWorkspaceTools(tmp.dir),
      systemPrompt: "You are terse. MAINPROMPT",
    });
    fake.setDefault(() => ({ text: "ok" }));
    await agent.prompt("first");
    const leaf = sm.getLeafId();
    const mainSystem = systemMessageAt(sm, leaf);
    assert.ok(mainSystem, "the main run recorded its prompt");

    const aside = await askAside({
      session: agent,
      question: "ASIDEQ what now?",
      model: openAIModel(fake),
      cwd: tmp.dir,
      systemPrompt: "You are terse. MAINPROMPT",
    });
    assert.equal(aside.state, "done", aside.error);
    assert.equal(sm.getLeafId(), leaf, "the leaf did not move");
    assert.equal(sm.getEnvelope(aside.branchId as string)?.parentId, leaf, "the branch's first entry is its prompt");
    assert.match(systemOf(requestWith("ASIDEQ")), /MAINPROMPT/, "the aside sent the prompt");
    const replayed = systemMessageAt(sm, aside.tipId);
    const names = (replayed?.toolsAdded ?? []).map((t) => t.name).sort();
    assert.deepEqual(names, [...ASIDE_TOOL_NAMES].sort(), "the aside's path replays the tools it ran with");
    assert.deepEqual(
      (systemMessageAt(sm, leaf)?.toolsAdded ?? []).map((t) => t.name),
      (mainSystem.toolsAdded ?? []).map((t) => t.name),
      "the main path keeps its own loadout",
    );
    await sm.close();
  });

  it("a branch given the workspace's provider names its own folder; without one it replays its start's prompt", async () => {
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake), systemPrompt: "Recorded MAINPROMPT" });
    fake.setDefault(() => ({ text: "ok" }));
    await agent.prompt("first");
    const leaf = sm.getLeafId();
    const copyDir = tmp.dir + "/copy-folder";
    const withProvider = await runBranch({
      session: agent,
      parentId: leaf,
      prompt: "PROVIDERQ",
      model: openAIModel(fake),
      kind: "explore",
      groupId: "g1",
      tools: [],
      cwd: copyDir,
      systemPrompt: async (tools) => normalizePromptOptions({ cwd: tmp.dir, tools: [...tools] }),
    });
    assert.equal(withProvider.state, "done", withProvider.error);
    assert.ok(systemOf(requestWith("PROVIDERQ")).includes(copyDir), "the prompt names the branch's folder");
    assert.ok(systemPromptAt(sm, withProvider.tipId).includes(copyDir), "and the branch's path records it");
    assert.match(systemPromptAt(sm, leaf), /Recorded MAINPROMPT/, "the main path's prompt is unchanged");

    const plain = await runBranch({
      session: agent,
      parentId: leaf,
      prompt: "PLAINQ",
      model: openAIModel(fake),
      kind: "explore",
      groupId: "g2",
      tools: [],
      cwd: tmp.dir,
    });
    assert.equal(plain.state, "done", plain.error);
    assert.match(systemOf(requestWith("PLAINQ")), /Recorded MAINPROMPT/, "the prompt in force at the start node");
    await sm.close();
  });
});
