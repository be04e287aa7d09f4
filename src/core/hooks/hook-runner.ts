/**
 * Keeps hook handlers and commands and runs them. A handler that throws is reported through `onError`
 * and skipped: one broken extension must not break navigation, compaction or prompting.
 */
import type { AgentMessage } from "../messages.js";
import type { HookEventMap, HookEventName, HookMessage, HookResultMap } from "./hook-events.js";
import type { HookCommand, HookCommandInfo, HookContext, HookHandler, Unsubscribe } from "./types.js";
import { errorText } from "../error-text.js";

/** Wraps a function as an {@link Unsubscribe}. Calling it twice is harmless. */
export function toUnsubscribe(fn: () => void): Unsubscribe {
  let done = false;
  const off = (() => {
    if (done) return;
    done = true;
    fn();
  }) as Unsubscribe;
  off.dispose = off;
  return off;
}

type AnyHandler = (event: never, ctx: HookContext) => unknown;

/** Event names whose handlers may cancel; the first cancel stops the remaining handlers. */
type BeforeEvent = "session_before_tree" | "session_before_fork" | "session_before_compact";
/** Event names that only notify. */
type NotifyEvent = "session_tree" | "session_fork" | "session_compact";

/** Registry and dispatcher of hook handlers and commands. */
export class HookRunner {
  private readonly handlers = new Map<HookEventName, AnyHandler[]>();
  private readonly commands = new Map<string, HookCommand>();

  /**
   * @param getContext builds the context handed to each handler.
   * @param onError told about every handler that threw (message names the event).
   */
  constructor(
    private readonly getContext: () => HookContext,
    private readonly onError: (message: string) => void,
  ) {}

  /** Registers a handler. */
  on<E extends HookEventName>(event: E, handler: HookHandler<E>): Unsubscribe {
    if (typeof handler !== "function") throw new TypeError(`Hook handler for "${event}" must be a function`);
    const list = this.handlers.get(event) ?? [];
    const h = handler as AnyHandler;
    list.push(h);
    this.handlers.set(event, list);
    return toUnsubscribe(() => {
      const current = this.handlers.get(event);
      const i = current?.indexOf(h) ?? -1;
      if (current && i >= 0) current.splice(i, 1);
    });
  }

  /** True when some handler listens to `event` (lets callers skip building payloads). */
  has(event: HookEventName): boolean {
    return (this.handlers.get(event)?.length ?? 0) > 0;
  }

  private async call<E extends HookEventName>(
    event: E,
    payload: HookEventMap[E],
    handler: AnyHandler,
    context?: Partial<HookContext>,
  ): Promise<HookResultMap[E] | undefined> {
    try {
      const ctx = context ? { ...this.getContext(), ...context } : this.getContext();
      const result = await (handler as unknown as HookHandler<E>)(payload, ctx);
      return result === undefined || result === null ? undefined : (result as HookResultMap[E]);
    } catch (err) {
      this.onError(`Hook "${event}" failed: ${errorText(err)}`);
      return undefined;
    }
  }

  /**
   * Runs the handlers of a before-event in order and merges their results (later fields win);
   * stops at the first result with `cancel: true`.
   */
  async emitBefore<E extends BeforeEvent>(event: E, payload: HookEventMap[E]): Promise<HookResultMap[E] | undefined> {
    let merged: HookResultMap[E] | undefined;
    for (const h of [...(this.handlers.get(event) ?? [])]) {
      const result = await this.call(event, payload, h);
      if (!result || typeof result !== "object") continue;
      merged = { ...(merged ?? {}), ...result } as HookResultMap[E];
      if ((result as { cancel?: boolean }).cancel === true) break;
    }
    return merged;
  }

  /** Runs the handlers of a notification event in order. */
  async emit<E extends NotifyEvent>(event: E, payload: HookEventMap[E]): Promise<void> {
    for (const h of [...(this.handlers.get(event) ?? [])]) await this.call(event, payload, h);
  }

