/**
 * A full chat turn with MCP tools: the real `openai` client against the fake model server, an AgentSession whose
 * tool source is a pool running the fixture server. The model is offered the MCP tools, calls one, and gets its
 * result; approval, abort and the session file are checked on the way.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import type { AgentEvent } from "../../../src/core/agent/events.js";
import type { ToolResultMessage } from "../../../src/core/messages.js";
import { McpPool } from "../../../src/core/mcp/mcp-pool.js";
import type { McpServerConfig } from "../../../src/core/mcp/mcp-config.js";
import type { SessionEntry } from "../../../src/core/session/types.js";
import type { ToolApprovalRequest } from "../../../src/core/tools/types.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { alive, fixtureConfig } from "../../util/mcp-fixture.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { fileSession } from "../../util/session-builder.js";

const pools: McpPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.dispose()));
});

function newPool(servers: McpServerConfig[] = [fixtureConfig("fx")]): McpPool {
  const p = new McpPool({ cwd: process.cwd(), loadConfig: () => ({ servers, issues: [] }) });
  pools.push(p);
  return p;
}

function toolResults(entries: SessionEntry[]): ToolResultMessage[] {
  return entries.flatMap((e) =>
    e.type === "message" && e.message.role === "toolResult" ? [e.message as ToolResultMessage] : [],
  );
}

function offered(body: Record<string, unknown>): { name: string; parameters: unknown }[] {
  const tools = (body.tools ?? []) as { function: { name: string; parameters: unknown } }[];
  return tools.map((t) => ({ name: t.function.name, parameters: t.function.parameters }));
}

describe("a chat turn with MCP tools (OpenAI wire)", { timeout: 120_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("offers the MCP tools with their schemas, runs the call after approval and sends the result back", async () => {
    const sm = await fileSession(tmp.dir);
    const pool = newPool();
    const approvals: ToolApprovalRequest[] = [];
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      toolSource: pool,
      approve: async (r) => {
        approvals.push(r);
        return { approved: true };
      },
    });
    assert.deepEqual(pool.pids(), [], "no server before the first prompt");
    fake.enqueue({
      text: "Echoing.",
      toolCalls: [{ name: "mcp__fx__echo", args: { text: "from the model" }, id: "c1" }],
    });
    await agent.prompt("use the echo tool");

    const first = offered(fake.requests[0]);
    const echo = first.find((t) => t.name === "mcp__fx__echo");
    assert.ok(echo, `the request offers the MCP tool (offered: ${first.map((t) => t.name).join(", ")})`);
    assert.deepEqual(echo.parameters, {
      type: "object",
      properties: { text: { type: "string", description: "What to echo" } },
      required: ["text"],
    });
    assert.deepEqual(
      approvals.map((a) => [a.toolName, a.args]),
      [["mcp__fx__echo", { text: "from the model" }]],
    );
    const [result] = toolResults(sm.getEntries());
    assert.equal(result.toolName, "mcp__fx__echo");
    assert.equal(result.isError, false);
    assert.deepEqual(result.content, [{ type: "text", text: "echo: from the model" }]);
    assert.deepEqual(result.details, { server: "fx", tool: "echo" });
    assert.match(JSON.stringify(fake.requests[1].messages), /echo: from the model/);
    assert.ok(
      agent.getTools().some((t) => t.name === "mcp__fx__echo"),
      "getTools lists the running server's tools",
    );
    await sm.close();
  });

  it("a refused MCP call does not run and the model is told", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      toolSource: newPool(),
      approve: async () => ({ approved: false, reason: "not now" }),
    });
    fake.enqueue({ toolCalls: [{ name: "mcp__fx__crash", args: {}, id: "c1" }] });
    await agent.prompt("crash it");
    const [result] = toolResults(sm.getEntries());
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: "text", text: "Refused by user: not now" }]);
    // The refused crash did not run: the server still answers.
    fake.enqueue({ toolCalls: [{ name: "mcp__fx__echo", args: { text: "still here" }, id: "c2" }] });
    const { agent: again } = newAgent(sm, { model: openAIModel(fake), toolSource: pools.at(-1) });
    await again.prompt("echo");
    assert.match(JSON.stringify(toolResults(sm.getEntries()).at(-1)?.content), /echo: still here/);
    await sm.close();
  });

  it("an image result is stored as an image block and sent to the model", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake), toolSource: newPool() });
    fake.enqueue({ toolCalls: [{ name: "mcp__fx__image", args: {}, id: "c1" }] });
    await agent.prompt("show me");
    const [result] = toolResults(sm.getEntries());
    assert.equal(result.content[0].type, "image");
    assert.deepEqual(result.content[1], { type: "text", text: "notes text" });
    assert.match(JSON.stringify(fake.requests[1].messages), /data:image\/png;base64|image_url/);
    await sm.close();
  });

  it("an MCP error or timeout reaches the model as an error result and the turn goes on", async () => {
    const sm = await fileSession(tmp.dir);
    const pool = new McpPool({
      cwd: process.cwd(),
      loadConfig: () => ({ servers: [fixtureConfig("fx")], issues: [] }),
      callTimeoutMs: () => 300,
    });
    pools.push(pool);
    const { agent } = newAgent(sm, { model: openAIModel(fake), toolSource: pool });
    fake.enqueue({
      toolCalls: [
        { name: "mcp__fx__fail", args: { message: "page not found" }, id: "c1" },
        { name: "mcp__fx__hang", args: {}, id: "c2" },
      ],
    });
    await agent.prompt("try both");
    const results = toolResults(sm.getEntries());
    assert.equal(results.length, 2);
    assert.equal(results[0].isError, true);
    assert.deepEqual(results[0].content, [{ type: "text", text: "page not found" }]);
    assert.equal(results[1].isError, true);
    assert.match(JSON.stringify(results[1].content), /MCP tool fx\/hang did not answer within .* and was cancelled/);
    assert.equal(fake.requests.length, 2, "the model got both results");
    await sm.close();
  });

  it("abort stops a running MCP call; the result says Aborted", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent, events } = newAgent(sm, { model: openAIModel(fake), toolSource: newPool() });
    agent.subscribe((e: AgentEvent) => {
      if (e.type === "tool_execution_start") setTimeout(() => agent.abort(), 100);
    });
    fake.enqueue({ toolCalls: [{ name: "mcp__fx__hang", args: {}, id: "c1" }] });
    const started = Date.now();
    await agent.prompt("hang");
    assert.ok(Date.now() - started < 20_000);
    const [result] = toolResults(sm.getEntries());
    assert.deepEqual(result.content, [{ type: "text", text: "Aborted" }]);
    assert.equal(events.at(-1)?.type, "agent_end");
    await sm.close();
  });

  it("a server that died is reported, its tools leave the next request, and the session goes on", async () => {
    const sm = await fileSession(tmp.dir);
    const reports: string[] = [];
    const pool = new McpPool({
      cwd: process.cwd(),
      loadConfig: () => ({ servers: [fixtureConfig("fx"), fixtureConfig("other")], issues: [] }),
      onReport: (r) => reports.push(r.message),
    });
    pools.push(pool);
    const { agent } = newAgent(sm, { model: openAIModel(fake), toolSource: pool });
    fake.enqueue({ toolCalls: [{ name: "mcp__fx__crash", args: {}, id: "c1" }] });
    await agent.prompt("crash");
    assert.match(
      JSON.stringify(toolResults(sm.getEntries())[0].content),
      /MCP server \\"fx\\": it stopped unexpectedly/,
    );
    assert.equal(reports.length, 1);
    await agent.prompt("hello again");
    const names = offered(fake.requests.at(-1) ?? {}).map((t) => t.name);
    assert.ok(!names.some((n) => n.startsWith("mcp__fx__")), "the dead server's tools are not offered");
    assert.ok(names.includes("mcp__other__echo"), "the other server's are");
    await sm.close();
  });

  it("no server process is left after the session and the pool close", async () => {
    const sm = await fileSession(tmp.dir);
    const pool = newPool([fixtureConfig("a"), fixtureConfig("b")]);
    const { agent } = newAgent(sm, { model: openAIModel(fake), toolSource: pool });
    await agent.prompt("hello");
    const pids = pool.pids();
    assert.equal(pids.length, 2);
    agent.dispose();
    await sm.close();
    await pool.dispose();
    assert.deepEqual(pids.filter(alive), []);
  });
});
