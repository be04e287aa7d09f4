/**
 * The open session's folder deleted under the window: the editor says the file is gone (not "taken over"), keeps
 * showing everything, and Save Again writes it back and makes it writable again.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { readOnlyReason } from "../../src/host/session/continue-plan.js";
import { lockLostMessage } from "../../src/host/session/lock-choice.js";
import { tempDir } from "../util/temp-dir.js";
import { waitFor } from "../core/session/lock-helpers.js";
import { createHarness, ofType } from "./controller-harness.js";

test("a session whose folder is deleted turns read-only saying why, and Save Again brings it back", async () => {
  const { dir, cleanup } = tempDir("host-gone-");
  try {
    const folder = path.join(dir, "sessions");
    const seed = await SessionManager.create("/p", folder);
    seed.appendMessage({ role: "user", content: "hello", timestamp: 1 });
    await seed.close();
    const file = seed.getSessionFile() as string;
    const sm = await SessionManager.open(file, { lock: { heartbeatMs: 50 } });
    const h = createHarness();
    await h.controller.attach(sm);
    fs.rmSync(folder, { recursive: true, force: true });
    await waitFor(() => h.lockLost.length === 1, "the heartbeat to find the lock gone");
    assert.equal(h.controller.readOnlyReason(), readOnlyReason("fileGone"));
    assert.match(readOnlyReason("fileGone"), /deleted while it was open/);
    assert.equal(ofType(h.chat, "chat/snapshot").at(-1)?.noModelReason, readOnlyReason("fileGone"));
    assert.equal(ofType(h.tree, "tree/snapshot").at(-1)?.readOnly, true);
    assert.match(lockLostMessage("s.jsonl", undefined, "file-gone"), /was deleted .* Save Again/);
    assert.doesNotMatch(lockLostMessage("s.jsonl", undefined, "file-gone"), /taken over/);

    await h.controller.saveAgain(sm);
    assert.ok(ofType(h.tree, "tree/snapshot").at(-1)?.readOnly !== true, "writable again");
    assert.ok(fs.existsSync(file));
    sm.appendMessage({ role: "user", content: "after", timestamp: 2 });
    await h.controller.close();
    const reopened = await SessionManager.open(file, { readOnly: true });
    assert.equal(reopened.getEntryCount(), 2);
    await reopened.close();
  } finally {
    cleanup();
  }
});
