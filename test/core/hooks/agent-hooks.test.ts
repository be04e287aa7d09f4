import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { fakeReadTool, newAgent, openAIModel } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { fileSession } from "../../util/session-builder.js";

describe("hooks through AgentSession", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it('prompt("/name args") runs a registered command instead of asking the model', async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    const got: { args: string; cwd: string }[] = [];
    const off = agent.hooks.registerCommand("todo", {
      description: "Add a todo",
      handler: (args, ctx) => void got.push({ args, cwd: ctx.cwd }),
    });
    assert.deepEqual(agent.hooks.getCommands(), [{ name: "todo", description: "Add a todo" }]);
    await agent.prompt("/todo write the docs");
    assert.deepEqual(got, [{ args: "write the docs", cwd: sm.getCwd() }]);
    assert.equal(fake.requests.length, 0);
    assert.equal(sm.getEntryCount(), 0);
    off();
    await agent.prompt("/todo again");
    assert.equal(fake.requests.length, 1, "an unregistered /text goes to the model");
    await sm.close();
  });

  it("sendMessage appends a custom_message; with triggerTurn the model answers it", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    agent.hooks.sendMessage({ customType: "note", content: "quiet note", display: true });
    assert.equal(fake.requests.length, 0);
    const leaf = sm.getLeafEntry();
    assert.equal(leaf?.type, "custom_message");
    const done = new Promise<void>((resolve) => agent.subscribe((e) => e.type === "agent_end" && resolve()));
    agent.hooks.sendMessage({ customType: "ping", content: "please answer", display: false }, true);
    await done;
    assert.equal(fake.requests.length, 1);
    assert.match(JSON.stringify(fake.requests[0].messages), /quiet note[\s\S]*please answer/);
    const last = sm.getLeafEntry();
    assert.ok(last?.type === "message" && last.message.role === "assistant");
    await sm.close();
  });

  it("a message sent while streaming is added before the next model call", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [fakeReadTool({ a: "A" })] });
    agent.hooks.on("context", () => undefined);
    let sent = false;
    agent.subscribe((e: AgentEvent) => {
      if (e.type === "tool_execution_end" && !sent) {
        sent = true;
        agent.hooks.sendMessage({ customType: "steer", content: "also check b", display: true });
      }
    });
    fake.enqueue({ toolCalls: [{ name: "read", args: { path: "a" } }] });
    await agent.prompt("read a");
    const types = sm.getPath().map((e) => (e.type === "message" ? e.message.role : e.type));
    assert.deepEqual(types, ["user", "assistant", "toolResult", "custom_message", "assistant"]);
    assert.match(JSON.stringify(fake.requests[1].messages), /also check b/);
    await sm.close();
  });

  it("context handlers replace the messages sent, not the session", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    await agent.prompt("first question");
    agent.hooks.on("context", (e) => ({ messages: e.messages.slice(-1) }));
    await agent.prompt("second question");
    const sent = fake.requests[1].messages as { role: string }[];
    assert.equal(sent.length, 1);
    assert.match(JSON.stringify(sent), /second question/);
    assert.equal(sm.buildSessionContext().messages.length, 4);
    await sm.close();
  });

  it("appendEntry stores hook state that never reaches the model", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    const id = agent.hooks.appendEntry("my-ext/state", { count: 2 });
    const e = sm.getEntry(id);
    assert.ok(e?.type === "custom");
    assert.deepEqual(e.data, { count: 2 });
    await agent.prompt("hi");
    assert.doesNotMatch(JSON.stringify(fake.requests[0]), /my-ext/);
    await sm.close();
  });
});
