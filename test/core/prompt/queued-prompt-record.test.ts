/**
 * Messages typed during a run (steering, follow-ups) and the recorded system prompt and thinking level, through
 * the real openai / @anthropic-ai/sdk clients against the fake servers: a prompt change made while the agent works
 * is recorded as a patch before the delivered message (as before a prompt's own message); each branch replays
 * both its prompt and its level; an Anthropic request carries the cached system prompt and the thinking budget.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  SessionManager,
  workspacePromptProvider,
  type AgentSession,
  type AgentTool,
  type ModelInfo,
} from "../../../src/core/index.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import {
  anthropicModel,
  gateTool,
  instructionWorkspace,
  newAgent,
  openAIModel,
  promptAtGate,
  sentPrompt,
  transcript,
} from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

/**
 * An agent on an {@link instructionWorkspace} whose AGENTS.md names a word (ZEBRAFISH; `setWord` changes it), its
 * system prompt from the workspace's instructions.
 */
async function workspaceAgent(
  dir: string,
  model: ModelInfo,
  tools: AgentTool[] = [],
): Promise<{ sm: SessionManager; setWord: (word: string) => void; agent: AgentSession }> {
  const { sm, loader, setAgentsMd } = await instructionWorkspace(dir, "Project word: ZEBRAFISH");
  const { agent } = newAgent(sm, { model, systemPrompt: workspacePromptProvider({ loader }), tools });
  return { sm, setWord: (word) => setAgentsMd(`Project word: ${word}`), agent };
}

describe("queued messages and the recorded system prompt", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("a prompt change while a tool runs is recorded before the steering message, and the next request carries it", async () => {
    const gate = gateTool();
    const { sm, setWord, agent } = await workspaceAgent(tmp.dir, openAIModel(fake), [gate.tool]);
    const run = await promptAtGate(agent, gate, fake, "start", { text: "Steered." });
    setWord("ANTELOPE");
    agent.queueMessage("steer", "use tabs");
    await run.finish();
    assert.deepEqual(transcript(sm.getEntries()), [
      "system:preamble,tools,rules,cwd,project_context,environment",
      "user:start",
      "assistant",
      "toolResult",
      "system:project_context",
      "user:use tabs",
      "assistant",
    ]);
    assert.match(sentPrompt(fake.requests[0]), /ZEBRAFISH/);
    assert.match(sentPrompt(fake.requests[1]), /ANTELOPE/);
    assert.doesNotMatch(sentPrompt(fake.requests[1]), /ZEBRAFISH/);
    await sm.close();
  });

  it("a follow-up: the patch goes before it; nothing is recorded when the prompt did not change", async () => {
    const gate = gateTool();
    const { sm, setWord, agent } = await workspaceAgent(tmp.dir, openAIModel(fake), [gate.tool]);
    // The instructions change after the reply that ends the first request, before the follow-up is delivered.
    let turns = 0;
    agent.subscribe((e) => {
      if (e.type === "turn_end" && ++turns === 2) setWord("OCELOT");
    });
    const run = await promptAtGate(
      agent,
      gate,
      fake,
      "first",
      { text: "First done." },
      { text: "Second done." },
      { text: "Third done." },
    );
    agent.queueMessage("followUp", "second");
    agent.queueMessage("followUp", "third");
    await run.finish();
    assert.deepEqual(transcript(sm.getEntries()), [
      "system:preamble,tools,rules,cwd,project_context,environment",
      "user:first",
      "assistant",
      "toolResult",
      "assistant",
      "system:project_context",
      "user:second",
      "assistant",
      "user:third",
      "assistant",
    ]);
    assert.equal(fake.requests.length, 4);
    assert.match(sentPrompt(fake.requests[1]), /ZEBRAFISH/);
    assert.match(sentPrompt(fake.requests[2]), /OCELOT/);
    assert.equal(sentPrompt(fake.requests[3]), sentPrompt(fake.requests[2]));
    assert.equal(sentPrompt(fake.requests[3]), agent.getSystemPrompt(), "what is sent is what the session replays");
    await sm.close();
  });

  it("each branch replays its own prompt and thinking level, and the next request carries both", async () => {
    const { sm, setWord, agent } = await workspaceAgent(tmp.dir, openAIModel(fake, { reasoning: true }));
    agent.setThinkingLevel("low");
    await agent.prompt("one");
    const branchPoint = sm.getLeafId();
    assert.ok(branchPoint);
    setWord("HERON");
    agent.setThinkingLevel("high");
    await agent.prompt("two");
    assert.equal(fake.requests[1].reasoning_effort, "high");
    assert.match(sentPrompt(fake.requests[1]), /HERON/);

    assert.equal((await agent.navigateTree(branchPoint)).kind, "moved");
    assert.equal(agent.getThinkingLevel(), "low");
    assert.match(agent.getSystemPrompt(), /ZEBRAFISH/, "the branch replays the instructions it ran under");
    await agent.prompt("three");
    const last = fake.requests.at(-1) ?? {};
    assert.equal(last.reasoning_effort, "low", "the branch's level");
    assert.match(sentPrompt(last), /HERON/, "today's instructions, recorded again on this branch");
    await sm.close();
  });
});

describe("the system prompt and the thinking budget on Anthropic's wire", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite(startFakeAnthropic);
  const tmp = tempDirPerTest();

  it("one request carries the cached system prompt and the thinking budget", async () => {
    const model = anthropicModel(fake, { provider: "anthropic", reasoning: true, maxTokens: 64_000 });
    const { sm, agent } = await workspaceAgent(tmp.dir, model);
    agent.setThinkingLevel("medium");
    await agent.prompt("think");
    const body = fake.requests[0];
    const system = body.system as { text: string; cache_control?: unknown }[];
    // pi-ai sends the prompt as pi does: one block, marked for caching.
    assert.equal(system.length, 1);
    assert.equal(JSON.stringify(system[0].cache_control), '{"type":"ephemeral"}');
    assert.match(system[0].text, /ZEBRAFISH/);
    assert.equal(system[0].text, agent.getSystemPrompt());
    assert.deepEqual(body.thinking, { type: "enabled", budget_tokens: 8192, display: "summarized" });
    assert.ok((body.max_tokens as number) > 8192);
    await sm.close();
  });
});
