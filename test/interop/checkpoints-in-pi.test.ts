/**
 * A session with workspace checkpoints, written by real turns (the fake model calls write, edit and bash through
 * the real SDK, the checkpoint hook records the files) and a branch switch with a file restore, opened by the real
 * pi 0.73.1 and 1.6.0: the same tree, leaf, context and labels. Then pi continues the session, and the files of
 * pi's new entries are still found (the checkpoint links on the path hold).
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { AgentSession } from "../../src/core/agent/agent-session.js";
import {
  TurnCheckpoints,
  WorkspaceCheckpoints,
  checkpointDataOf,
  restoreTargetsFor,
} from "../../src/core/checkpoints/index.js";
import { SessionManager } from "../../src/core/index.js";
import { testModels } from "../util/test-models.js";
import { openAIModel } from "../core/agent/helpers.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assistant, user } from "../util/session-builder.js";
import { assertSameView, ourView, piContinues, piOpen, releases } from "./pi.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest("agent-tree-interop-");

/** Three turns on two branches, with a hand edit and a restore in between. Returns the file and the folder. */
async function writeSessionWithCheckpoints(): Promise<{ file: string; ws: string; cps: WorkspaceCheckpoints }> {
  const ws = path.join(tmp.dir, "ws");
  fs.mkdirSync(ws);
  fs.writeFileSync(path.join(ws, "app.txt"), "v0\n");
  const sm = await SessionManager.create(ws, path.join(tmp.dir, "sessions"));
  const cps = await WorkspaceCheckpoints.open({ folders: [ws], storageDir: path.join(tmp.dir, "store") });
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: ws,
    modelRegistry: testModels(),
    getApiKey: async () => "test-key",
    model: openAIModel(fake),
    checkpoints: new TurnCheckpoints(cps),
  });
  fake.enqueue({ toolCalls: [{ name: "write", args: { path: "b.txt", content: "B\n" } }] }, { text: "wrote b" });
  await agent.prompt("write b");
  const endOfFirst = sm.getLeafId() as string;
  fs.writeFileSync(path.join(ws, "app.txt"), "edited by hand\n");
  fake.enqueue(
    { toolCalls: [{ name: "edit", args: { path: "app.txt", oldText: "edited by hand", newText: "by the agent" } }] },
    { toolCalls: [{ name: "bash", args: { command: "rm b.txt" } }] },
    { text: "done" },
  );
  await agent.prompt("rework");
  await cps.restore(restoreTargetsFor(sm, endOfFirst, cps.folders()));
  await agent.navigateTree(endOfFirst);
  fake.enqueue({ toolCalls: [{ name: "write", args: { path: "c.txt", content: "C\n" } }] }, { text: "wrote c" });
  await agent.prompt("write c instead");
  assert.ok(sm.getEntries().filter((e) => checkpointDataOf(e)).length >= 4, "the session holds checkpoint entries");
  agent.dispose();
  await sm.close();
  return { file: sm.getSessionFile() as string, ws, cps };
}

describe("sessions with workspace checkpoints in the real pi", { timeout: 180_000 }, () => {
  test("pi opens them with the same tree, leaf and context, and continues them without losing the links", async () => {
    const { file, ws, cps } = await writeSessionWithCheckpoints();
    const ours = await SessionManager.open(file, { readOnly: true });
    const ourSnapshot = ourView(ours);
    const ourTargets = restoreTargetsFor(ours, ours.getLeafId() as string, [ws]);
    await ours.close();
    assert.equal(ourTargets.length, 1);

    for (const release of releases()) {
      assertSameView(piOpen(release, file), ourSnapshot, `pi ${release.version}`);

      // pi continues the session on a copy: a user message and a reply hang off its leaf.
      const copy = path.join(tmp.dir, `continued-by-pi-${release.version}.jsonl`);
      fs.copyFileSync(file, copy);
      const T = Date.now();
      piContinues(release, copy, [
        user("one more thing", T),
        assistant("sure", [], { provider: "openai", model: "gpt-4.1", timestamp: T + 1 }),
      ]);
      const continued = await SessionManager.open(copy, { readOnly: true });
      assert.deepEqual(
        restoreTargetsFor(continued, continued.getLeafId() as string, cps.folders()),
        ourTargets,
        `pi ${release.version}: pi's new entries have the files of the point it continued from`,
      );
      await continued.close();
    }
  });
});
