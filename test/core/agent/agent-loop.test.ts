import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { AssistantMessage, ToolResultMessage } from "../../../src/core/messages.js";
import type { SessionEntry } from "../../../src/core/session/types.js";
import type { AgentTool } from "../../../src/core/tools/types.js";
import { startFakeAnthropic } from "../../util/fake-anthropic-server.js";
import { startFakeOpenAI } from "../../util/fake-openai-server.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { anthropicModel, fakeReadTool, fakeWriteTool, newAgent, openAIModel } from "./helpers.js";
import { fileSession } from "../../util/session-builder.js";
import { tempDir, tempDirPerTest } from "../../util/temp-dir.js";

function messages(entries: SessionEntry[]): { role: string; entry: SessionEntry }[] {
  return entries.flatMap((e) => (e.type === "message" ? [{ role: e.message.role, entry: e }] : []));
}
function lastAssistant(entries: SessionEntry[]): AssistantMessage {
  const m = messages(entries)
    .filter((x) => x.role === "assistant")
    .at(-1);
  assert.ok(m && m.entry.type === "message");
  return m.entry.message as AssistantMessage;
}
function compactTypes(events: AgentEvent[]): string[] {
  // Collapse runs of message_update so the order check does not depend on chunking.
  return events.map((e) => e.type).filter((t, i, a) => t !== "message_update" || a[i - 1] !== "message_update");
}

