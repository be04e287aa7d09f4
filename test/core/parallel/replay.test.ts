/**
 * Replay with Model in the core: the user messages of a path, from a row's turn to the leaf, sent again by each
 * picked model on a parallel branch of its own that starts where that turn started, in its own copy of the files as
 * the checkpoint there recorded them — one turn at a time (a turn's tool calls end before the next message goes),
 * through the real OpenAI SDK against the fake server and the real tools.
 */
import assert from "node:assert/strict";
import path from "node:path";
import { describe, it } from "node:test";
import { WorkspaceCheckpoints, findCheckpointForEntry } from "../../../src/core/checkpoints/index.js";
import { readBranchRuns } from "../../../src/core/parallel/branch-run-lines.js";
import type { ExploreIsolation } from "../../../src/core/parallel/explore.js";
import { replayPlan, replayWithModels, ReplayPlanError } from "../../../src/core/parallel/replay.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { assistant } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "../agent/helpers.js";
import { checkpointedAgent, read, tempWorkspacePerTest, writeFiles } from "../checkpoints/helpers.js";
import { crashSession, reopenAfterKill, runBranchesAndKill } from "./crash-helpers.js";

const fake = fakeServerForSuite();
const t = tempWorkspacePerTest();
const tmp = tempDirPerTest();

type Sent = { role?: string; content?: unknown };

/** The messages of an OpenAI request. */
function messagesOf(body: FakeRequestBody): Sent[] {
  return Array.isArray(body.messages) ? (body.messages as Sent[]) : [];
}

/** The user texts of a request, in order. */
function userTexts(body: FakeRequestBody): string[] {
  return messagesOf(body)
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content)));
}

/**
 * The replies of the replayed conversation: "FIRST" makes the model write app.txt with its own model id (a tool call
 * in the middle of the turn), a tool result gets a final answer, "SECOND" a plain answer naming the model.
 */
function conversationReply(body: FakeRequestBody): FakeReply {
  const last = messagesOf(body).at(-1);
  const model = String(body.model);
  if (last?.role === "tool") return { text: `wrote it (${model})`, chunkDelayMs: 2 };
  const text = JSON.stringify(last?.content ?? "");
  if (text.includes("FIRST"))
    return {
      text: "Writing.",
      toolCalls: [{ name: "write", args: { path: "app.txt", content: `by ${model}\n` } }],
      chunkDelayMs: 2,
    };
  if (text.includes("SECOND")) return { text: `second answer (${model})`, chunkDelayMs: 2 };
  return { text: "hello back", chunkDelayMs: 2 };
}

/**
 * A session over the workspace with checkpoints and three turns: "hello", then "FIRST" (which writes app.txt in the
 * workspace), then "SECOND". Returns what a replay needs.
 */
async function threeTurns() {
  writeFiles(t.ws, { "app.txt": "original\n" });
  const { sm, cps, agent } = await checkpointedAgent(t, fake);
  fake.setDefault(conversationReply);
  await agent.prompt("hello");
  const node = sm.getLeafId() as string;
  await agent.prompt("FIRST: write app.txt");
  await agent.prompt("SECOND: what did you write?");
  const path_ = sm.getPathEnvelopes();
  const firstUser = path_.find((e) => e.role === "user" && e.preview.startsWith("FIRST")) as { id: string };
  const firstReply = path_.find((e) => e.parentId === firstUser.id) as { id: string };
  const found = findCheckpointForEntry(sm, node, t.ws);
  assert.ok(found, "the node has a checkpoint");
  assert.equal(read(t.ws, "app.txt"), "by fake-model\n", "the original turn wrote the workspace's file");
  fake.requests.length = 0;
  return {
    sm,
    cps,
    agent,
    node,
    firstUser: firstUser.id,
    firstReply: firstReply.id,
    checkpointId: found.ref.checkpointId,
  };
}

/** Each branch in its own copy of the workspace as it was at `checkpointId`. */
function isolation(cps: WorkspaceCheckpoints, checkpointId: string): ExploreIsolation {
  return {
    folder: t.ws,
    storeDir: cps.engine(t.ws)!.storeDir,
    checkpointId,
    copiesDir: path.join(t.root, "copies"),
    capBytes: 64 * 1024 * 1024,
  };
}

