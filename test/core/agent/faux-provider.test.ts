/**
 * The agent loop on pi-ai's faux provider (where no wire is the point): a provider registered with the registry as
 * the host registers its own (VS Code's language models), its model listed and ready, a scripted tool call run
 * and its result sent back, and the thinking level reaching the provider as pi-ai's `reasoning`.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import type { SimpleStreamOptions, TranscriptContext } from "@earendil-works/pi-ai";
import { AgentSession } from "../../../src/core/agent/agent-session.js";
import { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { loadPiAi } from "../../../src/core/providers/pi-ai.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { fakeReadTool } from "./helpers.js";

type PiAiIndex = typeof import("@earendil-works/pi-ai");

describe("the agent on pi-ai's faux provider", () => {
  let pi: PiAiIndex;
  before(async () => {
    [pi] = await Promise.all([import("@earendil-works/pi-ai"), loadPiAi()]);
  });

  it("a registered provider is listed and ready; a tool call runs and the reply ends the turn", async () => {
    const faux = pi.fauxProvider({ provider: "faux", models: [{ id: "thinker", reasoning: true }] });
    const seen: { context: TranscriptContext; options: SimpleStreamOptions | undefined }[] = [];
    faux.setResponses([
      (context, options) => {
        seen.push({ context, options });
        return pi.fauxAssistantMessage(
          [pi.fauxText("Reading."), pi.fauxToolCall("read", { path: "a.txt" }, { id: "t1" })],
          {
            stopReason: "toolUse",
          },
        );
      },
      (context, options) => {
        seen.push({ context, options });
        return pi.fauxAssistantMessage("It says hello.");
      },
    ]);
    const registry = await ModelRegistry.create({ builtins: false });
    registry.registerProvider(faux.provider);
    await registry.refreshAuth();
    const model = registry.find("faux", "thinker");
    assert.ok(model, "the registered provider's model is listed");
    assert.ok(registry.isReady("faux"));
    assert.deepEqual(
      registry.providers().map((p) => p.id),
      ["faux"],
    );

    const sm = SessionManager.inMemory("/tmp");
    const reads: string[] = [];
    const agent = new AgentSession({
      sessionManager: sm,
      cwd: "/tmp",
      modelRegistry: registry,
      model,
      tools: [fakeReadTool({ "a.txt": "hello" }, reads)],
    });
    agent.setThinkingLevel("high");
    await agent.prompt("What is in a.txt?");
    assert.deepEqual(reads, ["a.txt"]);
    assert.equal(seen.length, 2);
    assert.equal(seen[0].options?.reasoning, "high", "the branch's level, as pi-ai's reasoning");
    const back = seen[1].context.messages.at(-1);
    assert.ok(back?.role === "toolResult" && back.toolCallId === "t1");
    assert.deepEqual(back.content, [{ type: "text", text: "hello" }]);
    const roles = sm.buildSessionContext().messages.map((m) => m.role);
    assert.deepEqual(roles, ["user", "assistant", "toolResult", "assistant"]);
    const final = sm.buildSessionContext().messages.at(-1);
    assert.ok(final?.role === "assistant" && final.provider === "faux" && final.stopReason === "stop");
    assert.ok(final.usage.totalTokens > 0, "faux usage is recorded like any provider's");

    registry.unregisterProvider("faux");
    assert.equal(registry.find("faux", "thinker"), undefined, "unregistered, its models are gone");
    agent.dispose();
  });
});
