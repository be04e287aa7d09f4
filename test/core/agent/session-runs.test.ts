/**
 * One answer to "may this start?": every run registers with its session, and `busyAt` says which work is at an
 * entry — the leaf's run at every entry of the current path, a run off the leaf at its own entries only, nothing
 * above where it started — and `busyWithin` what an archive or deletion of a branch would take. Real runs against
 * the fake model server (stalled replies keep them running until stopped).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { firstEntryOf, newAgent, openAIModel, sideBranchSession } from "./helpers.js";

const fake = fakeServerForSuite();

describe("SessionRuns: busyAt and busyWithin", { timeout: 60_000 }, () => {
  it("a run off the leaf is at its own entries, not above where it started nor at the leaf", async () => {
    const { sm, ids } = sideBranchSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.setDefault(() => ({ stall: true }));
    const run = agent.startRun({
      kind: "explore",
      label: "Branch 1 of 2",
      parentId: ids.a1,
      prompt: "explore",
      tools: [],
    });
    const branchId = await firstEntryOf(run);

    assert.equal(agent.busyAt(branchId)?.label, "Branch 1 of 2", "its first entry");
    assert.equal(agent.busyAt(branchId)?.run, run);
    for (const id of [ids.u1, ids.a1, ids.s1, ids.u2, ids.a2])
      assert.equal(agent.busyAt(id), undefined, `${id}: not the branch's`);
    assert.equal(agent.busyAt(), undefined, "the leaf is free: the user may go on");
    assert.equal(agent.runs.busyWithin(ids.a1)?.run, run, "archiving from a1 would take the branch");
    assert.equal(agent.runs.busyWithin(ids.u1)?.run, run);
    assert.equal(agent.runs.busyWithin(ids.s1), undefined, "a sibling branch is free");
    assert.equal(agent.runs.busyWithin(branchId)?.run, run);
    assert.equal(agent.isStreaming, false);

    run.stop();
    const result = await run.done;
    assert.equal(result.state, "stopped");
    assert.equal(result.firstEntryId, branchId);
    assert.equal(agent.busyAt(branchId), undefined, "an ended run is nowhere");
    assert.equal(agent.runs.list().length, 0);
  });

  it("the leaf's run is at every entry of the current path and at no entry, not on other branches", async () => {
    const { sm, ids } = sideBranchSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    fake.setDefault(() => ({ stall: true }));
    const started = new Promise<void>((resolve) => {
      const off = agent.runs.subscribe((c) => {
        if (c.type === "begin") {
          off();
          resolve();
        }
      });
    });
    const prompt = agent.prompt("a long one");
    await started;
    assert.equal(agent.isStreaming, true);
    assert.equal(agent.busyAt()?.label, "a reply");
    for (const id of [ids.u1, ids.a1, ids.u2, ids.a2])
      assert.equal(agent.busyAt(id)?.kind, "run", `${id} is on the path`);
    assert.equal(agent.busyAt(ids.s1), undefined, "a side branch is not the leaf's");
    assert.equal(agent.runs.busyWithin(ids.s1), undefined);
    assert.equal(agent.runs.busyWithin(ids.a1)?.place, "leaf", "a1's subtree holds the leaf");
    agent.abort();
    await prompt;
    assert.equal(agent.busyAt(), undefined);
  });

  it("moves, compactions and commands are leaf work too; a hold of the host's is seen but not in the core's way", async () => {
    const { sm, ids } = sideBranchSession();
    const { agent } = newAgent(sm, { model: openAIModel(fake) });
    const hold = agent.runs.begin({ kind: "operation", place: "leaf", label: "branch switch" });
    assert.equal(agent.busyAt(ids.a2)?.label, "branch switch");
    // The host holds the leaf for its whole switch and calls the core's move inside it.
    const moved = await agent.navigateTree(ids.s1, { summarize: false });
    assert.equal(moved.kind, "moved");
    hold.end();
    const command = agent.executeBash("sleep 0.3");
    assert.equal(agent.busyAt()?.kind, "command");
    assert.equal(agent.isBashRunning, true);
    await assert.rejects(agent.navigateTree(ids.a2), /while a command runs/);
    await command;
    assert.equal(agent.busyAt(), undefined);
  });
});
