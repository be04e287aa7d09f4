/**
 * Turns AgentSession events into chat messages: a streamed reply keeps one temporary id until it is
 * stored, then the stored row replaces it (`replaces`). Streaming updates are coalesced to at most
 * one post per `intervalMs` so a fast model does not flood the webview. Pure: no `vscode` import.
 */
import type { AgentEvent } from "../core/agent/events.js";
import type { AgentMessage } from "../core/messages.js";
import type { HostToWebview } from "../shared/protocol.js";
import { messageToDto } from "./chat-dto.js";

/** What the chat sync reports besides webview posts. */
export interface ChatSyncHooks {
  /** A prompt finished or a compaction ended: refresh the snapshot (usage line, compacted path). */
  onSettled(): void;
  /** Streaming started or stopped (context key for Escape/Abort). */
  onStreaming(streaming: boolean): void;
}

/** Mirrors one AgentSession's events into the chat view. */
export class ChatSync {
  private seq = 0;
  private tempAssistant: string | undefined;
  private tempUser: string | undefined;
  private pendingUpdate: AgentMessage | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly post: (msg: HostToWebview) => void,
    private readonly hooks: ChatSyncHooks,
    private readonly intervalMs = 50,
  ) {}

  /** Handle one event. */
  handle(e: AgentEvent): void {
    switch (e.type) {
      case "agent_start":
        this.post({ type: "chat/streaming", streaming: true });
        this.hooks.onStreaming(true);
        break;
      case "agent_end":
        this.flushUpdate();
        this.tempAssistant = this.tempUser = undefined;
        this.post({ type: "chat/streaming", streaming: false });
        this.hooks.onStreaming(false);
        this.hooks.onSettled();
        break;
      case "message_start":
        this.onStart(e.message);
        break;
      case "message_update":
        this.tempAssistant ??= this.nextId();
        this.pendingUpdate = e.message;
        this.timer ??= setTimeout(() => this.flushUpdate(), this.intervalMs);
        break;
      case "message_end":
        this.onEnd(e.message, e.entryId);
        break;
      case "compaction_start":
        this.post({ type: "status", text: "Compacting the conversation…", kind: "info" });
        break;
      case "compaction_end":
        if (e.error) this.post({ type: "status", text: `Compaction failed: ${e.error}`, kind: "error" });
        else if (!e.aborted && e.entryId) this.post({ type: "status", text: "Conversation compacted.", kind: "info" });
        this.hooks.onSettled();
        break;
      case "retry":
        this.post({
          type: "status",
          text: `Retrying in ${Math.ceil(e.delayMs / 1000)} s (attempt ${e.attempt}): ${e.error}`,
          kind: "info",
        });
        break;
      case "error":
        this.post({ type: "status", text: e.error, kind: "error" });
        break;
      default:
        // turn_*, tool_* events: the tool result arrives as its own message_end.
        break;
    }
  }

  /** Stop timers (session switch). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.pendingUpdate = undefined;
  }

  private nextId(): string {
    return `pending-${++this.seq}`;
  }

  private onStart(m: AgentMessage): void {
    if (m.role === "assistant") {
      this.tempAssistant = this.nextId();
      this.post({ type: "chat/message", message: messageToDto(this.tempAssistant, m) });
    } else if (m.role === "user") {
      this.tempUser = this.nextId();
      this.post({ type: "chat/message", message: messageToDto(this.tempUser, m) });
    }
  }

  private onEnd(m: AgentMessage, entryId: string): void {
    // The recorded system prompt is no chat row (entryToChat leaves it out too); Agent: Show System Prompt shows it.
    if (m.role === "system") return;
    let replaces: string | undefined;
    if (m.role === "assistant") {
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
      this.pendingUpdate = undefined;
      replaces = this.tempAssistant;
      this.tempAssistant = undefined;
    } else if (m.role === "user") {
      replaces = this.tempUser;
      this.tempUser = undefined;
    }
    const msg: HostToWebview = { type: "chat/message", message: messageToDto(entryId, m) };
    if (replaces !== undefined) msg.replaces = replaces;
    this.post(msg);
  }

  private flushUpdate(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const m = this.pendingUpdate;
    this.pendingUpdate = undefined;
    if (m && this.tempAssistant) this.post({ type: "chat/message", message: messageToDto(this.tempAssistant, m) });
  }
}
