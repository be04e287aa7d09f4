/** The hook API other extensions program against (pi's HookAPI, reduced to what this core supports). */
import type { HookEventMap, HookEventName, HookMessage, HookResultMap } from "./hook-events.js";
import type { ModelRegistry } from "../providers/model-registry.js";
import type { SessionManager } from "../session/session-manager.js";

/** Given to every handler: where the session is and how to read it. */
export interface HookContext {
  /** The folder the run's tools work in: the workspace, or a parallel branch's copy (tool_call). */
  cwd: string;
  sessionManager: SessionManager;
  modelRegistry?: ModelRegistry;
}

/** A handler of one hook event; may return a result (before-events, context) or nothing. */
export type HookHandler<E extends HookEventName> = (
  event: HookEventMap[E],
  ctx: HookContext,
) => HookResultMap[E] | void | undefined | Promise<HookResultMap[E] | void | undefined>;

/** Undoes a registration: call it, or call `.dispose()` (so it is a VS Code Disposable too). */
export type Unsubscribe = (() => void) & { dispose(): void };

/** A slash command registered by a hook; `prompt("/name args")` runs it instead of asking the model. */
export interface HookCommand {
  description?: string;
  handler: (args: string, ctx: HookContext) => void | Promise<void>;
}

/** Listing entry of getCommands(). */
export interface HookCommandInfo {
  name: string;
  description?: string;
}

/** What AgentSession.hooks offers (the VS Code host returns it from activate() as `api.hooks`). */
export interface HookAPI {
  /** Registers a handler; handlers run in registration order. */
  on<E extends HookEventName>(event: E, handler: HookHandler<E>): Unsubscribe;
  /**
   * Adds a custom_message to the session (the model sees it as a user message). While a prompt runs it
   * is added before the next model call; with `triggerTurn` and the agent idle, the model is asked to reply.
   */
  sendMessage<T = unknown>(message: HookMessage<T>, triggerTurn?: boolean): void;
  /** Appends hook state (a `custom` entry, never sent to the model); returns its id. */
  appendEntry<T = unknown>(customType: string, data?: T): string;
  /** Registers `/name`; a later registration of the same name replaces the earlier one. */
  registerCommand(name: string, command: HookCommand): Unsubscribe;
  /** The registered commands, sorted by name. */
  getCommands(): HookCommandInfo[];
}