describe("replay with model (core)", { timeout: 120_000 }, () => {
  it("sends the path's user messages again, in order, each model on its own branch in its own copy", async () => {
    const { sm, cps, agent, node, firstReply, checkpointId } = await threeTurns();
    const leaf = sm.getLeafId();
    const models = [openAIModel(fake), openAIModel(fake, { id: "fake-model-2" })];
    // From a row inside the turn (its reply): the turn starts at its user message.
    const plan = replayPlan(sm, firstReply);
    assert.equal(plan.parentId, node, "the branches start where the row's turn started");
    assert.deepEqual(plan.messages, ["FIRST: write app.txt", "SECOND: what did you write?"]);
    const replay = await replayWithModels({
      session: agent,
      plan,
      models,
      isolation: isolation(cps, checkpointId),
    });
    assert.deepEqual(
      replay.branches.map((b) => b.model.id),
      ["fake-model", "fake-model-2"],
      "one branch per model, in the order picked",
    );
    const outcomes = await replay.done;
    assert.deepEqual(
      outcomes.map((o) => o.state),
      ["done", "done"],
      JSON.stringify(outcomes.map((o) => o.error)),
    );
    assert.equal(sm.getLeafId(), leaf, "the leaf stayed");
    assert.equal(read(t.ws, "app.txt"), "by fake-model\n", "the workspace's file was not touched");

    for (const [i, outcome] of outcomes.entries()) {
      const model = models[i].id;
      assert.equal(sm.getEnvelope(outcome.branchId as string)?.parentId, node, "the branch starts at the node");
      // The branch's own messages, in order: the first turn with its tool call, then the second message.
      const own = sm
        .getPathEnvelopes(outcome.tipId as string)
        .filter((e) => e.type === "message" && e.role !== "system")
        .slice(sm.getPathEnvelopes(node).filter((e) => e.type === "message" && e.role !== "system").length);
      assert.deepEqual(
        own.map((e) => (e.role === "user" ? `user:${e.preview}` : e.role)),
        [
          "user:FIRST: write app.txt",
          "assistant",
          "toolResult",
          "assistant",
          "user:SECOND: what did you write?",
          "assistant",
        ],
      );
      assert.equal(outcome.finalText, `second answer (${model})`);
      // The copy started from the node's files and the model wrote its own.
      const found = findCheckpointForEntry(sm, outcome.tipId as string, t.ws);
      assert.ok(found);
      const content = (await cps.engine(t.ws)!.readFileAt(found.ref.checkpointId, "app.txt"))?.toString();
      assert.equal(content, `by ${model}\n`);
      assert.deepEqual(outcome.files, [{ path: "app.txt", added: 1, removed: 1 }], "changed from the node's file");
    }

    // Each model saw the messages in order, the second only after the first turn's tool call and answer.
    for (const model of ["fake-model", "fake-model-2"]) {
      const mine = fake.requests.filter((b) => b.model === model);
      assert.equal(mine.length, 3, "three model calls: the write, the answer after it, the second message");
      assert.deepEqual(userTexts(mine[0]).slice(-1), ["FIRST: write app.txt"]);
      const last = messagesOf(mine[2]);
      assert.deepEqual(userTexts(mine[2]).slice(-2), ["FIRST: write app.txt", "SECOND: what did you write?"]);
      const roles = last.map((m) => m.role);
      const second = roles.lastIndexOf("user");
      assert.ok(roles.slice(0, second).includes("tool"), "the tool result came before the second message");
      assert.ok(!JSON.stringify(last).includes("wrote it (fake-model)") || model === "fake-model", "no other branch");
    }

    // Run lines: kind replay, one group, done.
    const runs = readBranchRuns(sm);
    const lines = outcomes.map((o) => runs.get(o.branchId as string));
    assert.deepEqual(
      lines.map((l) => [l?.kind, l?.state, l?.model?.modelId]),
      [
        ["replay", "done", "fake-model"],
        ["replay", "done", "fake-model-2"],
      ],
    );
    assert.equal(lines[0]?.groupId, lines[1]?.groupId);
    assert.match(lines[0]?.groupId ?? "", /^replay-/);
  });

  it("a model failing mid-replay ends its branch failed with what was said; a stopped one ends stopped", async () => {
    const { sm, cps, agent, firstUser, checkpointId } = await threeTurns();
    // The third branch is stopped while its second message's reply streams.
    const started: { stop?: () => void } = {};
    fake.setDefault((body) => {
      const last = JSON.stringify(messagesOf(body).at(-1)?.content ?? "");
      if (body.model === "fake-model-2" && last.includes("SECOND"))
        return { status: 400, body: { error: { message: "the second model refuses this" } } };
      if (body.model === "fake-model-3" && last.includes("SECOND")) {
        setTimeout(() => started.stop?.(), 50).unref();
        return { stall: true, text: "thinking about it" };
      }
      return conversationReply(body);
    });
    const replay = await replayWithModels({
      session: agent,
      plan: replayPlan(sm, firstUser),
      models: [openAIModel(fake), openAIModel(fake, { id: "fake-model-2" }), openAIModel(fake, { id: "fake-model-3" })],
      isolation: isolation(cps, checkpointId),
    });
    started.stop = () => replay.branches[2].stop();
    const outcomes = await replay.done;
    assert.deepEqual(
      outcomes.map((o) => o.state),
      ["done", "failed", "stopped"],
    );
    assert.match(outcomes[1].error ?? "", /refuses/);
    for (const o of outcomes.slice(1)) {
      const users = sm
        .getPathEnvelopes(o.tipId as string)
        .filter((e) => e.role === "user")
        .map((e) => e.preview);
      assert.deepEqual(
        users.slice(-2),
        ["FIRST: write app.txt", "SECOND: what did you write?"],
        "what was said is kept",
      );
      const tool = sm.getPathEnvelopes(o.tipId as string).filter((e) => e.role === "toolResult");
      assert.equal(tool.length, 1, "the first turn's tool call stays on the branch");
    }
    const runs = readBranchRuns(sm);
    assert.deepEqual(
      outcomes.map((o) => runs.get(o.branchId as string)?.state),
      ["done", "failed", "stopped"],
    );
  });

  it("a turn that runs out of model calls ends the branch failed before the next message", async () => {
    const { sm, cps, agent, firstUser, checkpointId } = await threeTurns();
    const replay = await replayWithModels({
      session: agent,
      plan: replayPlan(sm, firstUser),
      models: [openAIModel(fake)],
      maxTurns: 1,
      isolation: isolation(cps, checkpointId),
    });
    const [outcome] = await replay.done;
    assert.equal(outcome.state, "failed");
    assert.match(outcome.error ?? "", /Only 1 of 2 user messages were sent/);
    assert.ok(!fake.requests.some((b) => userTexts(b).some((x) => x.includes("SECOND"))), "the second was not sent");
  });

  it("refuses a row off the path, a path without user messages, and no models", async () => {
    const sm = SessionManager.inMemory(t.ws);
    const reply = sm.appendMessage(
      assistant("a greeting nobody asked for", [], { provider: "fake-openai", model: "fake-model", timestamp: 1 }),
    );
    assert.throws(
      () => replayPlan(sm, reply),
      (e: unknown) => e instanceof ReplayPlanError && /no user message/.test(e.message),
    );
    const ask = sm.appendMessage({ role: "user", content: "a question", timestamp: 2 });
    // From above the path's first user message: the replay starts at that message.
    assert.deepEqual(replayPlan(sm, reply), { parentId: reply, userIds: [ask], messages: ["a question"] });
    sm.branch(reply);
    const other = sm.appendMessage({ role: "user", content: "another question", timestamp: 3 });
    assert.throws(
      () => replayPlan(sm, ask),
      (e: unknown) => e instanceof ReplayPlanError && /not on the current path/.test(e.message),
    );
    assert.deepEqual(replayPlan(sm, other).messages, ["another question"]);
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    await assert.rejects(
      replayWithModels({
        session: agent,
        plan: replayPlan(sm, other),
        models: [],
        isolation: { folder: t.ws, storeDir: t.store, checkpointId: "x", copiesDir: t.root, capBytes: 1 },
      }),
      /needs at least one model/,
    );
  });

  it("a process killed mid-replay leaves every acknowledged entry, the leaf, and stopped replay branches", async () => {
    // Turn 1 answers at once; turn 2 writes a file, then streams a long answer slowly: the kill lands there.
    fake.setDefault((body) => {
      const last = messagesOf(body).at(-1);
      if (last?.role === "tool") return { text: "a long answer ".repeat(200), chunks: 200, chunkDelayMs: 50 };
      if (JSON.stringify(last?.content ?? "").includes("turn 2"))
        return { text: "writing", toolCalls: [{ name: "write", args: { path: "out.txt", content: "x" } }] };
      return { text: "first answer" };
    });
    const { file, leaf } = await crashSession(tmp.dir);
    // Per branch: message 1, its answer, message 2, the write call, its result; then the slow answers stream.
    const acked = await runBranchesAndKill(
      file,
      fake.baseURL,
      tmp.dir,
      10,
      path.join(__dirname, "replay-crash-child.ts"),
    );
    const { sm, branches, runs } = await reopenAfterKill(file, acked, leaf);
    assert.equal(branches.length, 2);
    assert.deepEqual(
      branches.map((id) => [runs.get(id)?.kind, runs.get(id)?.state]),
      [
        ["replay", "stopped"],
        ["replay", "stopped"],
      ],
      "replays cut off read as stopped",
    );
    for (const id of branches) {
      const tip = acked.filter((a) => sm.getPathEnvelopes(a).some((e) => e.id === id)).at(-1) as string;
      assert.deepEqual(
        sm
          .getPathEnvelopes(tip)
          .filter((e) => e.role === "user")
          .map((e) => e.preview)
          .slice(-2),
        ["REPLAY turn 1", "REPLAY turn 2"],
        "both replayed messages were written before the kill",
      );
    }
    sm.appendMessage({ role: "user", content: "after the crash", timestamp: 3 });
    await sm.close();
  });
});
