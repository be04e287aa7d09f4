/**
 * Continue as Branch in the host (continue-aside-flow.ts) over a real session, its move the navigate flow a click
 * runs (with a scripted UI): the summary question is asked and answered, and the aside is settled; a dismissed
 * question leaves the session as it was; a row on no aside and a continued aside are refused with their reasons.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readBranchRuns } from "../../src/core/parallel/branch-run-lines.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { createWorkspaceTools } from "../../src/core/tools/index.js";
import { CONTINUED_TEXT, continueAsideFlow } from "../../src/host/parallel/continue-aside-flow.js";
import { runNavigateFlow } from "../../src/host/tree/navigate-flow.js";
import { newAgent, openAIModel } from "../core/agent/helpers.js";
import { turnAsideTurn } from "../util/aside-session.js";
import { fakeServerForSuite } from "../util/fake-server-suite.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { FakeNavigateUi, type FakeUiScript } from "./fake-navigate-ui.js";
import { navigatorOf } from "./flow-session.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

/** A session with a turn, an aside from there, one more main turn; and the flow's deps with `script` as its UI. */
async function setup(script: FakeUiScript) {
  const sm = await SessionManager.create(tmp.dir, tmp.dir);
  const { agent } = newAgent(sm, {
    model: openAIModel(fake),
    tools: createWorkspaceTools(tmp.dir),
    systemPrompt: "You are terse.",
    extractiveSummaries: true,
  });
  fake.setDefault(() => ({ text: "an answer" }));
  const { aside } = await turnAsideTurn(agent, { fake, cwd: tmp.dir, systemPrompt: "You are terse." });
  const ui = new FakeNavigateUi(script);
  const said: string[] = [];
  const deps = {
    controller: { requireSession: () => ({ sm, agent }) },
    navigation: {
      navigate: async (entryId: string, mode: "ask") => {
        await runNavigateFlow(navigatorOf(sm, agent), ui, entryId, mode, "ask");
      },
    },
    notify: {
      warn: (text: string) => void said.push(`warn:${text}`),
      status: (text: string) => void said.push(`status:${text}`),
      error: (what: string, e: unknown) => void said.push(`error:${what}: ${String(e)}`),
    },
    liveBranchIds: () => new Set<string>(),
  } as unknown as Parameters<typeof continueAsideFlow>[0];
  return { sm, agent, aside, ui, said, deps };
}

describe("Continue as Branch (host flow)", { timeout: 60_000 }, () => {
  it("asks the summary question of a move, moves the leaf to the answer and settles the aside", async () => {
    const { sm, aside, ui, said, deps } = await setup({ choice: "summarize" });
    await continueAsideFlow(deps, aside.branchId as string);
    assert.deepEqual(ui.calls, ["pick", "progress"], "the summary question, then its progress");
    assert.deepEqual(said, [`status:${CONTINUED_TEXT}`]);
    const path = sm.getPathEnvelopes();
    assert.ok(
      path.some((e) => e.id === aside.tipId),
      "the answer is on the path",
    );
    assert.ok(
      path.some((e) => e.type === "branch_summary"),
      "the branch left was summarized",
    );
    const leaf = sm.getLeafEntry();
    assert.ok(leaf?.type === "message" && leaf.message.role === "system", "the loadout record is the leaf");
    assert.equal(readBranchRuns(sm).get(aside.branchId as string)?.continued, true);

    said.length = 0;
    await continueAsideFlow(deps, aside.tipId as string);
    assert.deepEqual(said, ["warn:That aside was continued as a branch already."]);
    await sm.close();
  });

  it("a dismissed question changes nothing; a row on no aside is refused", async () => {
    const { sm, aside, ui, said, deps } = await setup({});
    const leaf = sm.getLeafId();
    const count = sm.getEntryCount();
    await continueAsideFlow(deps, aside.tipId as string);
    assert.deepEqual(ui.calls, ["pick"]);
    assert.deepEqual(said, [], "the move was dismissed: nothing to say");
    assert.equal(sm.getLeafId(), leaf);
    assert.equal(sm.getEntryCount(), count, "nothing written");
    assert.equal(readBranchRuns(sm).get(aside.branchId as string)?.continued, undefined);

    await continueAsideFlow(deps, leaf as string);
    assert.deepEqual(said, ["warn:That row is not on an aside (Agent: Ask Aside…)."]);
    await sm.close();
  });
});