  /**
   * Passes the messages about to be sent through every `context` handler in turn; each sees the
   * previous one's output. A result that is not an array of messages is reported and ignored.
   */
  async emitContext(messages: AgentMessage[]): Promise<AgentMessage[]> {
    let current = messages;
    for (const h of [...(this.handlers.get("context") ?? [])]) {
      const result = await this.call("context", { type: "context", messages: [...current] }, h);
      if (result?.messages === undefined) continue;
      if (!Array.isArray(result.messages) || !result.messages.every(isMessageLike)) {
        this.onError('Hook "context" returned messages that are not an array of messages; ignored');
        continue;
      }
      current = result.messages;
    }
    return current;
  }

  /**
   * Runs the before_agent_start handlers in order. Each sees `systemPrompt` as it stands after the earlier ones:
   * the last text a handler returned, else `render()` of the options as the handlers left them. Returns the text
   * to send instead of the sections (when a handler returned one) and the messages handlers asked to add.
   */
  async emitBeforeAgentStart(
    event: HookEventMap["before_agent_start"],
    render: () => string,
  ): Promise<{ systemPrompt?: string; messages: HookMessage[] }> {
    let forced: string | undefined;
    const messages: HookMessage[] = [];
    for (const h of [...(this.handlers.get("before_agent_start") ?? [])]) {
      try {
        event.systemPrompt = forced ?? render();
      } catch (err) {
        this.onError(`Hook "before_agent_start" failed: ${errorText(err)}`);
        break;
      }
      const result = await this.call("before_agent_start", event, h);
      if (!result || typeof result !== "object") continue;
      if (typeof result.systemPrompt === "string") forced = result.systemPrompt;
      const m = result.message;
      if (m && typeof m.customType === "string" && (typeof m.content === "string" || Array.isArray(m.content)))
        messages.push({ ...m, display: m.display !== false });
      else if (m !== undefined)
        this.onError('Hook "before_agent_start" returned a message without customType or content; ignored');
    }
    return { ...(forced !== undefined ? { systemPrompt: forced } : {}), messages };
  }

  /**
   * Runs the tool_call handlers in order, each with `context` over the session's (the run's folder); stops at the
   * first that blocks and returns its result (undefined: nobody blocked).
   */
  async emitToolCall(
    event: HookEventMap["tool_call"],
    context?: Partial<HookContext>,
  ): Promise<HookResultMap["tool_call"] | undefined> {
    for (const h of [...(this.handlers.get("tool_call") ?? [])]) {
      const result = await this.call("tool_call", event, h, context);
      if (result && typeof result === "object" && result.block === true) return result;
    }
    return undefined;
  }

  /** Registers a command (name without the slash). */
  registerCommand(name: string, command: HookCommand): Unsubscribe {
    const clean = name.replace(/^\//, "").trim();
    if (!/^[\w-][\w.:-]*$/.test(clean)) throw new Error(`Invalid command name "${name}": use letters, digits, - _ . :`);
    if (typeof command?.handler !== "function") throw new TypeError(`Command "${clean}" needs a handler function`);
    this.commands.set(clean, command);
    return toUnsubscribe(() => {
      if (this.commands.get(clean) === command) this.commands.delete(clean);
    });
  }

  /** The command for `name`, if registered. */
  getCommand(name: string): HookCommand | undefined {
    return this.commands.get(name);
  }

  /** Registered commands, sorted by name. */
  getCommands(): HookCommandInfo[] {
    return [...this.commands.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, c]) => (c.description === undefined ? { name } : { name, description: c.description }));
  }

  /**
   * Runs `/name args` if `text` is a registered command. Returns false when it is not one (so the text
   * goes to the model); a throwing command is reported and still counts as handled.
   */
  async runCommand(text: string): Promise<boolean> {
    const match = /^\/([^\s]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
    if (!match) return false;
    const command = this.commands.get(match[1]);
    if (!command) return false;
    try {
      await command.handler((match[2] ?? "").trim(), this.getContext());
    } catch (err) {
      this.onError(`Command "/${match[1]}" failed: ${errorText(err)}`);
    }
    return true;
  }

  /** Drops every handler and command. */
  clear(): void {
    this.handlers.clear();
    this.commands.clear();
  }
}

function isMessageLike(m: unknown): m is AgentMessage {
  return typeof m === "object" && m !== null && typeof (m as { role?: unknown }).role === "string";
}
