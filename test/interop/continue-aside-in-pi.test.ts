/**
 * An aside continued as a branch, resumed by the real pi: the session (AgentSession with the workspace's tools, the
 * real openai client against the fake server) has a turn, an aside from there with read-only tools, a main turn after
 * it, then Continue as Branch. pi opens the file with the same tree, leaf and context, and its own
 * getCurrentSystemMessage at the leaf declares the agent's whole loadout (write included), as ours does — so pi
 * resuming the file activates every tool, not the aside's four.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { AgentSession, SessionManager, currentSystemMessage, type SystemMessage } from "../../src/core/index.js";
import { continueAside } from "../../src/core/parallel/index.js";
import { createWorkspaceTools } from "../../src/core/tools/index.js";
import { openAIModel } from "../core/agent/helpers.js";
import { turnAsideTurn } from "../util/aside-session.js";
import { startFakeOpenAI } from "../util/fake-openai-server.js";
import type { FakeServer } from "../util/fake-provider-common.js";
import { tempDir } from "../util/temp-dir.js";
import { readyTestModels } from "../util/test-models.js";
import { assertSameView, latestRelease, ourView, piOpen, runPi } from "./pi.js";

let tmp: ReturnType<typeof tempDir>;
let fake: FakeServer;
let file: string;

before(async () => {
  tmp = tempDir("agent-tree-interop-");
  fake = await startFakeOpenAI();
  fake.setDefault(() => ({ text: "an answer" }));
  const sm = await SessionManager.create(tmp.dir, tmp.dir);
  const agent = new AgentSession({
    sessionManager: sm,
    cwd: tmp.dir,
    modelRegistry: await readyTestModels(),
    getApiKey: async () => "test-key",
    tools: createWorkspaceTools(tmp.dir),
    systemPrompt: "You are terse.",
    model: openAIModel(fake),
  });
  const { aside } = await turnAsideTurn(agent, { fake, cwd: tmp.dir, systemPrompt: "You are terse." });
  const continued = await continueAside(agent, aside.branchId as string, { summarize: false });
  assert.equal(continued.kind, "moved");
  agent.dispose();
  await sm.close();
  file = sm.getSessionFile() as string;
});
after(async () => {
  await fake.close();
  tmp.cleanup();
});

/** JSON's view (pi's answer went through JSON). */
const json = (v: unknown): unknown => JSON.parse(JSON.stringify(v)) as unknown;

describe(`pi ${latestRelease().version} resumes an aside continued as a branch`, () => {
  test("the same tree, leaf and context, and the whole loadout declared at the leaf", async () => {
    const pi = latestRelease();
    const ours = await SessionManager.open(file, { readOnly: true });
    try {
      assertSameView(piOpen(pi, file), ourView(ours), `pi ${pi.version} opening our file`);
      const atLeaf = currentSystemMessage(ours.buildSessionContext().messages);
      const names = (atLeaf?.toolsAdded ?? []).map((t) => t.name);
      assert.ok(
        names.includes("write") && names.includes("bash"),
        `the leaf declares every tool (${names.join(", ")})`,
      );
      const [, piLeaf] = runPi(pi, [{ op: "open", file }, { op: "systemMessage" }]) as [null, SystemMessage];
      assert.deepEqual(json(piLeaf), json(atLeaf), "pi replays the same prompt and tools at the leaf");
    } finally {
      await ours.close();
    }
  });
});
