/** What the tree sync reads from appended entries, and what it posts for one user action. */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { SessionManager } from "../../src/core/index.js";
import { decodeRows } from "../../src/core/rows/row-columns.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { labelChangeOf, TreeSync } from "../../src/host/tree/tree-sync.js";
import { BRANCH_CHECK_TYPE } from "../../src/core/parallel/branch-check.js";
import { appendBranchRunLine, BRANCH_RUN_TYPE } from "../../src/core/parallel/branch-run-lines.js";
import { parserSession } from "./flow-session.js";
import { createHarness, ofType } from "./controller-harness.js";

test("label entries yield label changes; clearing has no label", () => {
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "x" }), { id: "a", label: "x" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a" }), { id: "a" });
  assert.deepEqual(labelChangeOf({ type: "label", targetId: "a", label: "" }), { id: "a" });
  assert.equal(labelChangeOf({ type: "message" }), undefined);
  assert.equal(labelChangeOf({ type: "label", targetId: 4 }), undefined);
});

type TreeUpdate = Extract<HostToWebview, { type: "tree/update" }>;

/**
 * Runs `action` on the parser session with a tree sync following it (flushed as at the end of the tick), checks
 * that the sync posted exactly one tree update carrying rows, and returns it with the kinds of those rows.
 */
function oneUpdateFor(action: (sm: SessionManager, ids: Record<string, string>) => void): {
  update: TreeUpdate;
  kinds: string[];
  ids: Record<string, string>;
} {
  const { sm, ids } = parserSession();
  const posted: HostToWebview[] = [];
  const sync = new TreeSync(sm, (m) => posted.push(m));
  sync.snapshot();
  action(sm, ids);
  sync.flush();
  sync.dispose();
  assert.equal(posted.length, 1);
  const [update] = posted;
  assert.ok(update.type === "tree/update" && update.rows);
  return { update, kinds: decodeRows(update.rows).map((r) => r.kind), ids };
}

// Each action is a row and a change; as one message the view flattens and draws its (possibly huge) tree once.
test("a move posts one tree update: the leaf marker's row and the new leaf", () => {
  const { update, kinds, ids } = oneUpdateFor((sm, ids) => sm.branch(ids.a2));
  assert.deepEqual(kinds, ["custom"]);
  assert.equal(update.leafId, ids.a2);
  assert.equal(update.labels, undefined);
  assert.equal(update.archived, undefined);
});

test("a label posts one tree update: the label entry's row and the label", () => {
  const { update, kinds, ids } = oneUpdateFor((sm, ids) => sm.appendLabelChange(ids.u1, "start"));
  assert.deepEqual(kinds, ["label"]);
  assert.deepEqual(update.labels, [{ id: ids.u1, label: "start" }]);
  assert.equal(update.leafId, undefined, "a label does not move the leaf");
});

test("an archive posts one tree update: the archive line's row and the archived branches", () => {
  const { update, kinds, ids } = oneUpdateFor((sm, ids) => sm.archiveBranch(ids.u2));
  assert.equal(kinds.length, 1);
  assert.deepEqual(update.archived, [ids.u2]);
});

test("a burst keeps the last label of an entry and the final leaf, rows in file order", () => {
  const { update, kinds, ids } = oneUpdateFor((sm, ids) => {
    sm.appendLabelChange(ids.u1, "one");
    sm.branch(ids.a2);
    sm.appendLabelChange(ids.u1, "two");
    sm.branch(ids.a3);
  });
  assert.deepEqual(kinds, ["label", "custom", "label", "custom"]);
  assert.deepEqual(update.labels, [{ id: ids.u1, label: "two" }]);
  assert.equal(update.leafId, ids.a3);
});

test("a branch's check record gives the row it checked its mark: sent again with it, and in a snapshot", () => {
  const data = (state: string, runId = "r1") => ({
    version: 1,
    state,
    command: "npm test",
    branchId: "b",
    timeoutSeconds: 300,
    sandboxed: true,
    runId,
    ...(state === "running" ? {} : { exitCode: 1, durationMs: 1200, output: "1 failing" }),
  });
  const { update, ids } = oneUpdateFor((sm, ids) => sm.appendCustomEntryAt(ids.a2, BRANCH_CHECK_TYPE, data("failed")));
  const rows = decodeRows(update.rows as NonNullable<TreeUpdate["rows"]>);
  const checked = rows.find((r) => r.id === ids.a2);
  assert.equal(checked?.check?.state, "failed");
  assert.match(checked?.check?.title ?? "", /^Check `npm test`: failed \(exit 1, 1\.2 s\)\n1 failing$/);

  const fresh = parserSession();
  fresh.sm.appendCustomEntryAt(fresh.ids.a2, BRANCH_CHECK_TYPE, data("running", "gone"));
  const snapshot = new TreeSync(fresh.sm, () => undefined).snapshot();
  const marked = decodeRows(snapshot.rows).find((r) => r.id === fresh.ids.a2);
  assert.equal(marked?.check?.state, "stopped", "a running record no check of this process ends was cut off");
  assert.equal(decodeRows(snapshot.rows).filter((r) => r.check).length, 1, "only the checked row has a mark");
});

