/**
 * Toggle Plan Mode, `/plan <task>` and Approve Plan through the host (src/host/chat/plan-mode-actions.ts): the chat's
 * snapshot says plan mode is on for the branch that has it, and Approve Plan sends the carry-out message with all tools.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { CARRY_OUT_PLAN_TEXT } from "../../src/core/agent/plan-mode.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import type { AgentTool } from "../../src/core/tools/types.js";
import { PLAN_MODE_OFF_TEXT, PLAN_MODE_ON_TEXT, PlanModeActions } from "../../src/host/chat/plan-mode-actions.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { user } from "../util/session-builder.js";
import { createHarness, ofType, type Harness } from "./controller-harness.js";

const fake = fakeServerForSuite();

function tool(name: string, mutates: boolean): AgentTool {
  return {
    name,
    description: name,
    parameters: { type: "object", properties: {} },
    mutates,
    execute: async () => ({ content: [{ type: "text", text: "ok" }] }),
  };
}

function setUp(h: Harness): { actions: PlanModeActions; said: string[]; sent: string[] } {
  const said: string[] = [];
  const sent: string[] = [];
  const actions = new PlanModeActions({
    controller: h.controller,
    notify: {
      status: (text) => void said.push(text),
      info: (text) => void said.push(text),
      error: (what, e) => void said.push(`${what}: ${e instanceof Error ? e.message : String(e)}`),
    },
    send: async (text) => void sent.push(text),
  });
  return { actions, said, sent };
}

function toolNames(body: Record<string, unknown>): string[] {
  return ((body.tools ?? []) as { function: { name: string } }[]).map((t) => t.function.name);
}

describe("plan mode in the host", { timeout: 60_000 }, () => {
  test("the toggle records the mode and the snapshot says it; another branch's snapshot does not", async () => {
    const sm = SessionManager.inMemory("/w");
    const start = sm.appendMessage(user("start"));
    const h = createHarness();
    await h.controller.attach(sm);
    const { actions, said } = setUp(h);
    const last = () => ofType(h.chat, "chat/snapshot").at(-1);
    assert.equal(last()?.planMode, undefined);
    await actions.toggle();
    assert.equal(last()?.planMode, true);
    assert.equal(said.at(-1), PLAN_MODE_ON_TEXT);
    const planned = sm.getLeafId();
    assert.ok(planned);
    sm.branch(start);
    h.controller.pushChat();
    assert.equal(last()?.planMode, undefined, "the branch from before it was turned on");
    sm.branch(planned);
    h.controller.pushChat();
    assert.equal(last()?.planMode, true);
    await actions.toggle();
    assert.equal(last()?.planMode, undefined);
    assert.equal(said.at(-1), PLAN_MODE_OFF_TEXT);
  });

  test("/plan <task> turns plan mode on (not off) and sends the task", async () => {
    const sm = SessionManager.inMemory("/w");
    const h = createHarness();
    await h.controller.attach(sm);
    const { actions, sent } = setUp(h);
    await actions.toggle("add a cache");
    await actions.toggle("and test it");
    assert.equal(h.controller.agent?.getPlanMode(), true);
    assert.deepEqual(sent, ["add a cache", "and test it"]);
  });

  test("Approve Plan: the next request offers write and carries the carry-out message; plan mode is off", async () => {
    const h = createHarness({ fakeBaseURL: fake.baseURL, tools: [tool("read", false), tool("write", true)] });
    await h.controller.attach(SessionManager.inMemory("/w"));
    const { actions, said } = setUp(h);
    await actions.approve();
    assert.match(said.at(-1) ?? "", /Cannot approve the plan: Plan mode is off/);
    await actions.toggle();
    const agent = h.controller.agent;
    assert.ok(agent);
    fake.enqueue({ text: "1. Write the file." }, { text: "Written." });
    await agent.prompt("plan the file");
    assert.deepEqual(toolNames(fake.requests[0]), ["read"]);
    const plan = ofType(h.chat, "chat/snapshot").at(-1);
    assert.equal(plan?.planId, h.controller.sessionManager?.getLeafId(), "the plan is offered for approval");
    await actions.approve();
    assert.deepEqual(toolNames(fake.requests[1]), ["read", "write"]);
    const messages = fake.requests[1].messages as { role: string; content: unknown }[];
    assert.equal(messages.at(-1)?.content, CARRY_OUT_PLAN_TEXT);
    assert.equal(agent.getPlanMode(), false);
    const after = ofType(h.chat, "chat/snapshot").at(-1);
    assert.equal(after?.planMode, undefined);
    assert.equal(after?.planId, undefined);
  });
});
