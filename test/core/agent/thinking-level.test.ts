import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import {
  clampThinkingLevel,
  supportedThinkingLevels,
  THINKING_LEVELS,
} from "../../../src/core/providers/thinking-levels.js";
import { parseCustomModel } from "../../../src/core/providers/model-registry.js";
import type { ModelInfo } from "../../../src/core/providers/types.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { anthropicModel, newAgent, openAIModel } from "./helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { fileSession } from "../../util/session-builder.js";

const base: ModelInfo = {
  id: "m",
  name: "m",
  provider: "p",
  api: "openai-completions",
  contextWindow: 1000,
  maxTokens: 100,
};

describe("thinking levels a model takes", () => {
  it("follows pi: none without reasoning, off..high with it, xhigh only when the model says so", () => {
    assert.deepEqual(supportedThinkingLevels(undefined), ["off"]);
    assert.deepEqual(supportedThinkingLevels(base), ["off"]);
    assert.deepEqual(supportedThinkingLevels({ ...base, reasoning: true }), [
      "off",
      "minimal",
      "low",
      "medium",
      "high",
    ]);
    assert.deepEqual(supportedThinkingLevels({ ...base, reasoning: true, supportsXhigh: true }), THINKING_LEVELS);
    assert.equal(clampThinkingLevel({ ...base, reasoning: true }, "xhigh"), "high");
    assert.equal(clampThinkingLevel(base, "medium"), "off");
    assert.equal(clampThinkingLevel({ ...base, reasoning: true }, "low"), "low");
  });

  it("a custom model says it takes xhigh in its settings", () => {
    const m = parseCustomModel({
      provider: "x",
      id: "y",
      baseUrl: "http://127.0.0.1:1",
      api: "openai",
      reasoning: true,
      supportsXhigh: true,
    });
    assert.ok(typeof m !== "string");
    assert.deepEqual(supportedThinkingLevels(m).at(-1), "xhigh");
  });
});

describe("thinking level on the OpenAI wire", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("is recorded as pi's thinking_level_change, sent as reasoning_effort, and kept per branch", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake, { reasoning: true, supportsXhigh: true }) });
    agent.setThinkingLevel("high");
    await agent.prompt("first");
    const branchPoint = sm.getLeafId();
    assert.ok(branchPoint);
    agent.setThinkingLevel("xhigh");
    await agent.prompt("second");
    assert.equal(fake.requests[0].reasoning_effort, "high");
    assert.equal(fake.requests[1].reasoning_effort, "xhigh");
    const changes = sm.getEntries().filter((e) => e.type === "thinking_level_change");
    assert.deepEqual(
      changes.map((e) => (e.type === "thinking_level_change" ? e.thinkingLevel : "")),
      ["high", "xhigh"],
    );
    // Back on the first branch, its own level is in force again, for the agent and for the next request.
    await agent.navigateTree(branchPoint);
    assert.equal(agent.getThinkingLevel(), "high");
    await agent.prompt("third");
    assert.equal(fake.requests.at(-1)?.reasoning_effort, "high");
    const file = sm.getSessionFile();
    await sm.close();
    assert.ok(file);
    const reopened = await SessionManager.open(file);
    assert.equal(reopened.getLeafSettings().thinkingLevel, "high", "pi resumes the branch with its level");
    await reopened.close();
  });

  it("a model without xhigh gets high; a model without reasoning gets no effort at all", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake, { reasoning: true }) });
    agent.setThinkingLevel("xhigh");
    await agent.prompt("one");
    assert.equal(fake.requests[0].reasoning_effort, "high");
    assert.equal(agent.getThinkingLevel(), "xhigh", "the choice is kept as made");
    assert.deepEqual(agent.getSupportedThinkingLevels(), ["off", "minimal", "low", "medium", "high"]);
    agent.setModel(openAIModel(fake, { id: "plain" }));
    await agent.prompt("two");
    assert.equal("reasoning_effort" in fake.requests[1], false);
    await sm.close();
  });
});

describe("thinking level on the Anthropic wire", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite(startFakeAnthropic);
  const tmp = tempDirPerTest();

  it("is sent as a thinking budget below max_tokens", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: anthropicModel(fake, { reasoning: true, maxTokens: 64_000 }) });
    agent.setThinkingLevel("medium");
    await agent.prompt("think");
    agent.setThinkingLevel("off");
    await agent.prompt("do not");
    assert.deepEqual(fake.requests[0].thinking, { type: "enabled", budget_tokens: 10_240 });
    assert.ok((fake.requests[0].max_tokens as number) > 10_240);
    assert.equal("thinking" in fake.requests[1], false);
    await sm.close();
  });
});