test("a run line's row carries what its branch ran as (the row menu's parallel items), appended and in a snapshot", () => {
  const { update, ids } = oneUpdateFor((sm, ids) => {
    appendBranchRunLine(sm, ids.u2, { version: 1, kind: "explore", state: "running", groupId: "g" });
    appendBranchRunLine(sm, ids.a2, { version: 1, kind: "aside", state: "done", groupId: "h" });
  });
  // Only the run lines (the leaf's markers, which keep the user's leaf, come with them unmarked).
  const marks = decodeRows(update.rows!)
    .filter((r) => r.preview === BRANCH_RUN_TYPE)
    .map((r) => [r.parentId, r.branchRun]);
  assert.deepEqual(marks, [
    [ids.u2, "group"],
    [ids.a2, "aside"],
  ]);
  const { sm, ids: again } = parserSession();
  const at = again.u3;
  appendBranchRunLine(sm, at, { version: 1, kind: "replay", state: "done", groupId: "g" });
  appendBranchRunLine(sm, at, { version: 1, kind: "aside", state: "done", groupId: "g", continued: true });
  const sync = new TreeSync(sm, () => undefined);
  const rows = decodeRows(sync.snapshot().rows);
  sync.dispose();
  assert.deepEqual(
    rows.filter((r) => r.branchRun !== undefined).map((r) => r.branchRun),
    ["group", "continued"],
    "only run lines are marked; a continued aside says so",
  );
});

test("a snapshot encoded ahead, while the view loads, is the one its ready gets, unless something changed since", () => {
  const { sm, ids } = parserSession();
  let encoded = 0;
  const source = Object.create(sm) as SessionManager;
  source.getEnvelopes = () => {
    encoded++;
    return sm.getEnvelopes();
  };
  let showArchived = false;
  const sync = new TreeSync(
    source,
    () => undefined,
    () => showArchived,
  );
  sync.prepare();
  assert.equal(encoded, 1);
  const ahead = sync.snapshot();
  assert.equal(encoded, 1, "ready got the snapshot encoded ahead");
  assert.deepEqual(sync.snapshot(), ahead, "it is what encoding it now gives");
  assert.equal(encoded, 2, "a later snapshot (a reloaded view) is encoded anew");

  // The session changed after it was encoded: a move, then a label.
  sync.prepare();
  sm.branch(ids.a2);
  sm.appendLabelChange(ids.u1, "start");
  const moved = sync.snapshot();
  assert.equal(moved.leafId, ids.a2);
  assert.deepEqual(decodeRows(moved.rows).find((r) => r.id === ids.u1)?.label, "start");
  // What the snapshot shows besides the store changed: archived branches are shown now.
  sync.prepare();
  showArchived = true;
  assert.equal(sync.snapshot().showArchived, true);
  sync.dispose();
});

test("attach encodes the tree's snapshot while the tree view loads; its ready posts that one", async () => {
  const { sm } = parserSession();
  let encoded = 0;
  const getEnvelopes = sm.getEnvelopes.bind(sm);
  sm.getEnvelopes = () => {
    encoded++;
    return getEnvelopes();
  };
  const h = createHarness();
  h.ready.tree = false;
  await h.controller.attach(sm);
  assert.equal(ofType(h.tree, "tree/snapshot").length, 0, "nothing is posted to a view that is not loaded");
  assert.equal(encoded, 1, "the snapshot was encoded during attach");
  h.ready.tree = true;
  h.controller.pushTree();
  const [snap] = ofType(h.tree, "tree/snapshot");
  assert.equal(snap.leafId, sm.getLeafId());
  assert.equal(encoded, 1, "ready posted the snapshot encoded ahead");
  await h.controller.close();
});
