import assert from "node:assert/strict";
import fs from "node:fs";
import { afterEach, beforeEach, describe, it } from "node:test";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { newAgent } from "./helpers.js";
import { assistant, fileSession, SessionBuilder, user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

describe("fork", () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir();
  });
  afterEach(() => tmp.cleanup());

  async function session() {
    const sm = await fileSession(tmp.dir);
    const u1 = sm.appendMessage(user("first"));
    const a1 = sm.appendMessage(assistant("one"));
    const u2 = sm.appendMessage(user("second"));
    const a2 = sm.appendMessage(assistant("two"));
    return { sm, u1, a1, u2, a2 };
  }

  it("at a user message: copies the path up to its parent and returns its text; fires both hooks", async () => {
    const { sm, a1, u2, a2 } = await session();
    const { agent } = newAgent(sm);
    const seen: string[] = [];
    agent.hooks.on("session_before_fork", (e) => void seen.push(`before:${e.entryId}:${e.position}`));
    agent.hooks.on(
      "session_fork",
      (e) => void seen.push(`after:${e.previousSessionFile === sm.getSessionFile()}:${e.newSessionFile !== undefined}`),
    );
    const r = await agent.fork(u2);
    assert.equal(r.cancelled, false);
    assert.equal(r.editorText, "second");
    assert.ok(r.newSessionFile && fs.existsSync(r.newSessionFile));
    const forked = await SessionManager.open(r.newSessionFile);
    assert.deepEqual(
      forked.getPath().map((e) => e.id),
      [sm.getPath()[0].id, a1],
    );
    assert.equal(forked.getHeader().parentSession, sm.getSessionFile());
    await forked.close();
    assert.deepEqual(seen, [`before:${u2}:before`, "after:true:true"]);
    assert.equal(sm.getLeafId(), a2, "the current session is unchanged");
    await sm.close();
  });

  it("at an assistant message: the path includes it and there is no editor text", async () => {
    const { sm, a1 } = await session();
    const { agent } = newAgent(sm);
    const r = await agent.fork(a1);
    assert.equal(r.editorText, undefined);
    const forked = await SessionManager.open(r.newSessionFile!);
    assert.equal(forked.getLeafId(), a1);
    await forked.close();
    await sm.close();
  });

  it('"at" a user message (pi\'s /clone): the path includes it and there is no editor text', async () => {
    const { sm, u2 } = await session();
    const { agent } = newAgent(sm);
    const positions: string[] = [];
    agent.hooks.on("session_before_fork", (e) => void positions.push(e.position));
    const r = await agent.fork(u2, "at");
    assert.equal(r.editorText, undefined);
    assert.deepEqual(positions, ["at"], "hooks are told the fork keeps the entry");
    const forked = await SessionManager.open(r.newSessionFile!);
    assert.equal(forked.getLeafId(), u2);
    await forked.close();
    await sm.close();
  });

  it("at the root user message: a session with no entries", async () => {
    const { sm, u1 } = await session();
    const { agent } = newAgent(sm);
    const r = await agent.fork(u1);
    assert.equal(r.editorText, "first");
    const forked = await SessionManager.open(r.newSessionFile!);
    assert.equal(forked.getEntryCount(), 0);
    await forked.close();
    await sm.close();
  });

  it("of a named session: the fork keeps the name on its path, as pi's does, and knows the name came with it", async () => {
    const sm = await fileSession(tmp.dir);
    sm.appendMessage(user("first"));
    sm.appendSessionInfo("Release review");
    const a1 = sm.appendMessage(assistant("one"));
    const { agent } = newAgent(sm);
    const r = await agent.fork(a1);
    const forked = await SessionManager.open(r.newSessionFile!);
    // pi's createBranchedSession copies every entry of the path but labels: the session_info line too.
    assert.equal(forked.getSessionName(), "Release review");
    assert.equal(forked.isSessionNameInherited(), true);
    assert.equal(sm.isSessionNameInherited(), false, "the parent named itself");
    await forked.close();
    await sm.close();
  });

  it("a fork's name is its own once set after the fork; a session with no parent never inherits one", async () => {
    // A fork (its header names a parent) named in the fork, after its header: its own name.
    const own = new SessionBuilder().header({ parentSession: "/sessions/parent.jsonl" });
    own.message(user("first"));
    own.entry("session_info", { name: "Inherited" });
    own.entry("session_info", { name: "Fork name" });
    const ownFile = await SessionManager.open(own.write(tmp.dir, "own.jsonl"), { readOnly: true });
    assert.equal(ownFile.getSessionName(), "Fork name");
    assert.equal(ownFile.isSessionNameInherited(), false);
    await ownFile.close();
    // Entries older than the header (copied by the fork) under a header naming no parent: not a fork.
    const plain = new SessionBuilder().header({ timestamp: "2027-01-01T00:00:00.000Z" });
    plain.message(user("first"));
    plain.entry("session_info", { name: "Mine" });
    const plainFile = await SessionManager.open(plain.write(tmp.dir, "plain.jsonl"), { readOnly: true });
    assert.equal(plainFile.isSessionNameInherited(), false);
    await plainFile.close();
  });

  it("a hook can cancel; nothing is written", async () => {
    const { sm, u2 } = await session();
    const { agent } = newAgent(sm);
    agent.hooks.on("session_before_fork", () => ({ cancel: true }));
    const before = fs.readdirSync(tmp.dir).length;
    assert.deepEqual(await agent.fork(u2), { cancelled: true });
    assert.equal(fs.readdirSync(tmp.dir).length, before);
    await assert.rejects(agent.fork("missing1"), /no entry with id/);
    await sm.close();
  });
});
