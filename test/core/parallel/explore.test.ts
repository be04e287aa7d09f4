/**
 * Explore in Parallel in the core: three branches from one node, each in its own copy of the workspace, run at once
 * with the user's own agent on the leaf, through the real OpenAI SDK against the fake server and the real tools.
 * The leaf, the workspace and the main branch's context stay as they were; each branch's context is its own path;
 * the branches' files are checkpointed in the folder's own store, so the three-way merge brings one of them in.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import {
  CHECKPOINT_ENTRY_TYPE,
  checkpointDataOf,
  findCheckpointForEntry,
  mergeTargetsFor,
} from "../../../src/core/checkpoints/index.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { CopySizeCapError, listBranchCopies, removeOrphanCopies } from "../../../src/core/parallel/branch-copy.js";
import { readBranchRuns } from "../../../src/core/parallel/branch-run-lines.js";
import { exploreInParallel } from "../../../src/core/parallel/explore.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { openAIModel } from "../agent/helpers.js";
import { read, tempWorkspacePerTest } from "../checkpoints/helpers.js";
import { exploreFromTurn, exploreReplies, requestTexts, sessionWithTurn } from "./helpers.js";

const fake = fakeServerForSuite();
const t = tempWorkspacePerTest();

describe("explore in parallel (core)", { timeout: 120_000 }, () => {
  it("runs three branches and the main agent at once; leaf, workspace and contexts stay apart", async () => {
    const { sm, cps, agent, nodeId, checkpointId } = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const { reply, contents } = exploreReplies("EXPLORE-TASK");
    fake.setDefault(reply);
    const copiesDir = path.join(t.root, "copies");
    const engine = cps.engine(t.ws)!;
    const events: string[] = [];
    const exploration = await exploreInParallel({
      session: agent,
      parentId: nodeId,
      prompt: "EXPLORE-TASK: rewrite app.txt",
      count: 3,
      models: [openAIModel(fake), openAIModel(fake, { id: "fake-model-2" })],
      isolation: { folder: t.ws, storeDir: engine.storeDir, checkpointId, copiesDir, capBytes: 64 * 1024 * 1024 },
      onEvent: (i, e) => {
        if (e.type === "tool_execution_start") events.push(`${i}:${e.toolName}`);
      },
    });
    assert.equal(exploration.branches.length, 3);
    assert.deepEqual(
      exploration.branches.map((b) => b.model.id),
      ["fake-model", "fake-model-2", "fake-model"],
      "the models are used in turn",
    );
    // The user keeps chatting on the main branch meanwhile.
    await agent.prompt("main question");
    const mainLeaf = sm.getLeafId();
    const outcomes = await exploration.done;

    assert.deepEqual(
      outcomes.map((o) => o.state),
      ["done", "done", "done"],
      JSON.stringify(outcomes.map((o) => o.error)),
    );
    assert.equal(sm.getLeafId(), mainLeaf, "the leaf stayed on the main branch");
    assert.equal(read(t.ws, "app.txt"), "original\n", "the user's file was not touched");
    assert.equal(events.filter((e) => e.endsWith(":write")).length, 3);

    // Three new branches from the node, each a user message with the prompt.
    const kids = sm.getChildIds(nodeId).filter((id) => sm.getEnvelope(id)?.role === "user");
    const branchIds = outcomes.map((o) => o.branchId as string);
    for (const id of branchIds) assert.ok(kids.includes(id), "each branch starts under the node");

    // Each branch's context is its own path: its prompt and its own tool result, no other branch, not the main one.
    for (const outcome of outcomes) {
      const ctx = sm.buildSessionContextAt(outcome.tipId as string);
      const text = JSON.stringify(ctx.messages);
      assert.ok(!text.includes("main question"), "a branch never sees the main branch's later messages");
      const wrote = contents.filter((c) => text.includes(JSON.stringify(c).slice(1, -1)));
      assert.equal(wrote.length, 1, "a branch sees only its own write");
    }
    const mainText = JSON.stringify(sm.buildSessionContext().messages);
    assert.ok(!mainText.includes("EXPLORE-TASK"), "the main context holds no branch");
    for (const body of fake.requests) {
      const texts = requestTexts(body).join("\n");
      if (texts.includes("main question")) assert.ok(!texts.includes("EXPLORE-TASK"));
    }

    // The branches' lines interleave in the file.
    const order = sm
      .getEnvelopes()
      .map((e) => branchIds.findIndex((b) => sm.getPathEnvelopes(e.id).some((p) => p.id === b)))
      .filter((i) => i >= 0);
    const switches = order.filter((v, i) => i > 0 && v !== order[i - 1]).length;
    assert.ok(switches >= 3, `branch lines interleave (order ${order.join("")})`);

    // Each branch's files were checkpointed in the folder's store: different content per branch.
    const seen = new Set<string>();
    for (const outcome of outcomes) {
      const found = findCheckpointForEntry(sm, outcome.tipId as string, t.ws);
      assert.ok(found, "the branch's last turn has a checkpoint");
      assert.notEqual(found.ref.checkpointId, checkpointId);
      const content = (await cps.engine(t.ws)!.readFileAt(found.ref.checkpointId, "app.txt"))?.toString() ?? "";
      assert.ok(content.startsWith("branch "), content);
      seen.add(content);
      assert.deepEqual(outcome.files, [{ path: "app.txt", added: 1, removed: 1 }]);
      assert.ok(outcome.usage.totalTokens > 0);
    }
    assert.equal(seen.size, 3);

    // The run lines say done; nothing reads as running.
    const runs = readBranchRuns(sm);
    assert.deepEqual(
      branchIds.map((id) => runs.get(id)?.state),
      ["done", "done", "done"],
    );

    // Adopt the second: the three-way merge of Bring Conclusions Here brings its file in.
    const second = outcomes[1];
    const targets = mergeTargetsFor(sm, nodeId, second.tipId as string, cps.folders());
    assert.equal(targets.length, 1);
    const merged = await cps.merge(targets);
    assert.ok(merged.length > 0);
    const secondContent = await cps.engine(t.ws)!.readFileAt(targets[0].theirsId, "app.txt");
    assert.equal(read(t.ws, "app.txt"), secondContent?.toString());

    // The copies: one per branch, removed when their branches go; one left is found as an orphan.
    const copies = await listBranchCopies(copiesDir);
    assert.equal(copies.length, 3);
    assert.deepEqual(copies.map((c) => c.info?.branchId).sort(), [...branchIds].sort(), "each copy knows its branch");
    await exploration.branches[0].copy.remove();
    assert.equal(fs.existsSync(exploration.branches[0].copy.dir), false);
    const keep = new Set([branchIds[1]]);
    const removed = await removeOrphanCopies(
      copiesDir,
      (info) => !keep.has(info.branchId ?? ""),
      () => engine.storeDir,
    );
    assert.equal(removed.length, 1);
    assert.deepEqual(
      (await listBranchCopies(copiesDir)).map((c) => c.info?.branchId),
      [branchIds[1]],
    );

    // A reload resumes where the user was, with the same context.
    const file = sm.getSessionFile() as string;
    const context = sm.buildSessionContext();
    await sm.close();
    const again = await SessionManager.open(file);
    assert.equal(again.getLeafId(), mainLeaf);
    assert.deepEqual(again.buildSessionContext(), context);
    assert.deepEqual(again.getLoadIssues(), []);
    assert.ok(
      again
        .getEntries()
        .some(
          (e) => checkpointDataOf(e) !== undefined && e.type === "custom" && e.customType === CHECKPOINT_ENTRY_TYPE,
        ),
    );
    await again.close();
  });

  it("refuses a run over the copies' size cap with a clear message, and writes nothing", async () => {
    const { sm, cps, agent, nodeId, checkpointId } = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const before = sm.getEntryCount();
    await assert.rejects(
      exploreInParallel({
        session: agent,
        parentId: nodeId,
        prompt: "try",
        count: 2,
        models: [openAIModel(fake)],
        isolation: {
          folder: t.ws,
          storeDir: cps.engine(t.ws)!.storeDir,
          checkpointId,
          copiesDir: path.join(t.root, "copies"),
          capBytes: 10,
        },
      }),
      (e: unknown) =>
        e instanceof CopySizeCapError && /over the cap/.test(e.message) && /maxCopiesSizeMB/.test(e.message),
    );
    assert.equal(sm.getEntryCount(), before);
    assert.equal(
      fs.existsSync(path.join(t.root, "copies")) ? fs.readdirSync(path.join(t.root, "copies")).length : 0,
      0,
    );
    await sm.close();
  });

  it("a branch that fails ends failed with its error; the others finish; a stopped one ends stopped", async () => {
    const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const { sm } = setup;
    let n = 0;
    fake.setDefault((body) => {
      const last = (body.messages as { role: string }[]).at(-1);
      if (last?.role === "tool") return { text: "ok" };
      n++;
      if (n === 1) return { status: 400, body: { error: { message: "bad request for this branch" } } };
      if (n === 2) return { stall: true, text: "thinking" };
      return { text: "fine" };
    });
    const exploration = await exploreFromTurn(fake, t, setup, { count: 3 });
    // Stop the stalled one once the other two ended. Which branch's request comes first (and so fails, stalls or
    // finishes) is up to the scheduler: wait for any two.
    await new Promise<void>((resolve) => {
      let settled = 0;
      for (const b of exploration.branches) void b.outcome.finally(() => ++settled === 2 && resolve());
    });
    const stalled = exploration.branches.find((b) => b.run?.running === true);
    assert.ok(stalled);
    stalled.stop();
    const outcomes = await exploration.done;
    const states = outcomes.map((o) => o.state).sort();
    assert.deepEqual(states, ["done", "failed", "stopped"]);
    const failed = outcomes.find((o) => o.state === "failed");
    assert.match(failed?.error ?? "", /bad request/);
    const runs = readBranchRuns(sm);
    assert.deepEqual(
      outcomes.map((o) => runs.get(o.branchId as string)?.state),
      outcomes.map((o) => o.state),
    );
    await sm.close();
  });
});
