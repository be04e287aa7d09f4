/**
 * An aside continued as a branch, resumed by the real pi: the session (AgentSession with the workspace's tools, the
 * real openai client against the fake server) has a turn, an aside from there with read-only tools, a main turn after
 * it, then Continue as Branch. pi opens the file with the same tree, leaf and context, and its own
 * getCurrentSystemMessage at the leaf declares the agent's whole loadout (write included), as ours does — so pi
 * resuming the file activates every tool, not the aside's four.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { SessionManager, currentSystemMessage, type SystemMessage } from "../../src/core/index.js";
import { continueAside } from "../../src/core/parallel/index.js";
import { turnAsideTurn } from "../util/aside-session.js";
import { assertSameView, latestRelease, ourView, piOpen, runPi, jsonView } from "./pi.js";
import { recordedSessionForSuite } from "./recorded-session.js";

const recorded = recordedSessionForSuite(async ({ dir, fake, agentOn }) => {
  fake.setDefault(() => ({ text: "an answer" }));
  const sm = await SessionManager.create(dir, dir);
  const agent = await agentOn(sm, dir, { systemPrompt: "You are terse." });
  const { aside } = await turnAsideTurn(agent, { fake, cwd: dir, systemPrompt: "You are terse." });
  const continued = await continueAside(agent, aside.branchId as string, { summarize: false });
  assert.equal(continued.kind, "moved");
  return agent;
});

describe(`pi ${latestRelease().version} resumes an aside continued as a branch`, () => {
  test("the same tree, leaf and context, and the whole loadout declared at the leaf", async () => {
    const pi = latestRelease();
    const ours = await SessionManager.open(recorded.file, { readOnly: true });
    try {
      assertSameView(piOpen(pi, recorded.file), ourView(ours), `pi ${pi.version} opening our file`);
      const atLeaf = currentSystemMessage(ours.buildSessionContext().messages);
      const names = (atLeaf?.toolsAdded ?? []).map((t) => t.name);
      assert.ok(
        names.includes("write") && names.includes("bash"),
        `the leaf declares every tool (${names.join(", ")})`,
      );
      const [, piLeaf] = runPi(pi, [{ op: "open", file: recorded.file }, { op: "systemMessage" }]) as [
        null,
        SystemMessage,
      ];
      assert.deepEqual(jsonView(piLeaf), jsonView(atLeaf), "pi replays the same prompt and tools at the leaf");
    } finally {
      await ours.close();
    }
  });
});
