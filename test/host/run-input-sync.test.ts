/** What the chat is told of the queue of a running agent, and what an aborted run gives back to the input. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentTool } from "../../src/core/tools/types.js";
import { followRunInput } from "../../src/host/run-input-sync.js";
import { ApprovalBroker } from "../../src/host/tool-approval.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { newAgent, openAIModel } from "../core/agent/helpers.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { fileSession } from "../util/session-builder.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";

/** A tool that runs until released, so messages can be queued meanwhile. */
function gate(): { tool: AgentTool; started: Promise<void>; release: () => void } {
  let release = (): void => undefined;
  let onStart = (): void => undefined;
  const started = new Promise<void>((r) => (onStart = r));
  const open = new Promise<void>((r) => (release = r));
  return {
    started,
    release: () => release(),
    tool: {
      name: "wait",
      description: "Waits",
      mutates: false,
      parameters: { type: "object", properties: {} },
      async execute() {
        onStart();
        await open;
        return { content: [{ type: "text", text: "ok" }] };
      },
    },
  };
}

describe("followRunInput", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("posts the queue as it changes; an aborted run's queued text goes back to the input, oldest first", async () => {
    const sm = await fileSession(tmp.dir);
    const g = gate();
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [g.tool] });
    const broker = new ApprovalBroker(() => false, { ask: () => undefined, done: () => undefined });
    const posted: HostToWebview[] = [];
    let firstUser: string | undefined;
    const stop = followRunInput(
      agent,
      broker,
      (m) => posted.push(m),
      (first) => (firstUser = first),
    );
    fake.enqueue({ toolCalls: [{ name: "wait", args: {} }] });
    const run = agent.prompt("go");
    await g.started;
    agent.queueMessage("followUp", "one");
    agent.queueMessage("steer", "two");
    agent.abort();
    g.release();
    await run;
    stop();
    const queues = posted.flatMap((m) => (m.type === "chat/queue" ? [m.items.map((i) => i.text)] : []));
    assert.deepEqual(queues, [["one"], ["one", "two"], []]);
    assert.deepEqual(
      posted.filter((m) => m.type === "chat/restoreInput"),
      [{ type: "chat/restoreInput", text: "one\n\ntwo" }],
    );
    const firstUserEntry = sm.getEntries().find((e) => e.type === "message" && e.message.role === "user");
    assert.equal(firstUser, firstUserEntry?.id, "the run's first user message is reported at its end");
    await sm.close();
  });

  it("a run that delivered everything gives nothing back", async () => {
    const sm = await fileSession(tmp.dir);
    const g = gate();
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [g.tool] });
    const broker = new ApprovalBroker(() => false, { ask: () => undefined, done: () => undefined });
    const posted: HostToWebview[] = [];
    followRunInput(agent, broker, (m) => posted.push(m));
    fake.enqueue({ toolCalls: [{ name: "wait", args: {} }] }, { text: "a" }, { text: "b" });
    const run = agent.prompt("go");
    await g.started;
    agent.queueMessage("followUp", "later");
    g.release();
    await run;
    assert.equal(posted.filter((m) => m.type === "chat/restoreInput").length, 0);
    assert.deepEqual(posted.filter((m) => m.type === "chat/queue").at(-1), { type: "chat/queue", items: [] });
    await sm.close();
  });
});
