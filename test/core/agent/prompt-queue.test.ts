import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PromptQueue } from "../../../src/core/agent/prompt-queue.js";
import type { UserMessage } from "../../../src/core/messages.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { gatedAgent, openAIModel, promptAtGate, transcript } from "./helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

/** The user texts the model saw in one request. */
function userTexts(body: Record<string, unknown>): string[] {
  const messages = body.messages as { role: string; content: unknown }[];
  return messages.filter((m) => m.role === "user").map((m) => (typeof m.content === "string" ? m.content : ""));
}

describe("PromptQueue", () => {
  it("takes the oldest message of a kind, edits and removes by id, and reports every change", () => {
    const seen: number[] = [];
    const q = new PromptQueue((items) => seen.push(items.length));
    const a = q.enqueue("followUp", "first");
    q.enqueue("steer", "steer me");
    const c = q.enqueue("followUp", "second");
    assert.equal(q.edit(c, "second, edited"), true);
    assert.equal(q.take("followUp")?.text, "first");
    assert.equal(q.edit(a, "too late"), false, "a delivered message cannot be edited");
    assert.equal(q.take("steer")?.text, "steer me");
    assert.equal(q.take("steer"), undefined);
    assert.deepEqual(
      q.list().map((i) => i.text),
      ["second, edited"],
    );
    assert.equal(q.remove(c), true);
    assert.equal(q.size, 0);
    assert.deepEqual(seen, [1, 2, 3, 3, 2, 1, 0]);
    assert.throws(() => q.enqueue("steer", "  "), /empty/);
  });

  it("clear returns what waited and empties the queue; an empty edit removes", () => {
    const q = new PromptQueue();
    const a = q.enqueue("followUp", "one");
    q.enqueue("steer", "two");
    assert.equal(q.edit(a, ""), true);
    assert.deepEqual(
      q.clear().map((i) => i.text),
      ["two"],
    );
    assert.deepEqual(q.clear(), []);
  });

  it("keeps a message's attachments through an edit, lists only their count, and delivers them after the text", () => {
    const q = new PromptQueue();
    const file = { type: "text" as const, text: '<file name="/w/a.ts">\nx\n</file>' };
    const image = { type: "image" as const, data: "aGk=", mimeType: "image/png" };
    const id = q.enqueue("steer", "look at @a.ts", [file, image]);
    assert.equal(q.edit(id, "look again at @a.ts"), true);
    assert.deepEqual(q.list(), [{ id, kind: "steer", text: "look again at @a.ts", attachmentCount: 2 }]);
    assert.deepEqual(q.take("steer"), { text: "look again at @a.ts", attachments: [file, image] });
  });
});

describe("AgentSession steering and follow-ups", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("a steering message is delivered after the running tool call, before the next model request", async () => {
    const { sm, gate, agent } = await gatedAgent(tmp.dir, openAIModel(fake));
    const run = await promptAtGate(agent, gate, fake, "start working", { text: "Steered answer." });
    agent.queueMessage("steer", "use tabs, not spaces");
    assert.equal(fake.requests.length, 1, "nothing is sent while the tool runs");
    await run.finish();
    assert.deepEqual(transcript(sm.getEntries()), [
      "user:start working",
      "assistant",
      "toolResult",
      "user:use tabs, not spaces",
      "assistant",
    ]);
    assert.equal(fake.requests.length, 2);
    assert.deepEqual(userTexts(fake.requests[1]), ["start working", "use tabs, not spaces"]);
    const second = fake.requests[1].messages as { role: string }[];
    assert.equal(second.at(-1)?.role, "user", "the steering message follows the tool result in the request");
    assert.equal(agent.getQueuedMessages().length, 0);
    await sm.close();
  });

  it("a follow-up waits for the run to end and is sent as its own request; two go one at a time", async () => {
    const { sm, gate, agent, events } = await gatedAgent(tmp.dir, openAIModel(fake));
    const run = await promptAtGate(
      agent,
      gate,
      fake,
      "first",
      { text: "Done with the first." },
      { text: "Answer to the second." },
      { text: "Answer to the third." },
    );
    agent.queueMessage("followUp", "second");
    const third = agent.queueMessage("followUp", "third, draft");
    assert.equal(agent.editQueuedMessage(third, "third"), true);
    await run.finish();
    assert.deepEqual(transcript(sm.getEntries()), [
      "user:first",
      "assistant",
      "toolResult",
      "assistant",
      "user:second",
      "assistant",
      "user:third",
      "assistant",
    ]);
    assert.equal(fake.requests.length, 4);
    assert.deepEqual(userTexts(fake.requests[1]), ["first"], "the follow-up is not part of the tool round");
    assert.deepEqual(userTexts(fake.requests[2]), ["first", "second"]);
    assert.deepEqual(userTexts(fake.requests[3]), ["first", "second", "third"]);
    const sizes = events.flatMap((e) => (e.type === "queue_update" ? [e.items.length] : []));
    assert.deepEqual(sizes, [1, 2, 2, 1, 0]);
    assert.equal(events.filter((e) => e.type === "agent_end").length, 1, "one run from first to last");
    await sm.close();
  });

  it("steering comes before waiting follow-ups; a removed message is never sent", async () => {
    const { sm, gate, agent } = await gatedAgent(tmp.dir, openAIModel(fake));
    const run = await promptAtGate(agent, gate, fake, "go", { text: "a" }, { text: "b" });
    agent.queueMessage("followUp", "later");
    const dropped = agent.queueMessage("followUp", "never mind");
    agent.queueMessage("steer", "now");
    assert.equal(agent.removeQueuedMessage(dropped), true);
    await run.finish();
    const users = transcript(sm.getEntries()).filter((t) => t.startsWith("user:"));
    assert.deepEqual(users, ["user:go", "user:now", "user:later"]);
    await sm.close();
  });

  it("queued messages an abort leaves undelivered stay queued for the host to put back, and queueing needs a run", async () => {
    const { sm, gate, agent } = await gatedAgent(tmp.dir, openAIModel(fake));
    assert.throws(() => agent.queueMessage("followUp", "idle"), /Nothing is running/);
    const run = await promptAtGate(agent, gate, fake, "go");
    agent.queueMessage("steer", "steer text");
    agent.queueMessage("followUp", "follow text");
    agent.abort();
    await run.finish();
    assert.equal(fake.requests.length, 1, "an aborted run sends nothing more");
    assert.deepEqual(
      agent.clearQueue().map((i) => `${i.kind}:${i.text}`),
      ["steer:steer text", "followUp:follow text"],
    );
    const users = transcript(sm.getEntries()).filter((t) => t.startsWith("user:"));
    assert.deepEqual(users, ["user:go"]);
    await sm.close();
  });

  it("queued messages are ordinary user entries that pi's context builder reads back", async () => {
    const { sm, gate, agent } = await gatedAgent(tmp.dir, openAIModel(fake));
    const run = await promptAtGate(agent, gate, fake, "go", { text: "x" }, { text: "y" });
    agent.queueMessage("followUp", "queued one");
    await run.finish();
    const users = sm
      .buildSessionContext()
      .messages.filter((m): m is UserMessage => m.role === "user")
      .map((m) => m.content);
    assert.deepEqual(users, ["go", "queued one"]);
    await sm.close();
  });
});
