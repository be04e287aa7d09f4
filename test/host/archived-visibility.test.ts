/**
 * The host owns whether archived branches show (src/host/archive/archived-visibility.ts): the palette's toggle changes it
 * in the host, a tree view that is not ready yet (being created or re-created) gets it in its snapshot on `ready`,
 * a ready view gets each change as `tree/update` `showArchived`, and the choice is kept in the workspace's state.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { SessionManager } from "../../src/core/index.js";
import { ArchivedVisibility, SHOW_ARCHIVED_KEY, type ChoiceStore } from "../../src/host/archive/archived-visibility.js";
import { TreeSync } from "../../src/host/tree/tree-sync.js";
import type { HostToWebview } from "../../src/shared/protocol.js";
import { createHarness, ofType } from "./controller-harness.js";

/** A workspaceState: values in a map, written at once. */
function memento(): ChoiceStore & { values: Map<string, unknown> } {
  const values = new Map<string, unknown>();
  return {
    values,
    get: (key) => values.get(key),
    update: async (key, value) => void values.set(key, value),
  };
}

/** root → main, and root → side (archived). */
function session(): { sm: SessionManager; side: string } {
  const sm = SessionManager.inMemory("/p");
  const root = sm.appendMessage({ role: "user", content: "q", timestamp: 1 });
  const side = sm.appendMessage({ role: "user", content: "side", timestamp: 2 });
  sm.branch(root);
  sm.appendMessage({ role: "user", content: "main", timestamp: 3 });
  sm.archiveBranch(side);
  return { sm, side };
}

/** The controller over a session, a tree view that drops what it is posted while not ready (AgentWebviewView). */
async function setup(store = memento()) {
  // Each refers to the other only when called (after both exist).
  const visibility: ArchivedVisibility = new ArchivedVisibility(store, (m) => {
    if (h.ready.tree) h.tree.push(m);
  });
  const h = createHarness({ showArchived: () => visibility.shown });
  const { sm, side } = session();
  await h.controller.attach(sm);
  h.tree.length = 0;
  /** The view says `ready` (the router: markReady, then the controller's snapshot). */
  const ready = (): Extract<HostToWebview, { type: "tree/snapshot" }> => {
    h.ready.tree = true;
    h.controller.pushTree();
    const snapshot = ofType(h.tree, "tree/snapshot").at(-1);
    assert.ok(snapshot, "a snapshot on ready");
    return snapshot;
  };
  return { h, visibility, store, side, ready };
}

test("toggled from the palette while the tree is not ready: its snapshot on ready shows archived rows", async () => {
  const { h, visibility, side, ready } = await setup();
  h.ready.tree = false;
  visibility.toggle();
  assert.deepEqual(h.tree, [], "nothing reaches a view that is not ready, and nothing is queued for it");
  const snapshot = ready();
  assert.deepEqual(snapshot.archived, [side]);
  assert.equal(snapshot.showArchived, true, "the archived rows show once the view is ready");
  await h.controller.close();
});

test("toggled twice while the tree is not ready: hidden in the snapshot on ready", async () => {
  const { h, visibility, ready } = await setup();
  h.ready.tree = false;
  visibility.toggle();
  visibility.toggle();
  assert.equal(visibility.shown, false);
  assert.equal(ready().showArchived, undefined, "hidden, as before the two toggles");
  await h.controller.close();
});

test("a ready tree gets each change, and the view's own request, as tree/update showArchived", async () => {
  const { h, visibility } = await setup();
  visibility.toggle();
  visibility.set(false);
  // The toolbar toggle asks for what the host has already: the view still gets its answer.
  visibility.set(false);
  assert.deepEqual(h.tree, [
    { type: "tree/update", showArchived: true },
    { type: "tree/update", showArchived: false },
    { type: "tree/update", showArchived: false },
  ]);
  await h.controller.close();
});

test("kept in the workspace's state: a reloaded window starts with the choice", async () => {
  const first = await setup();
  first.visibility.toggle();
  assert.equal(first.store.values.get(SHOW_ARCHIVED_KEY), true);
  await first.h.controller.close();
  const reloaded = await setup(first.store);
  assert.equal(reloaded.visibility.shown, true);
  assert.equal(reloaded.ready().showArchived, true);
  await reloaded.h.controller.close();
});

test("the snapshot after a deleted branch (a rewrite of the file) carries the choice too", async () => {
  const { sm, side } = session();
  const main = sm.getLeafId();
  sm.unarchiveBranch(side);
  const posted: HostToWebview[] = [];
  const sync = new TreeSync(
    sm,
    (m) => posted.push(m),
    () => true,
  );
  await sm.deleteBranch(side);
  sync.flush();
  const snapshot = ofType(posted, "tree/snapshot")[0];
  assert.equal(snapshot?.leafId, main);
  assert.equal(snapshot?.showArchived, true);
  sync.dispose();
});
