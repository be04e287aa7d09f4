import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import {
  clampThinkingLevel,
  supportedThinkingLevels,
  THINKING_LEVELS,
} from "../../../src/core/providers/thinking-levels.js";
import type { ModelInfo } from "../../../src/core/providers/types.js";
import { testModels } from "../../util/test-models.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { anthropicModel, newAgent, openAIModel } from "./helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { fileSession } from "../../util/session-builder.js";

const base: ModelInfo = openAIModel({ baseURL: "http://127.0.0.1:9" }, { id: "m", reasoning: false });

describe("thinking levels a model takes", () => {
  it("follows pi (pi-ai decides): none without reasoning, off..high with it, xhigh and max only where mapped", () => {
    assert.deepEqual(supportedThinkingLevels(undefined), ["off"]);
    assert.deepEqual(supportedThinkingLevels(base), ["off"]);
    const reasoning = { ...base, reasoning: true };
    assert.deepEqual(supportedThinkingLevels(reasoning), ["off", "minimal", "low", "medium", "high"]);
    assert.deepEqual(
      supportedThinkingLevels({ ...reasoning, thinkingLevelMap: { xhigh: "xhigh", max: "max" } }),
      THINKING_LEVELS,
    );
    // A model that cannot turn reasoning off (GPT-5 mini's map says off: null) is never sent "off".
    const alwaysThinks = { ...reasoning, thinkingLevelMap: { off: null } };
    assert.deepEqual(supportedThinkingLevels(alwaysThinks), ["minimal", "low", "medium", "high"]);
    assert.equal(clampThinkingLevel(alwaysThinks, "off"), "minimal");
    assert.equal(clampThinkingLevel(reasoning, "xhigh"), "high");
    assert.equal(clampThinkingLevel(reasoning, "max"), "high");
    assert.equal(clampThinkingLevel(base, "medium"), "off");
    assert.equal(clampThinkingLevel(reasoning, "low"), "low");
  });

  it("the catalog says which levels a built-in model takes; a custom model says it takes xhigh in its settings", () => {
    const registry = testModels({
      custom: [
        { provider: "x", id: "y", baseUrl: "http://127.0.0.1:1", api: "openai", reasoning: true, supportsXhigh: true },
      ],
    });
    const custom = registry.find("x", "y");
    assert.ok(custom);
    assert.equal(supportedThinkingLevels(custom).at(-1), "xhigh");
    const mini = registry.find("openai", "gpt-5-mini");
    assert.ok(mini);
    assert.equal(supportedThinkingLevels(mini)[0], "minimal", "GPT-5 mini always reasons (pi-ai's catalog)");
  });
});

describe("thinking level on the OpenAI wire", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("is recorded as pi's thinking_level_change, sent as reasoning_effort, and kept per branch", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, {
      model: openAIModel(fake, { reasoning: true, thinkingLevelMap: { xhigh: "xhigh" } }),
    });
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
    // pi's budget for "medium" (pi-ai DEFAULT_THINKING_BUDGETS).
    assert.deepEqual(fake.requests[0].thinking, { type: "enabled", budget_tokens: 8192, display: "summarized" });
    assert.ok((fake.requests[0].max_tokens as number) > 8192);
    // "off" on a reasoning model is said explicitly, as pi-ai sends it.
    assert.deepEqual(fake.requests[1].thinking, { type: "disabled" });
    await sm.close();
  });
});
