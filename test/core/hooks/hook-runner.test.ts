import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { HookRunner } from "../../../src/core/hooks/hook-runner.js";
import type { HookContext } from "../../../src/core/hooks/types.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import type { AgentMessage } from "../../../src/core/messages.js";

function runner(): { hooks: HookRunner; errors: string[]; ctx: HookContext } {
  const errors: string[] = [];
  const ctx: HookContext = { cwd: "/tmp/x", sessionManager: SessionManager.inMemory("/tmp/x") };
  return {
    hooks: new HookRunner(
      () => ctx,
      (e) => errors.push(e),
    ),
    errors,
    ctx,
  };
}
const fork = { type: "session_before_fork" as const, entryId: "abc", position: "before" as const };

describe("HookRunner", () => {
  it("passes the context, merges results in order and stops at the first cancel", async () => {
    const { hooks, ctx } = runner();
    const seen: string[] = [];
    hooks.on("session_before_fork", (e, c) => {
      assert.equal(c, ctx);
      seen.push(`a:${e.entryId}`);
      return { skipConversationRestore: true };
    });
    hooks.on("session_before_fork", () => {
      seen.push("b");
      return { cancel: true };
    });
    hooks.on("session_before_fork", () => {
      seen.push("c");
    });
    assert.deepEqual(await hooks.emitBefore("session_before_fork", fork), {
      skipConversationRestore: true,
      cancel: true,
    });
    assert.deepEqual(seen, ["a:abc", "b"]);
  });
  it("reports a throwing handler and keeps running the others", async () => {
    const { hooks, errors } = runner();
    hooks.on("session_before_fork", () => {
      throw new Error("boom");
    });
    hooks.on("session_before_fork", async () => ({ cancel: true }));
    assert.deepEqual(await hooks.emitBefore("session_before_fork", fork), { cancel: true });
    assert.equal(errors.length, 1);
    assert.match(errors[0], /session_before_fork.*boom/);
  });
  it("on() returns an unsubscribe that is also a Disposable", async () => {
    const { hooks } = runner();
    let calls = 0;
    const off = hooks.on("session_fork", () => {
      calls++;
    });
    await hooks.emit("session_fork", { type: "session_fork" });
    off.dispose();
    off();
    await hooks.emit("session_fork", { type: "session_fork" });
    assert.equal(calls, 1);
    assert.equal(hooks.has("session_fork"), false);
  });
  it("chains context handlers and ignores a malformed result", async () => {
    const { hooks, errors } = runner();
    const m = (text: string): AgentMessage => ({ role: "user", content: text, timestamp: 1 });
    hooks.on("context", (e) => ({ messages: [...e.messages, m("added")] }));
    hooks.on("context", () => ({ messages: "nope" as unknown as AgentMessage[] }));
    hooks.on("context", (e) => ({ messages: e.messages.filter((x) => x.role === "user" && x.content !== "drop") }));
    const out = await hooks.emitContext([m("drop"), m("keep")]);
    assert.deepEqual(
      out.map((x) => (x.role === "user" ? x.content : "")),
      ["keep", "added"],
    );
    assert.equal(errors.length, 1);
  });
  it("runs registered commands with their arguments and reports failures", async () => {
    const { hooks, errors } = runner();
    const got: string[] = [];
    hooks.registerCommand("greet", { description: "Say hi", handler: (args) => void got.push(args) });
    hooks.registerCommand("/bad", {
      handler: () => {
        throw new Error("nope");
      },
    });
    assert.deepEqual(hooks.getCommands(), [{ name: "bad" }, { name: "greet", description: "Say hi" }]);
    assert.equal(await hooks.runCommand("/greet  Ada  Lovelace "), true);
    assert.deepEqual(got, ["Ada  Lovelace"]);
    assert.equal(await hooks.runCommand("/unknown x"), false);
    assert.equal(await hooks.runCommand("/bad"), true);
    assert.match(errors[0], /\/bad.*nope/);
    assert.throws(() => hooks.registerCommand("has space", { handler: () => undefined }), /Invalid command name/);
  });
});
