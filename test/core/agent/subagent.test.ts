/**
 * The `subagent` tool: a fresh agent on the same session as a branch off the call's entry, its answer the call's
 * result, several at once (bounded), stopped with its parent or alone, read-only tools when asked.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import type { SessionWork } from "../../../src/core/agent/session-runs.js";
import type { SubagentDetails } from "../../../src/core/agent/subagent-tool.js";
import { TurnCheckpoints, WorkspaceCheckpoints, findCheckpointForEntry } from "../../../src/core/checkpoints/index.js";
import type { AgentMessage, ToolResultMessage } from "../../../src/core/messages.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "./helpers.js";
import { firstUserText, lastRole, parentAndSubagents, toolNames } from "./subagent-helpers.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

async function workspaceSession(): Promise<{ ws: string; sm: SessionManager }> {
  const ws = path.join(tmp.dir, "ws");
  fs.mkdirSync(ws, { recursive: true });
  fs.writeFileSync(path.join(ws, "notes.txt"), "the answer is 42\n");
  const sm = await SessionManager.create(ws, path.join(tmp.dir, "sessions"));
  return { ws, sm };
}

function messageOf(sm: SessionManager, id: string): AgentMessage {
  const entry = sm.getEntry(id);
  if (entry?.type !== "message") throw new Error(`${id} is not a message entry`);
  return entry.message;
}

function resultText(m: AgentMessage): string {
  assert.equal(m.role, "toolResult");
  return (m as ToolResultMessage).content.map((c) => (c.type === "text" ? c.text : "")).join("");
}

/** The children of `id` that are user messages (the subagents' first entries), in file order. */
function userChildren(sm: SessionManager, id: string): string[] {
  return sm.getChildIds(id).filter((c) => sm.getEnvelope(c)?.role === "user");
}

