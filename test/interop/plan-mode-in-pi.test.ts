/**
 * Plan mode's lines in the real pi 0.73.1 and 1.6.0: a session whose branch turned plan mode on and off opens in pi
 * with the same tree, leaf and context (pi leaves custom entries out of the context), and what pi appends next hangs
 * off our leaf, so the branch is still in plan mode for us when we read pi's file back.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { planModeState, PLAN_MODE_TYPE } from "../../src/core/agent/plan-mode.js";
import { SessionManager } from "../../src/core/index.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import { assertSameView, ourView, piContinues, piOpen, releases, timedMessages } from "./pi.js";

const tmp = tempDirPerTest("agent-tree-interop-");

const { user: userMsg, assistant: reply } = timedMessages(1_750_000_000_000, { provider: "openai", model: "gpt-4.1" });

function planMode(sm: SessionManager): boolean {
  return planModeState({ envelopes: sm.getPathEnvelopes(), entry: (id) => sm.getEntry(id) }).enabled;
}

describe("plan mode's lines in the real pi", { timeout: 180_000 }, () => {
  test("same tree, leaf and context in pi; pi continues from our leaf, and the branch stays in plan mode", async () => {
    const sm = await SessionManager.create("/proj", path.join(tmp.dir, "plan"));
    sm.appendMessage(userMsg("add a cache", 1));
    const a = sm.appendMessage(reply("which one?", 2));
    sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: true });
    sm.appendMessage(userMsg("plan it", 3));
    sm.appendMessage(reply("1. an LRU in cache.ts 2. tests", 4));
    sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: false });
    sm.appendMessage(userMsg("Carry out the plan above.", 5));
    sm.appendMessage(reply("done", 6));
    sm.branch(a);
    sm.appendCustomEntry(PLAN_MODE_TYPE, { enabled: true });
    sm.appendMessage(userMsg("plan another way", 7));
    sm.appendMessage(reply("1. a map with a TTL", 8));
    const file = sm.getSessionFile() as string;
    await sm.close();

    const ours = await SessionManager.open(file, { readOnly: true });
    const view = ourView(ours);
    assert.equal(planMode(ours), true);
    await ours.close();
    for (const release of releases()) {
      const pi = piOpen(release, file);
      assertSameView(pi, view, `pi ${release.version}`);
      assert.equal(
        JSON.stringify(pi.context.messages).includes(PLAN_MODE_TYPE),
        false,
        `pi ${release.version}: no plan-mode line in the context`,
      );
      const copy = path.join(tmp.dir, `plan-continued-by-pi-${release.version}.jsonl`);
      fs.copyFileSync(file, copy);
      const { results } = piContinues(release, copy, [userMsg("one more", 9)]);
      const continued = await SessionManager.open(copy, { readOnly: true });
      assert.equal(continued.getLeafId(), results[0], `pi ${release.version}: its message is the leaf`);
      assert.equal(planMode(continued), true, `pi ${release.version}: the branch is still in plan mode`);
      await continued.close();
    }
  });
});
