/**
 * Ask Aside in the core: a read-only side question asked while the user's agent streams a slow reply. The aside
 * answers first, the main reply completes, the leaf stays on the main branch and its context holds no aside.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readBranchRuns } from "../../../src/core/parallel/branch-run-lines.js";
import { askAside, ASIDE_TOOL_NAMES } from "../../../src/core/parallel/aside.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { AgentTool } from "../../../src/core/tools/types.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import type { FakeRequestBody, FakeReply } from "../../util/fake-provider-common.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { writeFiles } from "../checkpoints/helpers.js";
import { requestTexts } from "./helpers.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

function replies(body: FakeRequestBody): FakeReply {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1);
  const text = requestTexts(body).join("\n");
  if (last?.role === "tool") return { text: `The file says: ${String(last.content).trim()}` };
  if (text.includes("ASIDE")) return { toolCalls: [{ name: "read", args: { path: "notes.txt" } }] };
  return { text: "a slow main reply ".repeat(20), chunks: 20, chunkDelayMs: 60 };
}

describe("ask aside (core)", { timeout: 60_000 }, () => {
  it("answers while the main reply streams, off the active path and out of the main context", async () => {
    writeFiles(tmp.dir, { "notes.txt": "the secret word is heron\n" });
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.setDefault(replies);
    await agent.prompt("first");
    const streaming = new Promise<void>((resolve) => {
      const off = agent.subscribe((e) => {
        if (e.type === "message_update") {
          off();
          resolve();
        }
      });
    });
    const main = agent.prompt("main slow");
    await streaming;
    const leafAtAsk = sm.getLeafId();
    const aside = await askAside({
      session: agent,
      question: "ASIDE: what is the secret word?",
      model: openAIModel(fake),
      cwd: tmp.dir,
    });
    assert.equal(agent.isStreaming, true, "the aside did not wait for the running turn");
    await main;

    assert.equal(aside.state, "done", aside.error);
    assert.match(aside.finalText, /heron/, "the aside read the workspace");
    assert.equal(sm.getEnvelope(aside.branchId as string)?.parentId, leafAtAsk, "it starts at the leaf as it was");
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "assistant");
    assert.match(JSON.stringify(leaf.message.content), /slow main reply/, "the leaf is the main reply");
    const onPath = new Set(sm.getPathEnvelopes().map((e) => e.id));
    assert.ok(!onPath.has(aside.branchId as string), "the aside sits off the active path");
    assert.ok(!JSON.stringify(sm.buildSessionContext().messages).includes("ASIDE"), "no aside in the main context");

    const asideRequests = fake.requests.filter((b) => requestTexts(b).join("\n").includes("ASIDE"));
    assert.equal(asideRequests.length, 2);
    for (const body of asideRequests) {
      const tools = (body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
      assert.deepEqual(tools, [...ASIDE_TOOL_NAMES].sort(), "the aside may only read");
    }
    const run = readBranchRuns(sm).get(aside.branchId as string);
    assert.equal(run?.kind, "aside");
    assert.equal(run?.state, "done");
    await sm.close();
  });

  it("offers the read-only MCP tools it is given beside its own four", async () => {
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    fake.setDefault(() => ({ text: "answered" }));
    const search: AgentTool = {
      name: "mcp__docs__search",
      description: "Search the docs",
      mutates: false,
      parameters: { type: "object", properties: {} },
      execute: async () => ({ content: [{ type: "text", text: "nothing" }] }),
    };
    const before = fake.requests.length;
    const aside = await askAside({
      session: newAgent(sm).agent,
      question: "ASIDE: which docs?",
      model: openAIModel(fake),
      cwd: tmp.dir,
      extraTools: [search],
    });
    assert.equal(aside.state, "done", aside.error);
    const body = fake.requests[before];
    const tools = (body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    assert.deepEqual(tools, [...ASIDE_TOOL_NAMES, "mcp__docs__search"].sort());
    await sm.close();
  });

  it("refuses an empty question and writes nothing", async () => {
    const sm = SessionManager.inMemory(tmp.dir);
    await assert.rejects(
      askAside({
        session: newAgent(sm).agent,
        question: "  ",
        model: openAIModel(fake),
        cwd: tmp.dir,
      }),
      /needs a question/,
    );
    assert.equal(sm.getEntryCount(), 0);
  });
});
