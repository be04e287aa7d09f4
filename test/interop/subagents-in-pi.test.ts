/**
 * Subagents as branches in pi: an agent running two subagents in a child process is killed mid-run, then the user
 * goes on from that leaf with one more subagent that runs to its end. The real pi releases open the file and see what
 * we see — the same entries (the subagents' branches among them, off their calls), the same leaf and context — and
 * pi continues it from the user's leaf.
 */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, test } from "node:test";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { newAgent, openAIModel } from "../core/agent/helpers.js";
import { killSubagentsMidRun, parentAndSubagents, subagentCrashReplies } from "../core/agent/subagent-helpers.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, ourView, piContinues, piOpen, releases } from "./pi.js";
import { assistant } from "../util/session-builder.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest("agent-tree-interop-");

describe("subagents in pi", { timeout: 180_000 }, () => {
  test("pi reads subagents cut off by a kill and a finished one as branches off their calls, as we do", async () => {
    fake.setDefault(subagentCrashReplies);
    const { file, acked } = await killSubagentsMidRun(tmp.dir, fake.baseURL);
    const crashedCall = acked[1];

    fake.setDefault(parentAndSubagents({ calls: [{ prompt: "SUB after the crash", readOnly: true }] }));
    const sm = await SessionManager.open(file);
    // The workspace tools (AgentSession's default), as the killed parent had.
    const { agent } = newAgent(sm, { cwd: tmp.dir, model: openAIModel(fake), subagents: {}, tools: undefined });
    await agent.prompt("PARENT goes on");
    const ours = ourView(sm);
    const userLeaf = sm.getLeafId();
    const calls = sm
      .getEntries()
      .filter((e) => e.type === "message" && e.message.role === "assistant" && JSON.stringify(e).includes('"subagent"'))
      .map((e) => e.id);
    assert.equal(calls.length, 2, "the crashed call and the new one");
    assert.equal(calls[0], crashedCall);
    const branchesOf = (id: string): number =>
      ours.entries.filter((e) => e.parentId === id && e.type === "message" && e.message.role === "user").length;
    await sm.close();

    for (const release of releases()) {
      const pi = piOpen(release, file);
      assertSameView(pi, ours, `pi ${release.version}`);
      assert.equal(ours.leafId, userLeaf);
      const piBranches = (id: string): number =>
        pi.entries.filter((e) => e.parentId === id && e.type === "message" && e.message.role === "user").length;
      assert.equal(
        piBranches(calls[0]),
        3,
        `pi ${release.version}: two subagents and the user's next turn off the crashed call`,
      );
      assert.equal(piBranches(calls[1]), branchesOf(calls[1]));
      assert.equal(piBranches(calls[1]), 1, `pi ${release.version}: the finished subagent off its call`);
      // On a copy: the next release opens the file as we left it.
      const copy = path.join(tmp.dir, `continued-${release.version}.jsonl`);
      fs.copyFileSync(file, copy);
      const { snapshot } = piContinues(release, copy, [assistant("pi goes on")]);
      assert.equal(snapshot.entries.at(-1)?.parentId, userLeaf, `pi ${release.version} continues from the leaf`);
    }
  });
});
