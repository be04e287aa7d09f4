/** What the chat is told of the queue of a running agent, and what an aborted run gives back to the input. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { QueuedKind } from "../../src/core/agent/prompt-queue.js";
import { followRunInput } from "../../src/host/chat/run-input-sync.js";
import { ApprovalBroker } from "../../src/host/tools/tool-approval.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { gateTool, newAgent, openAIModel } from "../core/agent/helpers.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { fileSession } from "../util/session-builder.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";

describe("followRunInput", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  /** A file session whose agent has the gate tool (so messages can be queued while it runs), followed into `posted`. */
  async function followedAgent(onRunEnd?: (firstUserId: string | undefined) => void) {
    const sm = await fileSession(tmp.dir);
    const gate = gateTool();
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [gate.tool] });
    const broker = new ApprovalBroker(() => false, { ask: () => undefined, done: () => undefined });
    const posted: HostToWebview[] = [];
    const stop = followRunInput(agent, broker, (m) => posted.push(m), onRunEnd);
    /**
     * Prompts (the fake's first reply calls the gate tool), queues `queued` while the gate holds, aborts when
     * asked, then lets the tool finish; resolves once the run has ended.
     */
    const runQueueing = async (queued: readonly [QueuedKind, string][], abort: boolean): Promise<void> => {
      const run = agent.prompt("go");
      await gate.started;
      for (const [kind, text] of queued) agent.queueMessage(kind, text);
      if (abort) agent.abort();
      gate.release();
      await run;
    };
    return { sm, posted, stop, runQueueing };
  }

  it("posts the queue as it changes; an aborted run's queued text goes back to the input, oldest first", async () => {
    let firstUser: string | undefined;
    const { sm, posted, stop, runQueueing } = await followedAgent((first) => (firstUser = first));
    fake.enqueue({ toolCalls: [{ name: "wait", args: {} }] });
    await runQueueing(
      [
        ["followUp", "one"],
        ["steer", "two"],
      ],
      true,
    );
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
    const { sm, posted, runQueueing } = await followedAgent();
    fake.enqueue({ toolCalls: [{ name: "wait", args: {} }] }, { text: "a" }, { text: "b" });
    await runQueueing([["followUp", "later"]], false);
    assert.equal(posted.filter((m) => m.type === "chat/restoreInput").length, 0);
    assert.deepEqual(posted.filter((m) => m.type === "chat/queue").at(-1), { type: "chat/queue", items: [] });
    await sm.close();
  });
});
