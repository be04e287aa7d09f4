/**
 * The copies' size cap holds while branches run (src/core/parallel/copies-cap.ts), not only when they start: a
 * branch whose tool call takes the copies over the cap is stopped with a message naming it — after a `write`, and
 * during a `bash` command that is still running (the command is killed) — while a branch whose copy did not grow
 * goes on to its end.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { readBranchRuns } from "../../../src/core/parallel/branch-run-lines.js";
import type { FakeReply, FakeRequestBody } from "../../util/fake-provider-common.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempWorkspacePerTest } from "../checkpoints/helpers.js";
import { exploreFromTurn, sessionWithTurn } from "./helpers.js";

const fake = fakeServerForSuite();
const t = tempWorkspacePerTest();

/** 256 KiB: the two copies of the small workspace fit; half a megabyte more does not. */
const CAP = 256 * 1024;

/** The first branch to ask makes the tool call; the others (and every later request) just answer. */
function firstBranchCalls(call: { name: string; args: Record<string, unknown> }): {
  reply: (body: FakeRequestBody) => FakeReply;
  calls: () => number;
} {
  let asked = 0;
  let afterTool = 0;
  return {
    reply: (body) => {
      const last = (body.messages as { role?: string }[]).at(-1);
      if (last?.role === "tool") {
        afterTool++;
        return { text: "after the tool" };
      }
      if (last?.role !== "user") return { text: "plain" };
      asked++;
      return asked === 1 ? { text: "Writing a lot.", toolCalls: [call] } : { text: "Nothing to write." };
    },
    calls: () => afterTool,
  };
}

describe("the copies' size cap while branches run", { timeout: 120_000 }, () => {
  it("a write that takes the copies over the cap stops its branch with the cap's message; the other goes on", async () => {
    const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const big = "x".repeat(512 * 1024);
    const { reply, calls } = firstBranchCalls({ name: "write", args: { path: "big.txt", content: big } });
    fake.setDefault(reply);
    const exploration = await exploreFromTurn(fake, t, setup, { count: 2, capBytes: CAP });
    const outcomes = await exploration.done;
    const stopped = outcomes.find((o) => o.state === "stopped");
    const other = outcomes.find((o) => o !== stopped);
    assert.ok(stopped, JSON.stringify(outcomes.map((o) => [o.state, o.error])));
    assert.match(stopped.error ?? "", /write call took the branch copies to [\d.]+ MiB, over the cap of 0\.3 MiB/);
    assert.match(stopped.error ?? "", /agentTree\.parallel\.maxCopiesSizeMB/);
    assert.equal(other?.state, "done", "the branch whose copy did not grow finished");
    assert.equal(calls(), 0, "the stopped branch made no model call after the write");
    const runs = readBranchRuns(setup.sm);
    assert.equal(runs.get(stopped.branchId as string)?.state, "stopped");
    assert.match(runs.get(stopped.branchId as string)?.error ?? "", /over the cap/);
    const index = outcomes.indexOf(stopped);
    assert.equal(
      fs.statSync(path.join(exploration.branches[index].copy.dir, "big.txt")).size,
      big.length,
      "the copy is kept as it is",
    );
    await setup.sm.close();
  });

  it("a bash command that fills the copy while it runs is killed, and its branch stopped", async () => {
    const setup = await sessionWithTurn(fake, t.root, t.ws, t.store);
    const { reply } = firstBranchCalls({
      name: "bash",
      args: { command: "head -c 600000 /dev/zero > big.bin; sleep 30; echo finished > finished.txt" },
    });
    fake.setDefault(reply);
    const exploration = await exploreFromTurn(fake, t, setup, { count: 2, capBytes: CAP });
    const outcomes = await exploration.done;
    const index = outcomes.findIndex((o) => o.state === "stopped");
    assert.ok(index >= 0, JSON.stringify(outcomes.map((o) => [o.state, o.error])));
    assert.match(outcomes[index].error ?? "", /bash call took the branch copies .* over the cap/);
    assert.equal(outcomes[1 - index].state, "done");
    const dir = exploration.branches[index].copy.dir;
    assert.equal(fs.existsSync(path.join(dir, "big.bin")), true);
    assert.equal(fs.existsSync(path.join(dir, "finished.txt")), false, "the command was killed");
    await setup.sm.close();
  });
});