describe("subagent tool", { timeout: 60_000 }, () => {
  it("runs a branch off the call's entry with its own context, and returns its answer with the branch's ids", async () => {
    const { sm } = await workspaceSession();
    const seen: { leaf: string | null; work: SessionWork | undefined; busy: SessionWork | undefined }[] = [];
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined, subagents: {} });
    const script = parentAndSubagents({ calls: [{ prompt: "SUB find the answer", readOnly: true }] });
    fake.setDefault((body) => {
      if (firstUserText(body).startsWith("SUB") && lastRole(body) === "user") {
        const work = agent.runs.offLeaf()[0];
        seen.push({
          leaf: sm.getLeafId(),
          work,
          busy: work?.firstEntryId ? agent.busyAt(work.firstEntryId) : undefined,
        });
      }
      return script(body);
    });
    await agent.prompt("PARENT please delegate");

    const path = sm.getPathEnvelopes(sm.getLeafId() as string).filter((e) => e.type === "message");
    assert.deepEqual(
      path.map((e) => e.role),
      ["user", "assistant", "toolResult", "assistant"],
      "the leaf's path: prompt, the call, its result, the answer",
    );
    const callId = path[1].id;
    const [subFirst] = userChildren(sm, callId);
    assert.ok(subFirst, "the subagent's branch hangs off the call's entry");
    assert.equal(sm.getEnvelope(subFirst)?.parentId, callId);
    assert.equal(messageOf(sm, subFirst).role, "user");
    const subAnswer = sm.getChildIds(subFirst).find((c) => sm.getEnvelope(c)?.role === "assistant");
    assert.ok(subAnswer, "the subagent's answer is under its prompt");
    assert.equal(sm.getEnvelope(path[2].id)?.parentId, callId, "the result is the call's other child");

    const text = resultText(messageOf(sm, path[2].id));
    assert.match(text, /sub answer: SUB find the answer/);
    assert.ok(text.includes(subFirst) && text.includes(subAnswer), "the result names the branch's entries");
    const details = (messageOf(sm, path[2].id) as ToolResultMessage).details as SubagentDetails;
    assert.deepEqual([details.state, details.branchId, details.tipId], ["done", subFirst, subAnswer]);

    const subRequest = fake.requests.find((b) => firstUserText(b).startsWith("SUB"));
    assert.ok(subRequest);
    assert.ok(!JSON.stringify(subRequest.messages).includes("please delegate"), "not the parent's conversation");
    assert.deepEqual(seen.length, 1);
    assert.equal(seen[0].leaf, callId, "the leaf stays on the call while the subagent runs");
    assert.equal(seen[0].work?.label, "Subagent 1");
    assert.equal(seen[0].work?.run?.kind, "subagent");
    assert.equal(seen[0].busy, seen[0].work, "busyAt its branch is the subagent");
    assert.equal(agent.runs.list().length, 0, "nothing registered after the end");
    await sm.close();
  });

  it("offers only the read-only tools when readOnly, the workspace's without subagent otherwise", async () => {
    const { sm } = await workspaceSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined, subagents: {} });
    fake.setDefault(
      parentAndSubagents({ calls: [{ prompt: "SUB reader", readOnly: true }, { prompt: "SUB writer" }] }),
    );
    await agent.prompt("PARENT two kinds");
    const toolsOf = (prompt: string): string[] =>
      toolNames(fake.requests.find((b) => firstUserText(b) === prompt) ?? {}).sort();
    assert.ok(toolNames(fake.requests[0]).includes("subagent"), "the parent is offered subagent");
    assert.deepEqual(toolsOf("SUB reader"), ["find", "grep", "ls", "read", "todo", "web_fetch"]);
    assert.deepEqual(toolsOf("SUB writer"), [
      "bash",
      "edit",
      "find",
      "grep",
      "ls",
      "read",
      "todo",
      "web_fetch",
      "write",
    ]);
    await sm.close();
  });

  it("in plan mode a subagent only reads, whatever it was asked", async () => {
    const { sm } = await workspaceSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined, subagents: {} });
    agent.setPlanMode(true);
    fake.setDefault(parentAndSubagents({ calls: [{ prompt: "SUB plan writer", readOnly: false }] }));
    await agent.prompt("PARENT plan it");
    assert.ok(toolNames(fake.requests[0]).includes("subagent"), "plan mode offers subagent");
    const sub = fake.requests.find((b) => firstUserText(b) === "SUB plan writer");
    assert.deepEqual(toolNames(sub ?? {}).sort(), ["find", "grep", "ls", "read", "todo", "web_fetch"]);
    await sm.close();
  });

  it("runs two subagents at once, each on its own branch, results in call order", async () => {
    const { sm } = await workspaceSession();
    let most = 0;
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined, subagents: {} });
    const script = parentAndSubagents({
      calls: [
        { prompt: "SUB one", readOnly: true },
        { prompt: "SUB two", readOnly: true },
      ],
      subChunks: 5,
      subDelayMs: 20,
    });
    fake.setDefault((body) => {
      most = Math.max(most, agent.runs.offLeaf().length);
      return script(body);
    });
    await agent.prompt("PARENT two at once");
    assert.equal(most, 2, "both subagents were registered while their requests went out");
    const path = sm.getPathEnvelopes(sm.getLeafId() as string).filter((e) => e.type === "message");
    assert.deepEqual(
      path.map((e) => e.role),
      ["user", "assistant", "toolResult", "toolResult", "assistant"],
    );
    const branches = userChildren(sm, path[1].id);
    assert.equal(branches.length, 2);
    const prompts = branches.map((id) => messageOf(sm, id)).map((m) => (m.role === "user" ? m.content : ""));
    assert.deepEqual([...prompts].sort(), ["SUB one", "SUB two"]);
    const first = resultText(messageOf(sm, path[2].id));
    const second = resultText(messageOf(sm, path[3].id));
    assert.match(first, /sub answer: SUB one/);
    assert.match(second, /sub answer: SUB two/);
    const branchOf = (p: string): string => branches[prompts.indexOf(p)];
    assert.ok(first.includes(branchOf("SUB one")) && second.includes(branchOf("SUB two")));
    await sm.close();
  });

  it("runs no more at once than maxConcurrent", async () => {
    const { sm } = await workspaceSession();
    let most = 0;
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      tools: undefined,
      subagents: { maxConcurrent: () => 1 },
    });
    const script = parentAndSubagents({
      calls: [1, 2, 3].map((i) => ({ prompt: `SUB ${i}`, readOnly: true })),
      subChunks: 3,
      subDelayMs: 10,
    });
    fake.setDefault((body) => {
      most = Math.max(most, agent.runs.offLeaf().length);
      return script(body);
    });
    await agent.prompt("PARENT one at a time");
    assert.equal(most, 1);
    const results = sm
      .getPathEnvelopes(sm.getLeafId() as string)
      .filter((e) => e.role === "toolResult")
      .map((e) => resultText(messageOf(sm, e.id)));
    assert.equal(results.length, 3);
    results.forEach((t, i) => assert.match(t, new RegExp(`sub answer: SUB ${i + 1}`)));
    await sm.close();
  });

  it("stops with its parent: aborting the parent aborts the subagent and the result says so", async () => {
    const { sm } = await workspaceSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined, subagents: {} });
    fake.setDefault((body) =>
      firstUserText(body).startsWith("SUB")
        ? { stall: true, text: "thinking about it" }
        : parentAndSubagents({ calls: [{ prompt: "SUB slow", readOnly: true }] })(body),
    );
    const ended: string[] = [];
    agent.runs.subscribe((c) => {
      if (c.type === "begin" && c.work.run?.kind === "subagent") void c.work.run.done.then((r) => ended.push(r.state));
      // The subagent's first entry is written: its request goes out; abort the parent then.
      if (c.type === "first-entry") setTimeout(() => agent.abort(), 50);
    });
    await agent.prompt("PARENT then abort");
    assert.deepEqual(ended, ["stopped"]);
    const results = sm.getEntries().filter((e) => e.type === "message" && e.message.role === "toolResult");
    assert.equal(results.length, 1);
    assert.match(resultText((results[0] as { message: AgentMessage }).message), /stopped before it finished/);
    assert.equal(agent.runs.list().length, 0);
    assert.equal(fake.requests.filter((b) => firstUserText(b).startsWith("PARENT")).length, 1, "no parent call after");
    await sm.close();
  });

  it("Stop Branch stops only the subagent: the parent goes on with a result that says it was stopped", async () => {
    const { sm } = await workspaceSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake), tools: undefined, subagents: {} });
    fake.setDefault((body) =>
      firstUserText(body).startsWith("SUB")
        ? { stall: true, text: "partial" }
        : parentAndSubagents({ calls: [{ prompt: "SUB stop me", readOnly: true }] })(body),
    );
    agent.runs.subscribe((c) => {
      if (c.type === "first-entry") {
        const first = c.work.firstEntryId as string;
        // As the host's Stop Branch does: the run the registry says is at the row.
        setTimeout(() => agent.busyAt(first)?.run?.stop(), 50);
      }
    });
    await agent.prompt("PARENT stop the branch");
    const path = sm.getPathEnvelopes(sm.getLeafId() as string).filter((e) => e.type === "message");
    assert.deepEqual(
      path.map((e) => e.role),
      ["user", "assistant", "toolResult", "assistant"],
    );
    assert.match(resultText(messageOf(sm, path[2].id)), /stopped before it finished/);
    const last = messageOf(sm, path[3].id);
    assert.equal(last.role === "assistant" && last.content[0]?.type === "text" && last.content[0].text, "parent done");
    await sm.close();
  });

  it("a writing subagent's turns are checkpointed on its branch, and the parent's path records the change", async () => {
    const { ws, sm } = await workspaceSession();
    const cps = await WorkspaceCheckpoints.open({ folders: [ws], storageDir: path.join(tmp.dir, "store") });
    const asked: string[] = [];
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      tools: undefined,
      subagents: {},
      checkpoints: new TurnCheckpoints(cps),
      approve: async (request) => {
        asked.push(`${request.asker ?? "the agent"}: ${request.toolName}`);
        return { approved: true };
      },
    });
    fake.setDefault(
      parentAndSubagents({
        calls: [{ prompt: "SUB write it" }],
        subTool: { name: "write", args: { path: "out.txt", content: "from the subagent\n" } },
      }),
    );
    await agent.prompt("PARENT write through a subagent");
    assert.equal(fs.readFileSync(path.join(ws, "out.txt"), "utf8"), "from the subagent\n");
    assert.deepEqual(asked, ["the agent: subagent", "Subagent 1: write"], "the session's approvals, naming who asks");
    const callId = sm.getPathEnvelopes(sm.getLeafId() as string).find((e) => e.role === "assistant")?.id as string;
    const [subFirst] = userChildren(sm, callId);
    const subEntries = sm.getEnvelopes().filter((e) => sm.getPathEnvelopes(e.id).some((p) => p.id === subFirst));
    const subTip = subEntries.filter((e) => e.type === "message").at(-1)?.id as string;
    const onBranch = findCheckpointForEntry(sm, subTip, ws);
    assert.ok(onBranch, "a checkpoint on the subagent's branch");
    assert.ok(
      subEntries.some((e) => e.id === onBranch.entryId),
      "its entry is on the subagent's branch, not the leaf's path",
    );
    assert.ok(onBranch.ref.files.some((f) => f.path === "out.txt"));
    const atLeaf = findCheckpointForEntry(sm, sm.getLeafId() as string, ws);
    assert.ok(atLeaf && atLeaf.ref.files.some((f) => f.path === "out.txt"), "the parent's path records it too");
    await sm.close();
  });
});
