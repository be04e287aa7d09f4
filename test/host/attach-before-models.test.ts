/**
 * A session's tree does not wait for the model library: attach posts the tree snapshot while the models load (the
 * first session loads pi-ai and its catalog, up to seconds), and the chat, which needs the agent, follows once they
 * are there. The tree is posted once either way.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { createHarness, ofType, tick } from "./controller-harness.js";

function seeded(): SessionManager {
  const sm = SessionManager.inMemory("/tmp");
  sm.appendMessage({ role: "user", content: "first question", timestamp: 1 });
  return sm;
}

/** A promise and the function that resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

test("the tree snapshot is posted before the models are loaded; the chat follows them", async () => {
  const models = gate();
  const h = createHarness({ modelsLoaded: models.promise });
  const sm = seeded();
  const attached = h.controller.attach(sm);
  await tick();
  const [snap] = ofType(h.tree, "tree/snapshot");
  assert.ok(snap, "the tree came before the models");
  assert.equal(snap.leafId, sm.getLeafId());
  assert.deepEqual(ofType(h.chat, "chat/snapshot"), [], "the chat needs the agent: not yet");
  assert.equal(h.controller.agent, undefined);
  models.open();
  await attached;
  assert.equal(ofType(h.chat, "chat/snapshot").length, 1);
  assert.equal(ofType(h.tree, "tree/snapshot").length, 1, "the tree is not posted again");
  assert.equal(h.controller.sessionManager, sm);
  assert.equal(h.changed[0], sm);
  await h.controller.close();
});

test("a tree view that gets ready while the models load gets the tree then, once", async () => {
  const models = gate();
  const h = createHarness({ modelsLoaded: models.promise });
  h.ready.tree = false;
  const sm = seeded();
  const attached = h.controller.attach(sm);
  await tick();
  assert.deepEqual(ofType(h.tree, "tree/snapshot"), []);
  h.ready.tree = true;
  h.controller.pushTree();
  assert.equal(ofType(h.tree, "tree/snapshot").length, 1, "the view's ready is answered at once");
  models.open();
  await attached;
  assert.equal(ofType(h.tree, "tree/snapshot").length, 1, "and not again after the models");
  await h.controller.close();
});

test("a session closed while its models load is closed and never becomes the current one", async () => {
  const models = gate();
  const h = createHarness({ modelsLoaded: models.promise });
  const sm = seeded();
  let closed = false;
  const close = sm.close.bind(sm);
  sm.close = async () => {
    closed = true;
    await close();
  };
  const attached = h.controller.attach(sm);
  await tick();
  await h.controller.close();
  assert.equal(closed, true);
  models.open();
  await attached;
  assert.equal(h.controller.sessionManager, undefined);
  assert.deepEqual(ofType(h.chat, "chat/snapshot"), []);
});
