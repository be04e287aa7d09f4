/**
 * A process whose agent runs two subagents is killed mid-run: every entry it acknowledged is in the file, the file
 * opens without damage, the leaf is the parent's call, and the subagents are ordinary branches off it.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { killSubagentsMidRun, subagentCrashReplies } from "./subagent-helpers.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

describe("subagents killed mid-run", { timeout: 90_000 }, () => {
  it("leave every acknowledged entry, the leaf on the parent's call, and ordinary branches", async () => {
    fake.setDefault(subagentCrashReplies);
    const { file, acked } = await killSubagentsMidRun(tmp.dir, fake.baseURL);

    const sm = await SessionManager.open(file);
    assert.deepEqual(sm.getLoadIssues(), [], "no damaged line");
    for (const id of acked) assert.ok(sm.hasEntry(id), `acknowledged entry ${id} is there`);
    const call = acked[1];
    assert.equal(sm.getEnvelope(call)?.role, "assistant");
    assert.equal(sm.getLeafId(), call, "the leaf is the parent's call");
    const branches = sm.getChildIds(call).filter((id) => sm.getEnvelope(id)?.role === "user");
    assert.equal(branches.length, 2, "two subagent branches off the call");
    for (const b of branches) {
      const below = sm.getChildIds(b).map((id) => sm.getEnvelope(id)?.role);
      assert.deepEqual(below, ["assistant"], "each subagent's reply is under its prompt");
    }
    // The file stays writable: the user goes on from the call.
    sm.appendMessage({ role: "user", content: "after the crash", timestamp: 3 });
    await sm.close();
  });
});
