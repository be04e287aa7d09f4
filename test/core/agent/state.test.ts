import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { newAgent, openAIModel } from "./helpers.js";
import { fileSession } from "../../util/session-builder.js";
import { testModels } from "../../util/test-models.js";
import { tempDir, tempDirPerTest } from "../../util/temp-dir.js";

describe("AgentSession state", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("setModel / setThinkingLevel are recorded and picked up by the next AgentSession", async () => {
    const sm = await fileSession(tmp.dir);
    const registry = testModels({
      custom: [{ provider: "local", id: "m1", baseUrl: fake.baseURL, api: "openai-completions", noApiKey: true }],
    });
    const { agent } = newAgent(sm, { modelRegistry: registry });
    assert.equal(agent.getModel(), undefined);
    agent.setModel(registry.find("local", "m1")!);
    agent.setThinkingLevel("high");
    assert.throws(() => agent.setThinkingLevel("extreme" as "high"), /Unknown thinking level/);
    const types = sm.getEntries().map((e) => e.type);
    assert.deepEqual(types, ["model_change", "thinking_level_change"]);
    const { agent: next } = newAgent(sm, { modelRegistry: registry });
    assert.equal(next.getModel()?.id, "m1");
    assert.equal(next.getThinkingLevel(), "high");
    await next.prompt("hello");
    assert.equal(fake.requests.at(-1)?.model, "m1");
    await sm.close();
  });

  it("the prompt's own signal aborts it, and a throwing listener does not stop the loop", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake) });
    agent.subscribe(() => {
      throw new Error("bad listener");
    });
    const controller = new AbortController();
    fake.enqueue({ stall: true, text: "slow words" });
    agent.subscribe((e) => {
      if (e.type === "message_update") controller.abort();
    });
    await agent.prompt("go slowly", { signal: controller.signal });
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "assistant");
    assert.equal(leaf.message.stopReason, "aborted");
    assert.equal(events.at(-1)?.type, "agent_end");
    assert.equal(agent.isStreaming, false);
    await sm.close();
  });

  it("dispose() drops hooks and refuses further work", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    agent.hooks.registerCommand("x", { handler: () => undefined });
    agent.dispose();
    assert.deepEqual(agent.hooks.getCommands(), []);
    await assert.rejects(agent.prompt("hi"), /disposed/);
    await sm.close();
  });
});

describe("read-only sessions", () => {
  it("refuse work that would write, with a clear error and nothing emitted", async () => {
    const tmp = tempDir();
    try {
      const writer = await fileSession(tmp.dir);
      const u = writer.appendMessage({ role: "user", content: "hi", timestamp: 1 });
      const file = writer.getSessionFile()!;
      const view = await SessionManager.open(file, { readOnly: true });
      const { agent, events } = newAgent(view, {
        model: openAIModel({ baseURL: "http://127.0.0.1:9" }, { id: "m", contextWindow: 1000, maxTokens: 100 }),
      });
      await assert.rejects(agent.prompt("hello"), /read-only/);
      await assert.rejects(agent.navigateTree(u), /read-only/);
      await assert.rejects(agent.compact(), /read-only/);
      assert.deepEqual(events, []);
      await view.close();
      await writer.close();
    } finally {
      tmp.cleanup();
    }
  });
});
