/**
 * The session Continue as Branch is tested on (core, host flow and pi interop alike): the agent's turn, an aside
 * asked from there as the host asks it (the workspace's system prompt, so its path records its read-only loadout),
 * then one more turn on the main branch, so the aside is a branch the leaf has left.
 */
import assert from "node:assert/strict";
import type { AgentSession } from "../../src/core/agent/agent-session.js";
import { askAside } from "../../src/core/parallel/aside.js";
import type { BranchOutcome } from "../../src/core/parallel/branch-run.js";
import { openAIModel } from "./fake-models.js";
import type { FakeServer } from "./fake-provider-common.js";

/** What the aside is asked, and the turns around it. */
export interface AsideTurns {
  fake: FakeServer;
  cwd: string;
  systemPrompt: string;
  /** Default "a side question". */
  question?: string;
  /** Default "first". */
  firstPrompt?: string;
  /** Default "the main branch goes on". */
  mainPrompt?: string;
}

/** Runs a turn, an aside from its answer (asserted done), then a main turn; the leaf at the ask and at the end. */
export async function turnAsideTurn(
  agent: AgentSession,
  o: AsideTurns,
): Promise<{ aside: BranchOutcome; asked: string | null; mainLeaf: string }> {
  await agent.prompt(o.firstPrompt ?? "first");
  const asked = agent.sessionManager.getLeafId();
  const aside = await askAside({
    session: agent,
    question: o.question ?? "a side question",
    model: openAIModel(o.fake),
    cwd: o.cwd,
    systemPrompt: o.systemPrompt,
  });
  assert.equal(aside.state, "done", aside.error);
  await agent.prompt(o.mainPrompt ?? "the main branch goes on");
  return { aside, asked, mainLeaf: agent.sessionManager.getLeafId() as string };
}
