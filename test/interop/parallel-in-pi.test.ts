/**
 * Branches written beside the user's: three branches running at once in a child process that is killed mid-run
 * (test/core/parallel/crash-child.ts), then three more run to their end with the user's agent chatting on the
 * leaf meanwhile. The real pi releases open the file and see what we see — the same entries (the branches among
 * them), the same leaf and the same context — and continue it from the user's leaf.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { readBranchRuns } from "../../src/core/parallel/branch-run-lines.js";
import { runBranch } from "../../src/core/parallel/branch-run.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { newAgent, openAIModel } from "../core/agent/helpers.js";
import { crashReplies, crashSession, runBranchesAndKill } from "../core/parallel/crash-helpers.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, ourView, piOpen, releases } from "./pi.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest("agent-tree-interop-");

describe("parallel branches in pi", { timeout: 180_000 }, () => {
  test("pi reads branches cut off by a kill and branches run beside the user's agent as we do", async () => {
    fake.setDefault(crashReplies);
    const { file, leaf } = await crashSession(tmp.dir);
    await runBranchesAndKill(file, fake.baseURL, tmp.dir, 9);

    fake.setDefault((body) => {
      const last = (body.messages as { role: string }[]).at(-1);
      return last?.role === "tool" ? { text: "branch done" } : { text: "answer", chunkDelayMs: 5 };
    });
    const sm = await SessionManager.open(file);
    const { agent } = newAgent(sm, { cwd: tmp.dir, model: openAIModel(fake) });
    const runs = [0, 1, 2].map((i) =>
      runBranch({
        session: agent,
        parentId: leaf,
        prompt: `finished branch ${i}`,
        model: openAIModel(fake),
        kind: "explore",
        groupId: "g",
        tools: [],
        cwd: tmp.dir,
      }),
    );
    await agent.prompt("the user goes on");
    const outcomes = await Promise.all(runs);
    assert.deepEqual(
      outcomes.map((o) => o.state),
      ["done", "done", "done"],
    );
    const userLeaf = sm.getLeafId();
    const states = [...readBranchRuns(sm).values()].map((r) => r.state).sort();
    assert.deepEqual(states, ["done", "done", "done", "stopped", "stopped", "stopped"]);
    const ours = ourView(sm);
    await sm.close();

    for (const release of releases()) {
      const pi = piOpen(release, file);
      assertSameView(pi, ours, `pi ${release.version}`);
      assert.equal(ours.leafId, userLeaf);
      const branchUsers = pi.entries.filter(
        (e) => e.parentId === leaf && e.type === "message" && e.message.role === "user",
      );
      assert.equal(branchUsers.length, 7, `pi ${release.version} sees six branches and the user's own turn`);
    }
  });
});
