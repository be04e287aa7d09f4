/**
 * The state a chat update asks of the leaf — the thinking level and model (SessionManager.getLeafSettings), plan mode
 * (AgentSession.getPlanModeState) and the todo list (todoListIn) — is kept per entry by the store's index, so after a
 * move only the changed part of the path is read. These tests check it never goes stale: after moves between branches
 * that differ, and after appends that change it, every answer equals the one a walk of the whole path gives.
 */
import assert from "node:assert/strict";
import { before, describe, it } from "node:test";
import { PLAN_MODE_TYPE, planModeState } from "../../../src/core/agent/plan-mode.js";
import type { ModelRegistry } from "../../../src/core/providers/model-registry.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { todoListIn, todoListOnPath, type TodoItem } from "../../../src/core/tools/todo-list.js";
import type { AgentSession } from "../../../src/core/agent/agent-session.js";
import { assistant, user } from "../../util/session-builder.js";
import { readyTestModels } from "../../util/test-models.js";
import { newAgent } from "./helpers.js";

/** An assistant message calling `todo` with one task named `task`. */
function todoCall(task: string, status = "pending"): ReturnType<typeof assistant> {
  return assistant("", [{ id: `call_${task}`, name: "todo", args: { todos: [{ content: task, status }] } }]);
}

interface LeafState {
  thinkingLevel: string;
  model?: { provider: string; modelId: string };
  planMode: { enabled: boolean; planId?: string };
  todos?: TodoItem[];
}

/** What the kept answers say at the leaf. */
function kept(sm: SessionManager, agent: AgentSession): LeafState {
  const settings = sm.getLeafSettings();
  assert.equal(agent.getThinkingLevel(), settings.thinkingLevel);
  const state: LeafState = { thinkingLevel: settings.thinkingLevel, planMode: agent.getPlanModeState() };
  if (settings.model) state.model = settings.model;
  const todos = todoListIn(sm);
  if (todos) state.todos = todos;
  return state;
}

/** The same, from a walk of the whole path (no answer kept). */
function walked(sm: SessionManager): LeafState {
  const context = sm.buildSessionContext();
  const path = { envelopes: sm.getPathEnvelopes(), entry: (id: string) => sm.getEntry(id) };
  const state: LeafState = { thinkingLevel: context.thinkingLevel, planMode: planModeState(path) };
  if (context.model) state.model = context.model;
  const todos = todoListOnPath(path);
  if (todos) state.todos = todos;
  return state;
}

/** A small seeded random generator (mulberry32), so a failing walk can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("the leaf's state kept per entry", () => {
  let models: ModelRegistry;
  before(async () => {
    models = await readyTestModels();
  });

  it("follows a move to a branch with another thinking level, plan mode and todo list, and appends that change them", () => {
    const sm = SessionManager.inMemory("/tmp");
    const { agent } = newAgent(sm, { modelRegistry: models });
    sm.appendMessage(user("start"));
    sm.appendThinkingLevelChange("low");
    sm.appendMessage(todoCall("shared"));
    const fork = sm.getLeafId() as string;
    // Branch X: another level, plan mode on with an answer (the plan), another list.
    sm.appendThinkingLevelChange("high");
    sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: true });
    sm.appendMessage(todoCall("x"));
    const plan = sm.appendMessage(assistant("The plan."));
    // Branch Y: nothing of that.
    sm.branch(fork);
    const y = sm.appendMessage(user("other way"));

    sm.branch(plan);
    assert.deepEqual(kept(sm, agent), {
      thinkingLevel: "high",
      model: { provider: "anthropic", modelId: "claude-test" },
      planMode: { enabled: true, planId: plan },
      todos: [{ content: "x", status: "pending" }],
    });
    sm.branch(y);
    assert.deepEqual(kept(sm, agent), {
      thinkingLevel: "low",
      model: { provider: "anthropic", modelId: "claude-test" },
      planMode: { enabled: false },
      todos: [{ content: "shared", status: "pending" }],
    });
    sm.branch(plan);
    assert.equal(agent.getThinkingLevel(), "high", "back on X: its level again");
    assert.deepEqual(agent.getPlanModeState(), { enabled: true, planId: plan });

    // Appends at the leaf change each of them.
    sm.appendThinkingLevelChange("medium");
    assert.equal(agent.getThinkingLevel(), "medium");
    sm.appendMessage(user("and now?"));
    assert.deepEqual(agent.getPlanModeState(), { enabled: true }, "a newer message: no plan to approve");
    agent.setPlanMode(false);
    assert.deepEqual(agent.getPlanModeState(), { enabled: false });
    sm.appendMessage(todoCall("x2", "in_progress"));
    sm.appendModelChange("openai", "gpt-test");
    assert.deepEqual(kept(sm, agent), {
      thinkingLevel: "medium",
      model: { provider: "openai", modelId: "gpt-test" },
      planMode: { enabled: false },
      todos: [{ content: "x2", status: "in_progress" }],
    });
    // Y kept its own.
    sm.branch(y);
    assert.deepEqual(kept(sm, agent), walked(sm));
    assert.equal(agent.getThinkingLevel(), "low");
    // An append on Y below the fork, after X's answers were kept for the shared part.
    sm.appendThinkingLevelChange("xhigh");
    sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: true });
    assert.deepEqual(kept(sm, agent), { ...walked(sm), thinkingLevel: "xhigh", planMode: { enabled: true } });
  });

  it("equals a walk of the whole path after every move and append of a random walk over a branching session", () => {
    const next = random(35);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
    const sm = SessionManager.inMemory("/tmp");
    const { agent } = newAgent(sm, { modelRegistry: models });
    const ids: string[] = [sm.appendMessage(user("root"))];
    const appends: (() => string)[] = [
      () => sm.appendMessage(user("u")),
      () => sm.appendMessage(assistant("an answer")),
      () => sm.appendMessage(assistant("", ["read"])),
      () => sm.appendMessage(assistant("failed", [], "error")),
      () => sm.appendThinkingLevelChange(pick(["off", "low", "high"])),
      () => sm.appendModelChange(pick(["openai", "anthropic"]), pick(["m1", "m2"])),
      () => sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: next() < 0.6 }),
      // Not a valid plan-mode line: passed over.
      () => sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: "yes" }),
      () => sm.appendMessage(todoCall(`t${ids.length}`)),
      // Not a valid list: passed over.
      () => sm.appendMessage(assistant("", [{ id: "bad", name: "todo", args: { todos: "none" } }])),
      // A todo call after another call in one message.
      () =>
        sm.appendMessage(
          assistant("", [
            { id: "r", name: "read", args: {} },
            { id: "t", name: "todo", args: { todos: [{ content: "both", status: "completed" }] } },
          ]),
        ),
    ];
    let checks = 0;
    for (let step = 0; step < 400; step++) {
      if (next() < 0.35) sm.branch(pick(ids));
      else ids.push(pick(appends)());
      assert.deepEqual(kept(sm, agent), walked(sm), `step ${step} at ${sm.getLeafId()}`);
      checks++;
    }
    assert.equal(checks, 400);
  });
});
