/**
 * The tree's side of archive and delete: the snapshot names the archived branches, an archive or unarchive line
 * sends the archived branches in `tree/update`, and a deleted branch (a rewrite of the file) sends a whole new snapshot.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { SessionManager } from "../../src/core/index.js";
import { decodeRows } from "../../src/core/rows/row-columns.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { TreeSync } from "../../src/host/tree/tree-sync.js";

function session(): { sm: SessionManager; a: string; side: string; main: string } {
  const sm = SessionManager.inMemory("/p");
  const a = sm.appendMessage({ role: "user", content: "q", timestamp: 1 });
  const side = sm.appendMessage({ role: "user", content: "side", timestamp: 2 });
  sm.branch(a);
  const main = sm.appendMessage({ role: "user", content: "main", timestamp: 3 });
  return { sm, a, side, main };
}

test("archive and unarchive lines send the archived branches; the snapshot names them", () => {
  const { sm, side } = session();
  const posted: HostToWebview[] = [];
  const sync = new TreeSync(sm, (m) => posted.push(m));
  assert.equal(sync.snapshot().archived, undefined);
  sm.archiveBranch(side);
  sync.flush();
  assert.deepEqual(
    posted.map((m) => (m.type === "tree/update" ? m.archived : m.type)),
    [[side]],
  );
  assert.deepEqual(sync.snapshot().archived, [side]);
  posted.length = 0;
  sm.unarchiveBranch(side);
  sync.flush();
  assert.deepEqual(
    posted.map((m) => (m.type === "tree/update" ? m.archived : m.type)),
    [[]],
  );
  sync.dispose();
});

test("a deleted branch sends a new snapshot without it", async () => {
  const { sm, side, main } = session();
  const posted: HostToWebview[] = [];
  const sync = new TreeSync(sm, (m) => posted.push(m));
  await sm.deleteBranch(side);
  sync.flush();
  const snap = posted.find((m) => m.type === "tree/snapshot");
  assert.ok(snap && snap.type === "tree/snapshot");
  const ids = decodeRows(snap.rows).map((n) => n.id);
  assert.equal(ids.includes(side), false);
  assert.ok(ids.includes(main));
  assert.equal(snap.leafId, main);
  sync.dispose();
});
