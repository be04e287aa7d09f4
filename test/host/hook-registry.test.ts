import { test } from "node:test";
import assert from "node:assert/strict";
import type { HookAPI } from "../../src/core/hooks/types.js";
import { HookRegistry, NoSessionError } from "../../src/host/hooks/hook-registry.js";

/** A minimal per-session HookAPI that records what was registered on it. */
class SessionHooks {
  readonly handlers = new Map<string, unknown[]>();
  readonly commands: string[] = [];
  readonly appended: string[] = [];
  on(event: string, handler: unknown): (() => void) & { dispose(): void } {
    const list = this.handlers.get(event) ?? [];
    list.push(handler);
    this.handlers.set(event, list);
    const off = (): void => void list.splice(list.indexOf(handler), 1);
    return Object.assign(off, { dispose: off });
  }
  registerCommand(name: string): (() => void) & { dispose(): void } {
    this.commands.push(name);
    const off = (): void => void this.commands.splice(this.commands.indexOf(name), 1);
    return Object.assign(off, { dispose: off });
  }
  sendMessage(): void {}
  appendEntry(customType: string): string {
    this.appended.push(customType);
    return "id1";
  }
  getCommands(): { name: string }[] {
    return this.commands.map((name) => ({ name }));
  }
  asApi(): HookAPI {
    return this as unknown as HookAPI;
  }
}

test("registrations made before any session apply when one attaches, and survive a switch", () => {
  const reg = new HookRegistry();
  const handler = (): undefined => undefined;
  reg.api.on("session_before_tree", handler);
  reg.api.registerCommand("prune", { handler: async () => undefined });
  const s1 = new SessionHooks();
  reg.attach(s1.asApi());
  assert.equal(s1.handlers.get("session_before_tree")?.[0], handler);
  assert.deepEqual(s1.commands, ["prune"]);
  const s2 = new SessionHooks();
  reg.attach(s2.asApi());
  assert.equal(s2.handlers.get("session_before_tree")?.length, 1);
  assert.deepEqual(reg.api.getCommands(), [{ name: "prune" }]);
});

test("unsubscribing removes the handler from the current session and from later ones", () => {
  const reg = new HookRegistry();
  const s1 = new SessionHooks();
  reg.attach(s1.asApi());
  const off = reg.api.on("context", () => undefined);
  assert.equal(s1.handlers.get("context")?.length, 1);
  off.dispose();
  assert.equal(s1.handlers.get("context")?.length, 0);
  const s2 = new SessionHooks();
  reg.attach(s2.asApi());
  assert.equal(s2.handlers.get("context"), undefined);
  assert.equal(reg.size(), 0);
});

test("session methods forward to the current session, and fail clearly with none", () => {
  const reg = new HookRegistry();
  assert.throws(() => reg.api.appendEntry("x"), NoSessionError);
  assert.deepEqual(reg.api.getCommands(), []);
  const s = new SessionHooks();
  reg.attach(s.asApi());
  assert.equal(reg.api.appendEntry("my-state", { a: 1 }), "id1");
  assert.deepEqual(s.appended, ["my-state"]);
  reg.attach(undefined);
  assert.throws(() => reg.api.appendEntry("x"), /No Agent Tree session is open/);
});
