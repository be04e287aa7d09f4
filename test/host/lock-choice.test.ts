/** The dialog of a locked session, and a window whose lock is taken over: read-only, with the reason shown. */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { SessionLockLostError } from "../../src/core/session/errors.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { readOnlyReason } from "../../src/host/session/continue-plan.js";
import { lockedDialog, lockLostMessage } from "../../src/host/session/lock-choice.js";
import { tempDir } from "../util/temp-dir.js";
import { LockChild, lockDirOf, stalledWindow, waitFor } from "../core/session/lock-helpers.js";
import { createHarness, ofType } from "./controller-harness.js";

const holder = { pid: 4242, hostname: "box", time: "2026-01-01T00:00:00.000Z" };

test("a locked session offers Take Over only when the lock is unresponsive or damaged", () => {
  const now = Date.parse("2026-01-01T00:01:00.000Z");
  const refreshedAt = "2026-01-01T00:00:15.000Z";
  const unresponsive = lockedDialog(
    "s.jsonl",
    { condition: "unresponsive", canTakeOver: true, holder, refreshedAt },
    now,
  );
  assert.deepEqual(unresponsive.choices, ["Take Over", "Open Read-Only", "New Session"]);
  assert.match(unresponsive.message, /process 4242 on box, which has not refreshed its lock for 45 s/);
  const damaged = lockedDialog("s.jsonl", { condition: "damaged", canTakeOver: true, holder: undefined, refreshedAt });
  assert.deepEqual(damaged.choices, ["Take Over", "Open Read-Only", "New Session"]);
  assert.match(damaged.message, /damaged lock file/);
  for (const condition of ["live", "this-process", "busy"] as const) {
    const d = lockedDialog("s.jsonl", { condition, canTakeOver: false, holder, refreshedAt }, now);
    assert.deepEqual(d.choices, ["Open Read-Only", "New Session"], condition);
  }
  assert.match(lockLostMessage("s.jsonl", holder), /taken over by process 4242 on box/);
});

test("a window whose lock is taken over turns read-only, says why, and writes nothing more", async () => {
  const { dir, cleanup } = tempDir("host-lock-");
  const other = await LockChild.start();
  try {
    const seed = await SessionManager.create("/p", dir);
    seed.appendMessage({ role: "user", content: "hello", timestamp: 1 });
    await seed.close();
    const file = seed.getSessionFile() as string;
    // This window's round trips stall (its tab is gone) until the other process has taken over.
    const window = stalledWindow();
    const sm = await SessionManager.open(file, { lock: window.lock });
    const h = createHarness();
    await h.controller.attach(sm);
    const token = path.join(lockDirOf(file), fs.readdirSync(lockDirOf(file))[0]);
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(token, old, old);
    const asked = await other.send({ op: "open", file });
    assert.equal(asked.condition, "unresponsive");
    assert.equal((await other.send({ op: "open", file, options: { lock: { takeOver: asked.claim } } })).ok, true);
    window.answer();
    await waitFor(() => h.lockLost.length === 1, "the controller to hear of the lost lock");
    assert.equal(h.lockLost[0].pid, other.pid);
    assert.equal(ofType(h.chat, "chat/snapshot").at(-1)?.noModelReason, readOnlyReason("lockLost"));
    assert.equal(ofType(h.tree, "tree/snapshot").at(-1)?.readOnly, true);
    assert.equal(h.controller.readOnlyReason(), readOnlyReason("lockLost"));
    assert.throws(() => sm.appendMessage({ role: "user", content: "late", timestamp: 2 }), SessionLockLostError);
    await h.controller.close();
    await other.send({ op: "close" });
  } finally {
    await other.kill();
    cleanup();
  }
});
