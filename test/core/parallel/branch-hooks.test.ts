/**
 * One AgentRun for every turn: a hook that guards `bash` guards it in the leaf's run, in a parallel branch working in
 * its copy's folder and in an explored branch, because every run calls the session's hooks. Real bash tools against
 * the fake model server through the real OpenAI SDK.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import type { HookEventMap } from "../../../src/core/hooks/hook-events.js";
import { runBranch } from "../../../src/core/parallel/branch-run.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { tempWorkspacePerTest } from "../checkpoints/helpers.js";
import { exploreFromTurn, sessionWithTurn } from "./helpers.js";

const fake = fakeServerForSuite();

/** A prompt naming MARK gets a bash call creating `marker.txt`; its result gets a final answer. */
function bashReplies(body: FakeRequestBody): FakeReply {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1);
  if (last?.role === "tool") return { text: `Result: ${JSON.stringify(last.content).slice(0, 200)}` };
  if (JSON.stringify(last?.content ?? "").includes("MARK"))
    return { toolCalls: [{ name: "bash", args: { command: "echo hi > marker.txt" } }] };
  return { text: "plain answer" };
}

/** The text of every tool result in the session's file, in order. */
function toolResults(sm: SessionManager): string[] {
  return sm
    .getEntries()
    .flatMap((e) =>
      e.type === "message" && e.message.role === "toolResult" ? [JSON.stringify(e.message.content)] : [],
    );
}

describe("hooks guard every run of a session", { timeout: 120_000 }, () => {
  const tmp = tempDirPerTest();

  it("a tool_call hook that blocks bash blocks a parallel branch's bash, in the branch's folder", async () => {
    const ws = path.join(tmp.dir, "ws");
    const copyDir = path.join(tmp.dir, "copy");
    fs.mkdirSync(ws);
    fs.mkdirSync(copyDir);
    const sm = await SessionManager.create(ws, path.join(tmp.dir, "sessions"));
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: createWorkspaceTools(ws) });
    fake.setDefault(bashReplies);
    await agent.prompt("hello");
    const seen: { event: HookEventMap["tool_call"]; cwd: string }[] = [];
    agent.hooks.on("tool_call", (event, ctx) => {
      seen.push({ event, cwd: ctx.cwd });
      return event.toolName === "bash" ? { block: true, reason: "no bash in this session" } : undefined;
    });

    const outcome = await runBranch({
      session: agent,
      parentId: sm.getLeafId(),
      prompt: "MARK: make the marker",
      model: openAIModel(fake),
      kind: "explore",
      groupId: "g",
      tools: createWorkspaceTools(copyDir),
      cwd: copyDir,
    });

    assert.equal(outcome.state, "done", outcome.error);
    assert.equal(fs.existsSync(path.join(copyDir, "marker.txt")), false, "the branch's bash did not run");
    assert.deepEqual(
      seen.map((s) => [s.event.toolName, s.event.input.command, s.cwd]),
      [["bash", "echo hi > marker.txt", copyDir]],
      "the hook saw the branch's call, in the branch's folder",
    );
    assert.match(toolResults(sm).join("\n"), /Blocked by a hook: no bash in this session/);

    // The same hook guards the leaf's own run.
    await agent.prompt("MARK: now on the main branch");
    assert.equal(fs.existsSync(path.join(ws, "marker.txt")), false, "the main agent's bash did not run either");
    assert.equal(seen.length, 2);
    assert.equal(seen[1].cwd, ws);
    await sm.close();
  });

  it("a branch's requests go through the session's context hooks, as the leaf's do", async () => {
    const sm = await SessionManager.create(tmp.dir, tmp.dir);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.setDefault(() => ({ text: "ok" }));
    await agent.prompt("hello");
    agent.hooks.on("context", (e) => ({
      messages: [...e.messages, { role: "user", content: "HOOK-ADDED", timestamp: Date.now() }],
    }));
    const before = fake.requests.length;
    const outcome = await runBranch({
      session: agent,
      parentId: sm.getLeafId(),
      prompt: "a branch question",
      model: openAIModel(fake),
      kind: "aside",
      groupId: "g",
      tools: [],
      cwd: tmp.dir,
    });
    assert.equal(outcome.state, "done", outcome.error);
    assert.match(JSON.stringify(fake.requests[before].messages), /HOOK-ADDED/, "the branch's request was changed");
    assert.doesNotMatch(JSON.stringify(sm.buildSessionContextAt(outcome.tipId ?? null)), /HOOK-ADDED/);
    await sm.close();
  });

  it("a tool_call hook may change a call's arguments in place; a call no handler blocks runs as changed", async () => {
    const ws = path.join(tmp.dir, "ws");
    fs.mkdirSync(ws);
    const sm = await SessionManager.create(ws, path.join(tmp.dir, "sessions"));
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: createWorkspaceTools(ws) });
    fake.setDefault(bashReplies);
    agent.hooks.on("tool_call", (event) => {
      if (event.toolName === "bash") event.input.command = "echo changed > changed.txt";
    });
    await agent.prompt("MARK: go");
    assert.equal(fs.existsSync(path.join(ws, "marker.txt")), false);
    assert.equal(fs.readFileSync(path.join(ws, "changed.txt"), "utf8"), "changed\n");
    await sm.close();
  });
});

describe("hooks guard explored branches", { timeout: 120_000 }, () => {
  const t = tempWorkspacePerTest();

  it("every branch of Explore in Parallel asks the session's tool_call hooks, in its own copy", async () => {
    const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
    fake.setDefault(bashReplies);
    const cwds: string[] = [];
    setup.agent.hooks.on("tool_call", (event, ctx) => {
      cwds.push(ctx.cwd);
      return event.toolName === "bash" ? { block: true, reason: "explored branches may not run bash" } : undefined;
    });
    const exploration = await exploreFromTurn(fake, t, setup, { count: 2, prompt: "MARK: explore" });
    const outcomes = await exploration.done;
    assert.deepEqual(
      outcomes.map((o) => o.state),
      ["done", "done"],
    );
    assert.deepEqual(
      [...cwds].sort(),
      exploration.branches.map((b) => b.copy.dir).sort(),
      "each branch asked once, from its copy",
    );
    for (const b of exploration.branches)
      assert.equal(fs.existsSync(path.join(b.copy.dir, "marker.txt")), false, "no branch's bash ran");
    assert.equal(toolResults(setup.sm).filter((r) => r.includes("Blocked by a hook")).length, 2);
    await setup.sm.close();
  });
});
