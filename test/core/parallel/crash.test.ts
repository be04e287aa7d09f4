/**
 * A process running three branches is killed mid-run: every entry it acknowledged is in the file, the file opens
 * without damage, the leaf is where the user was, and the branches read as stopped, ordinary branches.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { crashReplies, crashSession, reopenAfterKill, runBranchesAndKill } from "./crash-helpers.js";

const fake = fakeServerForSuite();
const tmp = tempDirPerTest();

describe("parallel branches killed mid-run", { timeout: 90_000 }, () => {
  it("leave every acknowledged entry, the user's leaf, and stopped branches", async () => {
    fake.setDefault(crashReplies);
    const { file, leaf } = await crashSession(tmp.dir);
    // 3 user messages, 3 replies with a write, 3 tool results; then the slow answers stream when the kill comes.
    const acked = await runBranchesAndKill(file, fake.baseURL, tmp.dir, 9);
    const { sm, branches, runs } = await reopenAfterKill(file, acked, leaf);
    assert.equal(branches.length, 3);
    assert.deepEqual(
      branches.map((id) => runs.get(id)?.state),
      ["stopped", "stopped", "stopped"],
      "runs cut off read as stopped",
    );
    // The file stays writable: the main branch goes on.
    sm.appendMessage({ role: "user", content: "after the crash", timestamp: 3 });
    await sm.close();
  });
});
