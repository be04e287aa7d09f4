/**
 * Plan mode (src/core/agent/plan-mode.ts): the tools the model is offered while it is on (the request to a fake
 * OpenAI server carries only the read-only ones), the instructions in the system prompt, Approve Plan, and the record:
 * a custom line on the branch, the mode derived from the path, per branch, after a reopen.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CARRY_OUT_PLAN_TEXT, PLAN_MODE_TYPE, planModeTools } from "../../../src/core/agent/plan-mode.js";
import { rowWords } from "../../../src/core/entries/row-words.js";
import { treeRowOf } from "../../../src/core/rows/tree-row.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { AgentTool } from "../../../src/core/tools/types.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { fileSession } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "./helpers.js";

/** The tool names a recorded OpenAI request offers. */
function toolNames(body: Record<string, unknown>): string[] {
  const tools = Array.isArray(body.tools) ? (body.tools as { function?: { name?: string } }[]) : [];
  return tools.map((t) => t.function?.name ?? "");
}

/** The text of the last user message of a recorded OpenAI request. */
function lastUserText(body: Record<string, unknown>): string {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.filter((m) => m.role === "user").at(-1);
  return typeof last?.content === "string" ? last.content : JSON.stringify(last?.content);
}

/** The plan-mode lines of a session, in file order. */
function planLines(sm: SessionManager): unknown[] {
  return sm.getEntries().flatMap((e) => (e.type === "custom" && e.customType === PLAN_MODE_TYPE ? [e.data] : []));
}

function tool(name: string, mutates: boolean, extra: Record<string, unknown> = {}): AgentTool {
  return {
    name,
    description: name,
    parameters: { type: "object", properties: {} },
    mutates,
    execute: async () => ({ content: [] }),
    ...extra,
  };
}

describe("plan mode", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("offers only read-only tools and says so in the system prompt; Approve Plan offers all and sends the carry-out message", async () => {
    const sm = await fileSession(tmp.dir);
    // The workspace's own tools (write, edit and bash among them).
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined, systemPrompt: "You are a test." });
    assert.ok(agent.getTools().some((t) => t.name === "write"));
    agent.setPlanMode(true);
    assert.equal(agent.getPlanMode(), true);
    assert.deepEqual(
      agent.getTools().map((t) => t.name),
      ["read", "grep", "find", "ls", "todo", "web_fetch"],
    );
    fake.enqueue({ text: "The plan: 1. add the parser. 2. test it." });
    await agent.prompt("Plan the parser");
    const planning = fake.requests[0];
    assert.deepEqual(toolNames(planning), ["read", "grep", "find", "ls", "todo", "web_fetch"]);
    assert.match(JSON.stringify(planning.messages), /Plan mode is on/);
    assert.match(await agent.previewSystemPrompt(), /<plan_mode>/);

    fake.enqueue({ text: "Done." });
    await agent.approvePlan();
    assert.equal(agent.getPlanMode(), false);
    const carrying = fake.requests[1];
    for (const name of ["write", "edit", "bash"]) assert.ok(toolNames(carrying).includes(name), `${name} offered`);
    assert.equal(lastUserText(carrying), CARRY_OUT_PLAN_TEXT);
    assert.doesNotMatch(
      JSON.stringify((carrying.messages as unknown[])[0]),
      /Plan mode is on/,
      "the instructions are gone",
    );
    assert.deepEqual(planLines(sm), [{ enabled: true }, { enabled: false }]);
    await assert.rejects(agent.approvePlan(), /Plan mode is off/);
    assert.equal(planLines(sm).length, 2, "a refused approval records nothing");
    await sm.close();
  });

  it("is recorded on the branch: each branch has its own mode, a reopen and pi-style readers see it", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined });
    fake.enqueue({ text: "hello" });
    await agent.prompt("start");
    const fork = sm.getLeafId();
    assert.ok(fork);
    agent.setPlanMode(true);
    agent.setPlanMode(true);
    assert.equal(planLines(sm).length, 1, "turning it on again writes nothing");
    assert.deepEqual(agent.getPlanModeState(), { enabled: true }, "the answer before plan mode is no plan");
    fake.enqueue({ text: "a plan" });
    await agent.prompt("plan it");
    const planned = sm.getLeafId();
    assert.ok(planned);
    assert.deepEqual(agent.getPlanModeState(), { enabled: true, planId: planned }, "the answer in plan mode is");
    // The other branch, from before plan mode was turned on: off there.
    await agent.navigateTree(fork);
    assert.equal(agent.getPlanMode(), false);
    fake.enqueue({ text: "direct answer" });
    await agent.prompt("just do it");
    assert.ok(toolNames(fake.requests[2]).includes("write"), "the other branch offers write");
    await agent.navigateTree(planned);
    assert.equal(agent.getPlanMode(), true, "back on the planned branch: on again");
    fake.enqueue({ text: "more plan" });
    await agent.prompt("go on planning");
    assert.equal(toolNames(fake.requests[3]).includes("write"), false, "the planned branch does not");
    // Its row reads as what it does.
    const line = sm.getEnvelopes().find((e) => e.type === "custom" && e.preview.startsWith(PLAN_MODE_TYPE));
    assert.ok(line);
    assert.deepEqual(rowWords(treeRowOf(line)), { role: "[plan mode]", text: "on" });
    // pi's context has no trace of it (custom entries are left out).
    assert.equal(
      sm.buildSessionContext().messages.some((m) => JSON.stringify(m).includes(PLAN_MODE_TYPE)),
      false,
    );
    const file = sm.getSessionFile();
    assert.ok(file);
    await sm.close();
    const reopened = await SessionManager.open(file, { readOnly: true });
    const again = newAgent(reopened, { model: openAIModel(fake) }).agent;
    assert.equal(again.getPlanMode(), true, "the reopened file is in plan mode at its leaf");
    await reopened.close();
  });

  it("takes the newest valid line of the path; a damaged line is passed over", async () => {
    const sm = await fileSession(tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    agent.setPlanMode(true);
    sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: "no" });
    assert.equal(agent.getPlanMode(), true);
    const off = sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: false });
    assert.equal(agent.getPlanMode(), false);
    const env = sm.getEnvelope(off);
    assert.ok(env);
    assert.deepEqual(rowWords(treeRowOf(env)), { role: "[plan mode]", text: "off" });
    await sm.close();
  });

  it("keeps tools that change nothing, an MCP server's read-only tools and web_fetch", () => {
    const tools = [
      tool("read", false),
      tool("write", true),
      tool("bash", true),
      tool("mcp__db__query", true, { readOnly: true }),
      tool("mcp__db__drop", true, { readOnly: false }),
      tool("web_fetch", true),
    ];
    assert.deepEqual(
      planModeTools(tools).map((t) => t.name),
      ["read", "mcp__db__query", "web_fetch"],
    );
  });
});
