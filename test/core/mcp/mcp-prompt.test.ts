/**
 * The system prompt lists the MCP tools a prompt is offered: the real `openai` client against the fake model
 * server, an AgentSession with the workspace prompt provider and a pool running the fixture server. The tools are
 * recorded in the `system` entry as pi records its loadout, so a server leaving or joining is a patch with the
 * tools removed or added and the changed tools section.
 */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { SessionManager, workspacePromptProvider } from "../../../src/core/index.js";
import { currentSystemMessage } from "../../../src/core/messages.js";
import { McpPool } from "../../../src/core/mcp/mcp-pool.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { fixtureConfig } from "../../util/mcp-fixture.js";
import { instructionWorkspace, newAgent, openAIModel, sentPrompt, systemEntries } from "../agent/helpers.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

/** The fixture server's tools (test/fixtures/mcp/fixture-server.mjs) as the model sees them. */
const FIXTURE_TOOLS = [
  "echo",
  "fail",
  "hang",
  "image",
  "crash",
  "garbage",
  "malformed",
  "env",
  "pid",
  "big",
  "picture",
].map((t) => `mcp__fx__${t}`);

const pools: McpPool[] = [];
after(async () => {
  await Promise.all(pools.map((p) => p.dispose()));
});

/** The names of the tools an OpenAI request body offers. */
function offered(body: Record<string, unknown>): string[] {
  return ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

const sorted = (names: readonly string[]): string[] => [...names].sort();

describe("the system prompt lists the MCP tools", { timeout: 120_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  const setup = async (): Promise<{ sm: SessionManager; pool: McpPool; agent: ReturnType<typeof newAgent> }> => {
    const { ws, sm, loader } = await instructionWorkspace(tmp.dir);
    // A long wait for the first start: a loaded machine must not make the first prompt go without the server.
    const pool = new McpPool({
      cwd: ws,
      loadConfig: () => ({ servers: [fixtureConfig("fx")], issues: [] }),
      promptWaitMs: 60_000,
    });
    pools.push(pool);
    const agent = newAgent(sm, {
      model: openAIModel(fake),
      systemPrompt: workspacePromptProvider({ loader }),
      tools: undefined, // the session's own built-in tools, then the pool's
      toolSource: pool,
    });
    return { sm, pool, agent };
  };

  it("the first request's prompt lists mcp__<server>__<tool>, declared in the system entry before the message", async () => {
    const {
      sm,
      agent: { agent, events },
    } = await setup();
    await agent.prompt("hello");

    const sent = sentPrompt(fake.requests[0]);
    assert.ok(
      sent.includes("- mcp__fx__echo: Echo the given text back."),
      `the tools section lists the echo tool:\n${sent}`,
    );
    for (const name of FIXTURE_TOOLS) assert.ok(sent.includes(`- ${name}: `), `the prompt lists ${name}`);
    assert.ok(sent.includes("- read: "), "the built-in tools are still listed");
    assert.deepEqual(sorted(offered(fake.requests[0]).filter((n) => n.startsWith("mcp__"))), sorted(FIXTURE_TOOLS));

    const roles = sm.getEntries().flatMap((e) => (e.type === "message" ? [e.message.role] : []));
    assert.deepEqual(roles, ["system", "user", "assistant"]);
    const [recorded] = systemEntries(sm);
    const echo = recorded.toolsAdded?.find((t) => t.name === "mcp__fx__echo");
    assert.deepEqual(echo?.parameters, {
      type: "object",
      properties: { text: { type: "string", description: "What to echo" } },
      required: ["text"],
    });
    assert.deepEqual(
      sorted(recorded.toolsAdded?.map((t) => t.name) ?? []),
      sorted(offered(fake.requests[0])),
      "the declared tools are the ones offered",
    );

    // The user's message shows before the prompt's patch is recorded (which waited for the server).
    const userShown = events.findIndex((e) => e.type === "message_start" && e.message.role === "user");
    const systemRecorded = events.findIndex((e) => e.type === "message_end" && e.message.role === "system");
    assert.ok(userShown >= 0 && userShown < systemRecorded, "message_start of the user's message comes first");
    await sm.close();
  });

  it("a server leaving and joining again is recorded as a patch: tools removed, then added, and the tools section", async () => {
    const {
      sm,
      pool,
      agent: { agent },
    } = await setup();
    await agent.prompt("first");
    const builtIn = offered(fake.requests[0]).filter((n) => !n.startsWith("mcp__"));

    await pool.setEnabled("fx", false);
    await agent.prompt("second");
    const left = systemEntries(sm)[1];
    assert.ok(left, "a second system entry is recorded when the server's tools are gone");
    assert.equal(left.toolsAdded, undefined, "nothing added");
    assert.deepEqual(sorted(left.toolsRemoved?.map((t) => t.name) ?? []), sorted(FIXTURE_TOOLS));
    assert.ok(typeof left.sections?.tools === "string", "the tools section is patched");
    const withoutMcp = sentPrompt(fake.requests[1]);
    assert.ok(!withoutMcp.includes("mcp__fx__"), "the prompt no longer lists the server's tools");
    assert.deepEqual(offered(fake.requests[1]), builtIn);

    await pool.setEnabled("fx", true);
    await agent.prompt("third");
    const joined = systemEntries(sm)[2];
    assert.ok(joined, "a third system entry is recorded when the server is back");
    assert.equal(joined.toolsRemoved, undefined, "nothing removed");
    assert.deepEqual(sorted(joined.toolsAdded?.map((t) => t.name) ?? []), sorted(FIXTURE_TOOLS), "only the MCP tools");
    assert.ok(sentPrompt(fake.requests[2]).includes("- mcp__fx__echo: "), "listed again");
    assert.equal(sentPrompt(fake.requests[2]), sentPrompt(fake.requests[0]), "the same prompt as the first");

    const replayed = currentSystemMessage(sm.getEntries().flatMap((e) => (e.type === "message" ? [e.message] : [])));
    assert.deepEqual(
      sorted(replayed?.toolsAdded?.map((t) => t.name) ?? []),
      sorted(offered(fake.requests[2])),
      "the replayed loadout is the tools offered",
    );

    await agent.prompt("fourth");
    assert.equal(systemEntries(sm).length, 3, "nothing changed: nothing recorded");
    await sm.close();
  });
});
