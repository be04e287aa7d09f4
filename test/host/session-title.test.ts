/**
 * The tree view's title: the session's name, marked when it came with a fork (pi copies the name into the fork's
 * file) or the session is read-only.
 */
import assert from "node:assert/strict";
import { afterEach, beforeEach, describe, it, mock } from "node:test";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { sessionTitle } from "../../src/host/session/session-title.js";
import { assistant, fileSession, user } from "../util/session-builder.js";
import { tempDir } from "../util/temp-dir.js";

describe("sessionTitle", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  it("a fork of a named session says it is the fork until it is named; the parent keeps its name", async () => {
    const sm = await fileSession(tmp.dir);
    sm.appendMessage(user("first"));
    sm.appendSessionInfo("Release review");
    const a1 = sm.appendMessage(assistant("one"));
    const forkFile = (await sm.createBranchedSession(a1)) as string;
    assert.equal(sessionTitle(sm), "Release review");
    const fork = await SessionManager.open(forkFile);
    assert.equal(sessionTitle(fork), "Release review (fork)");
    // Named in the fork (a minute on, so its time is surely after the fork's): the fork's own name, unmarked.
    mock.timers.enable({ apis: ["Date"], now: Date.now() + 60_000 });
    try {
      fork.appendSessionInfo("Review, second try");
    } finally {
      mock.timers.reset();
    }
    assert.equal(sessionTitle(fork), "Review, second try");
    await fork.close();
    const fork2 = (await sm.createBranchedSession(a1)) as string;
    const view = await SessionManager.open(fork2, { readOnly: true });
    assert.equal(sessionTitle(view), "Release review (fork, read-only)");
    await view.close();
    await sm.close();
  });
});
