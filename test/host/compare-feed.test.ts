/**
 * The compare panel's host side without VS Code: messages validated as the panel's, the snapshot on ready (again
 * after a reload), pages of turns, reveal, and the files section's seam with a scripted provider.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { BranchComparison } from "../../src/core/compare/compare-branches.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { CompareFeed, type CompareFilesHost } from "../../src/host/compare/compare-feed.js";
import { validateCompareMessage } from "../../src/host/views/protocol-validation.js";
import type { HostToCompare } from "../../src/shared/protocol.js";
import { assistant, user } from "../util/session-builder.js";

function session(): { sm: SessionManager; left: string; right: string } {
  const sm = SessionManager.inMemory("/p");
  const root = sm.appendMessage(user("Start"));
  sm.appendMessage(user("Try A"));
  const left = sm.appendMessage(assistant("A works"));
  sm.branch(root);
  sm.appendMessage(user("Try B"));
  const right = sm.appendMessage(assistant("B works"));
  return { sm, left, right };
}

function feed(files?: CompareFilesHost) {
  const { sm, left, right } = session();
  const posted: HostToCompare[] = [];
  const revealed: string[] = [];
  const warnings: string[] = [];
  const f = new CompareFeed({
    comparison: BranchComparison.create(sm, left, right),
    post: (m) => posted.push(m),
    sessionName: "Demo",
    files,
    reveal: (id) => revealed.push(id),
    warn: (m) => warnings.push(m),
  });
  return { f, sm, left, right, posted, revealed, warnings };
}

test("ready gets the overview (every time, for a reloaded tab); pages come on request", async () => {
  const { f, left, posted } = feed();
  await f.handle({ type: "compare/ready" });
  assert.equal(posted.length, 1);
  const snap = posted[0];
  assert.equal(snap.type, "compare/snapshot");
  assert.equal(snap.type === "compare/snapshot" && snap.overview.left.entryId, left);
  assert.equal(snap.type === "compare/snapshot" && snap.sessionName, "Demo");
  await f.handle({ type: "compare/requestTurns", start: 0, count: 5 });
  const page = posted[1];
  assert.equal(page.type === "compare/turns" && page.turns.length, 1);
  await f.handle({ type: "compare/ready" });
  assert.equal(posted[2].type, "compare/snapshot");
});

test("reveal goes to the tree; without a files provider there is no files section and no file opens", async () => {
  const { f, left, posted, revealed } = feed();
  await f.handle({ type: "compare/reveal", entryId: left });
  assert.deepEqual(revealed, [left]);
  await f.handle({ type: "compare/ready" });
  await f.handle({ type: "compare/openFile", path: "src/a.ts" });
  assert.deepEqual(
    posted.map((m) => m.type),
    ["compare/snapshot"],
  );
});

test("with a files provider: the changed files follow the snapshot, and only a listed file opens", async () => {
  const opened: string[] = [];
  const asked: string[][] = [];
  const provider: CompareFilesHost = {
    async changedFiles(l, r) {
      asked.push([l, r]);
      return [{ path: "src/a.ts", change: "modified" }];
    },
    async openDiff(l, r, path) {
      opened.push(`${l}..${r}:${path}`);
    },
  };
  const { f, left, right, posted } = feed(provider);
  await f.handle({ type: "compare/ready" });
  assert.deepEqual(posted[1], { type: "compare/files", files: [{ path: "src/a.ts", change: "modified" }] });
  assert.deepEqual(asked, [[left, right]]);
  await f.handle({ type: "compare/openFile", path: "../../etc/passwd" });
  await f.handle({ type: "compare/openFile", path: "src/a.ts" });
  assert.deepEqual(opened, [`${left}..${right}:src/a.ts`]);
});

test("a failing provider becomes a warning and a status line, not an exception", async () => {
  const { f, posted, warnings } = feed({
    changedFiles: async () => {
      throw new Error("no checkpoint");
    },
    openDiff: async () => undefined,
  });
  await f.handle({ type: "compare/ready" });
  assert.equal(posted[0].type, "compare/snapshot");
  assert.deepEqual(posted[1], { type: "status", text: "Compare: compare/ready failed: no checkpoint", kind: "error" });
  assert.equal(warnings.length, 1);
});

test("the panel's messages are checked: known types, entry ids of the session, bounded numbers and paths", () => {
  const { sm, left } = session();
  const ctx = { hasEntry: (id: string) => sm.hasEntry(id) };
  const ok = (raw: unknown) => {
    const r = validateCompareMessage(raw, ctx);
    assert.ok(r.ok, `refused: ${r.ok ? "" : r.reason}`);
    return r.message;
  };
  const bad = (raw: unknown, why: RegExp) => {
    const r = validateCompareMessage(raw, ctx);
    assert.ok(!r.ok, `accepted ${JSON.stringify(raw)}`);
    assert.match(r.reason, why);
  };
  assert.deepEqual(ok({ type: "compare/ready", extra: "dropped" }), { type: "compare/ready" });
  assert.deepEqual(ok({ type: "compare/requestTurns", start: 40, count: 20 }), {
    type: "compare/requestTurns",
    start: 40,
    count: 20,
  });
  assert.deepEqual(ok({ type: "compare/reveal", entryId: left }), { type: "compare/reveal", entryId: left });
  assert.deepEqual(ok({ type: "compare/openFile", path: "src/a.ts" }), { type: "compare/openFile", path: "src/a.ts" });
  bad({ type: "compare/requestTurns", start: -1, count: 20 }, /start/);
  bad({ type: "compare/requestTurns", start: 0, count: 1e9 }, /count/);
  bad({ type: "compare/requestTurns", start: 0.5, count: 2 }, /start/);
  bad({ type: "compare/reveal", entryId: "nope" }, /unknown entry id/);
  bad({ type: "compare/openFile", path: "" }, /empty/);
  bad({ type: "compare/openFile", path: "x".repeat(5000) }, /too long/);
  bad({ type: "tree/navigate", entryId: left }, /unknown message type/);
  bad(null, /not an object/);
});
