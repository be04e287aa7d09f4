/**
 * The blank-view recovery policy (src/host/views/webview-ready-watchdog.ts) with mock timers: when a view is
 * re-created, how often, one view at a time, and when it gives up. The end-to-end side (a real code-server
 * whose views race on their service worker) is test/e2e/webview-reload.test.ts.
 */
import assert from "node:assert/strict";
import { beforeEach, describe, it, mock } from "node:test";
import { OneAtATime, ReadyWatchdog } from "../../src/host/views/webview-ready-watchdog.js";

const TIMEOUT = 1000;
const MAX = 3;

/** Lets promise chains (queue, recreate) run between timer ticks. */
async function settle(): Promise<void> {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
}

/** Advances the mock clock in small steps, settling promises in between. */
async function advance(ms: number): Promise<void> {
  for (let t = 0; t < ms; t += 100) {
    mock.timers.tick(100);
    await settle();
  }
}

interface FakeView {
  watchdog: ReadyWatchdog;
  visible: boolean;
  recreated: number[];
  gaveUp: number;
  /** What a re-created frame does: nothing (stays blank) unless set. */
  onRecreate?: () => void;
}

function fakeView(queue: OneAtATime, log?: string[], name = "view", now?: () => number): FakeView {
  const state = {
    visible: true,
    recreated: [] as number[],
    gaveUp: 0,
    onRecreate: undefined as (() => void) | undefined,
  };
  const v: FakeView = Object.assign(state, {
    watchdog: new ReadyWatchdog({
      timeoutMs: TIMEOUT,
      maxAttempts: MAX,
      queue,
      isVisible: () => v.visible,
      recreate: async (attempt) => {
        log?.push(`${name} start ${attempt}`);
        v.recreated.push(attempt);
        await settle();
        log?.push(`${name} end ${attempt}`);
        v.onRecreate?.();
      },
      giveUp: () => v.gaveUp++,
      now,
    }),
  });
  return v;
}

describe("ReadyWatchdog", () => {
  beforeEach(() => {
    mock.timers.reset();
    mock.timers.enable({ apis: ["setTimeout"] });
  });

  it("leaves a view alone that says ready in time", async () => {
    const v = fakeView(new OneAtATime());
    v.watchdog.expect();
    await advance(TIMEOUT - 100);
    v.watchdog.ready();
    await advance(TIMEOUT * 5);
    assert.deepEqual(v.recreated, []);
    assert.equal(v.gaveUp, 0);
  });

  it("re-creates a blank view after the timeout; a view that then says ready is left alone", async () => {
    const v = fakeView(new OneAtATime());
    v.onRecreate = () => v.watchdog.ready();
    v.watchdog.expect();
    await advance(TIMEOUT + 100);
    assert.deepEqual(v.recreated, [1]);
    await advance(TIMEOUT * 5);
    assert.deepEqual(v.recreated, [1], "no further attempt once ready");
    assert.equal(v.gaveUp, 0);
  });

  it("tries a bounded number of times, then gives up once and stays quiet", async () => {
    const v = fakeView(new OneAtATime());
    v.watchdog.expect();
    await advance(TIMEOUT * (MAX + 3));
    assert.deepEqual(v.recreated, [1, 2, 3]);
    assert.equal(v.gaveUp, 1);
    // A re-resolved frame (the view shown again) does not start another round by itself.
    v.watchdog.expect();
    await advance(TIMEOUT * 3);
    assert.deepEqual(v.recreated, [1, 2, 3]);
    assert.equal(v.gaveUp, 1);
  });

  it("does not re-create a hidden view; showing it again starts the clock again", async () => {
    const v = fakeView(new OneAtATime());
    v.watchdog.expect();
    await advance(TIMEOUT / 2);
    v.visible = false;
    v.watchdog.pause();
    await advance(TIMEOUT * 3);
    assert.deepEqual(v.recreated, []);
    v.visible = true;
    v.watchdog.expect();
    await advance(TIMEOUT + 100);
    assert.deepEqual(v.recreated, [1]);
  });

  it("re-creates one view at a time, the next only after the first had its chance", async () => {
    const queue = new OneAtATime();
    const log: string[] = [];
    const tree = fakeView(queue, log, "tree");
    const chat = fakeView(queue, log, "chat");
    tree.onRecreate = () => setTimeout(() => tree.watchdog.ready(), TIMEOUT / 2);
    chat.onRecreate = () => chat.watchdog.ready();
    tree.watchdog.expect();
    chat.watchdog.expect();
    await advance(TIMEOUT + 100);
    assert.deepEqual(log, ["tree start 1", "tree end 1"], "the chat waits while the tree's new frame loads");
    await advance(TIMEOUT);
    assert.deepEqual(log, ["tree start 1", "tree end 1", "chat start 1", "chat end 1"]);
    await advance(TIMEOUT * 5);
    assert.equal(log.length, 4);
  });

  it("Reload View after giving up starts a fresh round", async () => {
    const v = fakeView(new OneAtATime());
    v.watchdog.expect();
    await advance(TIMEOUT * (MAX + 3));
    assert.equal(v.gaveUp, 1);
    v.onRecreate = () => v.watchdog.ready();
    const retried = v.watchdog.retry();
    await settle();
    await retried;
    assert.deepEqual(v.recreated, [1, 2, 3, 1]);
    assert.equal(v.gaveUp, 1);
  });

  /** A view whose watchdog's timer fired late: the host was blocked for six timeouts while the clock ran. */
  function lateTimer() {
    const clock = { now: 0 };
    const v = fakeView(new OneAtATime(), undefined, "view", () => clock.now);
    v.watchdog.expect();
    clock.now = TIMEOUT * 6;
    mock.timers.tick(TIMEOUT);
    return { v, clock };
  }

  it("a timer that fired late (the host was busy) first lets the view's `ready` that arrived meanwhile in", async () => {
    // The extension host was blocked (opening a big session) past the deadline: Node runs the expired timer
    // before the messages that waited, the view's `ready` among them. It must not be taken for a blank view.
    const { v } = lateTimer();
    for (let i = 0; i < 5; i++) await Promise.resolve();
    v.watchdog.ready();
    await settle();
    await advance(TIMEOUT * 3);
    assert.deepEqual(v.recreated, []);
  });

  it("a late timer gives the view its full time again; a view still blank then is re-created", async () => {
    const { v, clock } = lateTimer();
    await settle();
    assert.deepEqual(v.recreated, [], "re-created while the host was busy");
    // From now on the host answers: the clock runs with the timers.
    for (let t = 0; t < TIMEOUT + 200; t += 100) {
      clock.now += 100;
      mock.timers.tick(100);
      await settle();
    }
    assert.deepEqual(v.recreated, [1]);
  });
});