describe("AgentSession prompt loop (OpenAI wire)", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("streams a reply with events in order and appends both messages", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake), systemPrompt: "You are terse." });
    await agent.prompt("hello there");
    assert.deepEqual(compactTypes(events), [
      "agent_start",
      // The user's message shows at once; the prompt is recorded first (a system message, as pi 1.6 writes it),
      // then the user's message.
      "message_start",
      "message_start",
      "message_end",
      "message_end",
      "turn_start",
      "message_start",
      "message_update",
      "message_end",
      "turn_end",
      "agent_end",
    ]);
    const entries = sm.getEntries();
    assert.deepEqual(
      messages(entries).map((m) => m.role),
      ["system", "user", "assistant"],
    );
    assert.equal(lastAssistant(entries).stopReason, "stop");
    assert.match(JSON.stringify(lastAssistant(entries).content), /Echo: hello there/);
    const ends = events.filter((e): e is Extract<AgentEvent, { type: "message_end" }> => e.type === "message_end");
    assert.deepEqual(
      ends.map((e) => e.entryId),
      messages(entries).map((m) => m.entry.id),
    );
    assert.match(JSON.stringify(fake.requests[0].messages), /You are terse\./);
    assert.equal(agent.isStreaming, false);
    await sm.close();
  });

  it("runs an approved tool call and sends its result back", async () => {
    const sm = await fileSession(tmp.dir);
    const calls: string[] = [];
    const approvals: string[] = [];
    const { agent, events } = newAgent(sm, {
      model: openAIModel(fake),
      tools: [fakeReadTool({ "a.txt": "alpha contents" }, calls)],
      approve: async (req) => {
        approvals.push(`${req.toolName}:${JSON.stringify(req.args)}`);
        return { approved: true };
      },
    });
    fake.enqueue({ text: "Reading.", toolCalls: [{ name: "read", args: { path: "a.txt" }, id: "call_1" }] });
    await agent.prompt("read a.txt");
    assert.deepEqual(calls, ["a.txt"]);
    assert.deepEqual(approvals, ['read:{"path":"a.txt"}']);
    const roles = messages(sm.getEntries()).map((m) => m.role);
    assert.deepEqual(roles, ["user", "assistant", "toolResult", "assistant"]);
    assert.match(JSON.stringify(fake.requests[1].messages), /alpha contents/);
    assert.match(JSON.stringify(lastAssistant(sm.getEntries()).content), /Tool result from read: alpha contents/);
    const types = events.map((e) => e.type);
    assert.ok(types.indexOf("tool_approval_pending") < types.indexOf("tool_execution_start"));
    assert.ok(types.indexOf("tool_execution_start") < types.indexOf("tool_execution_end"));
    assert.equal(types.filter((t) => t === "turn_end").length, 2);
    await sm.close();
  });

  it("a refused tool call gets a 'Refused by user' result and the tool does not run", async () => {
    const sm = await fileSession(tmp.dir);
    const files: Record<string, string> = {};
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      tools: [fakeWriteTool(files)],
      approve: async () => ({ approved: false, reason: "not in this folder" }),
    });
    fake.enqueue({ toolCalls: [{ name: "write", args: { path: "x.txt", content: "hi" } }] });
    await agent.prompt("write x.txt");
    assert.deepEqual(files, {});
    const result = messages(sm.getEntries()).find((m) => m.role === "toolResult");
    assert.ok(result && result.entry.type === "message");
    const tr = result.entry.message as ToolResultMessage;
    assert.equal(tr.isError, true);
    assert.deepEqual(tr.content, [{ type: "text", text: "Refused by user: not in this folder" }]);
    assert.match(JSON.stringify(fake.requests[1].messages), /Refused by user: not in this folder/);
    await sm.close();
  });

  it("abort mid-stream keeps the partial text with stopReason aborted", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake) });
    fake.enqueue({ stall: true, text: "The partial answer" });
    agent.subscribe((e) => {
      if (e.type === "message_update" && JSON.stringify(e.message.content).includes("partial answer")) agent.abort();
    });
    await agent.prompt("tell me");
    const a = lastAssistant(sm.getEntries());
    assert.equal(a.stopReason, "aborted");
    assert.match(JSON.stringify(a.content), /The partial answer/);
    assert.equal(events.at(-1)?.type, "agent_end");
    assert.equal(events.filter((e) => e.type === "error").length, 0, "an abort is not an error");
    await sm.close();
  });

  it("abort before the first token keeps the prompt, stores the empty reply as aborted, and the next prompt works", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake) });
    // The server has the request and has said nothing yet when the user aborts.
    fake.enqueue(() => {
      agent.abort();
      return { stall: true };
    });
    await agent.prompt("a slow question");
    const a = lastAssistant(sm.getEntries());
    assert.equal(a.stopReason, "aborted");
    assert.equal(events.filter((e) => e.type === "error").length, 0, "an abort is not an error");
    await agent.prompt("again");
    assert.equal(lastAssistant(sm.getEntries()).stopReason, "stop");
    const roles = messages(sm.getEntries()).map((m) => m.role);
    assert.deepEqual(roles, ["user", "assistant", "user", "assistant"]);
    assert.match(JSON.stringify(sm.getEntries()[0]), /a slow question/);
    await sm.close();
  });

  it("abort mid-tool-call keeps the partial call unrun, answered 'Aborted', and leaves it out of the next request", async () => {
    const sm = await fileSession(tmp.dir);
    const ran: string[] = [];
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [fakeReadTool({ "a.txt": "a" }, ran)] });
    fake.enqueue({
      text: "Reading it",
      toolCalls: [{ name: "read", args: { path: "a.txt", note: "x".repeat(200) }, id: "t1" }],
      chunkDelayMs: 30,
    });
    agent.subscribe((e) => {
      if (
        e.type === "message_update" &&
        e.message.role === "assistant" &&
        e.message.content.some((c) => c.type === "toolCall")
      )
        agent.abort();
    });
    await agent.prompt("read a.txt");
    const a = lastAssistant(sm.getEntries());
    assert.equal(a.stopReason, "aborted");
    assert.match(JSON.stringify(a.content), /Reading it/);
    assert.deepEqual(ran, [], "the cut call never ran");
    const result = messages(sm.getEntries()).find((m) => m.role === "toolResult");
    assert.ok(result && result.entry.type === "message");
    assert.match(JSON.stringify((result.entry.message as ToolResultMessage).content), /Aborted/);
    await agent.prompt("go on");
    assert.equal(lastAssistant(sm.getEntries()).stopReason, "stop");
    const next = JSON.stringify(fake.requests.at(-1));
    assert.doesNotMatch(next, /Reading it/, "the aborted turn is not sent again (pi-ai's rule)");
    assert.match(next, /read a\.txt/, "the prompt before it is");
    await sm.close();
  });

  it("abort while a tool call waits for approval gives every pending call an 'Aborted' result", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      tools: [fakeReadTool({ "a.txt": "a" })],
      // A dialog that never answers: the abort alone must release the loop.
      approve: () => {
        agent.abort();
        return new Promise(() => undefined);
      },
    });
    fake.enqueue({
      toolCalls: [
        { name: "read", args: { path: "a.txt" }, id: "c1" },
        { name: "read", args: { path: "b.txt" }, id: "c2" },
      ],
    });
    await agent.prompt("read both");
    const results = messages(sm.getEntries())
      .filter((m) => m.role === "toolResult")
      .map((m) => (m.entry.type === "message" ? (m.entry.message as ToolResultMessage) : undefined));
    assert.deepEqual(
      results.map((r) => r?.toolCallId),
      ["c1", "c2"],
    );
    assert.ok(results.every((r) => r?.isError && JSON.stringify(r.content).includes("Aborted")));
    assert.equal(fake.requests.length, 1, "no further model call after the abort");
    await sm.close();
  });

  it("abort while a tool runs: the tool sees the signal, later calls get 'Aborted'", async () => {
    const sm = await fileSession(tmp.dir);
    let sawAbort = false;
    const slow: AgentTool = {
      name: "bash",
      description: "Run a command",
      mutates: true,
      parameters: { type: "object", properties: { command: { type: "string" } } },
      execute: (_args, ctx) =>
        new Promise((resolve) => {
          ctx.signal?.addEventListener("abort", () => {
            sawAbort = true;
            resolve({ content: [{ type: "text", text: "killed" }], isError: true });
          });
          agent.abort();
        }),
    };
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: [slow] });
    fake.enqueue({
      toolCalls: [
        { name: "bash", args: { command: "sleep 100" }, id: "b1" },
        { name: "bash", args: { command: "echo later" }, id: "b2" },
      ],
    });
    await agent.prompt("run both");
    assert.equal(sawAbort, true);
    const results = messages(sm.getEntries())
      .filter((m) => m.role === "toolResult")
      .map((m) => (m.entry.type === "message" ? JSON.stringify((m.entry.message as ToolResultMessage).content) : ""));
    assert.equal(results.length, 2);
    assert.match(results[0], /killed/);
    assert.match(results[1], /Aborted/);
    assert.equal(fake.requests.length, 1);
    await sm.close();
  });

  it("a model error surfaces as an error event and an assistant message with stopReason error", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake) });
    fake.enqueue({ status: 400, body: "The request was malformed" });
    await agent.prompt("hi");
    const a = lastAssistant(sm.getEntries());
    assert.equal(a.stopReason, "error");
    assert.ok(a.errorMessage);
    const err = events.find((e): e is Extract<AgentEvent, { type: "error" }> => e.type === "error");
    assert.ok(err);
    assert.equal(err.source, "model");
    assert.equal(err.error, a.errorMessage);
    assert.equal(err.errorKind, "bad_response");
    await sm.close();
  });

  it("a refused key's error event says it was an auth failure, and of which provider (the host offers a key)", async () => {
    const sm = await fileSession(tmp.dir);
    const model = openAIModel(fake);
    const { agent, events } = newAgent(sm, { model });
    fake.enqueue({ status: 401, body: { error: { message: "Incorrect API key provided" } } });
    await agent.prompt("hi");
    const err = events.find((e): e is Extract<AgentEvent, { type: "error" }> => e.type === "error");
    assert.ok(err);
    assert.equal(err.errorKind, "auth");
    assert.equal(err.provider, model.provider);
    assert.match(err.error, /Authentication failed .*HTTP 401/);
    // The prompt and the failed reply stay, and the session answers the next prompt.
    assert.deepEqual(
      messages(sm.getEntries()).map((m) => m.role),
      ["user", "assistant"],
    );
    await agent.prompt("again");
    assert.equal(lastAssistant(sm.getEntries()).stopReason, "stop");
    await sm.close();
  });

  it("stops after maxTurns model calls", async () => {
    const looping = await startFakeOpenAI({
      defaultReply: () => ({ toolCalls: [{ name: "read", args: { path: "a" } }] }),
    });
    try {
      const sm = await fileSession(tmp.dir);
      const { agent, events } = newAgent(sm, {
        model: openAIModel(looping),
        tools: [fakeReadTool({ a: "a" })],
        maxTurns: 3,
      });
      await agent.prompt("loop");
      assert.equal(looping.requests.length, 3);
      assert.ok(events.some((e) => e.type === "error" && /Stopped after 3 model calls/.test(e.error)));
      await sm.close();
    } finally {
      await looping.close();
    }
  });

  it("refuses a second prompt while one runs, and an empty or model-less prompt", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.enqueue({ stall: true, text: "x" });
    let rejection: Promise<void> | undefined;
    agent.subscribe((e) => {
      if (e.type !== "message_update" || rejection) return;
      rejection = assert.rejects(agent.prompt("two"), /while a prompt is running/);
      agent.abort();
    });
    await agent.prompt("one");
    assert.ok(rejection);
    await rejection;
    await assert.rejects(agent.prompt("   "), /empty/);
    const { agent: noModel } = newAgent(sm);
    await assert.rejects(noModel.prompt("hi"), /No model selected/);
    await sm.close();
  });
});

describe("AgentSession prompt loop (Anthropic wire)", () => {
  it("streams text and runs a tool call through the Anthropic SDK", async () => {
    const fake = await startFakeAnthropic();
    const tmp = tempDir();
    try {
      const sm = await fileSession(tmp.dir);
      const { agent } = newAgent(sm, { model: anthropicModel(fake), tools: [fakeReadTool({ "b.md": "beta" })] });
      fake.enqueue({
        thinking: "Let me think.",
        text: "Reading b.md",
        toolCalls: [{ name: "read", args: { path: "b.md" } }],
      });
      await agent.prompt("what is in b.md?");
      const roles = messages(sm.getEntries()).map((m) => m.role);
      assert.deepEqual(roles, ["user", "assistant", "toolResult", "assistant"]);
      assert.match(JSON.stringify(lastAssistant(sm.getEntries()).content), /Tool result from read: beta/);
      await sm.close();
    } finally {
      await fake.close();
      tmp.cleanup();
    }
  });
});
