/**
 * The hook API the extension hands out (activate() → api.hooks). Each AgentSession has its own
 * HookAPI, but other extensions and workspace hook files register once: this registry remembers
 * their registrations and re-applies them to every new session, so they survive a session switch.
 * Pure: no `vscode` import.
 */

import type { HookAPI, HookCommand, HookHandler, Unsubscribe } from "../../core/hooks/types.js";
import type { HookEventName } from "../../core/hooks/hook-events.js";

type AnyHandler = HookHandler<HookEventName>;

type Registration =
  { kind: "on"; event: HookEventName; handler: AnyHandler } | { kind: "command"; name: string; command: HookCommand };

/** Thrown when a hook calls a session method while no session is open. */
export class NoSessionError extends Error {
  override readonly name = "NoSessionError";
  constructor() {
    super("No Agent Tree session is open. Open the Agent view or run 'Agent: New Session' first.");
  }
}

/** Host-level hook registrations, re-applied to each session's HookAPI. */
export class HookRegistry {
  private readonly registrations: Registration[] = [];
  private current: HookAPI | undefined;
  /** Undo functions of the registrations applied to the current session. */
  private readonly applied = new Map<Registration, () => void>();

  /** The object handed to other extensions; same identity across sessions. */
  readonly api: HookAPI = {
    on: (event, handler) => this.add({ kind: "on", event, handler: handler as AnyHandler }),
    registerCommand: (name, command) => this.add({ kind: "command", name, command }),
    sendMessage: (message, triggerTurn) => this.session().sendMessage(message, triggerTurn),
    appendEntry: (customType, data) => this.session().appendEntry(customType, data),
    getCommands: () => (this.current ? this.current.getCommands() : []),
  };

  /** Point the registry at a new session's hooks (or none) and replay every registration there. */
  attach(hooks: HookAPI | undefined): void {
    this.applied.clear();
    this.current = hooks;
    if (hooks) for (const r of this.registrations) this.apply(r);
  }

  /** How many registrations are held (for diagnostics and tests). */
  size(): number {
    return this.registrations.length;
  }

  private add(r: Registration): Unsubscribe {
    this.registrations.push(r);
    if (this.current) this.apply(r);
    const off = (): void => {
      const i = this.registrations.indexOf(r);
      if (i >= 0) this.registrations.splice(i, 1);
      this.applied.get(r)?.();
      this.applied.delete(r);
    };
    return Object.assign(off, { dispose: off });
  }

  private apply(r: Registration): void {
    const hooks = this.current;
    if (!hooks) return;
    const off = r.kind === "on" ? hooks.on(r.event, r.handler) : hooks.registerCommand(r.name, r.command);
    // Tolerate hook APIs whose registration returns nothing (older cores, test doubles).
    if (typeof off === "function") this.applied.set(r, off);
  }

  private session(): HookAPI {
    if (!this.current) throw new NoSessionError();
    return this.current;
  }
}
