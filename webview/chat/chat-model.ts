/**
 * Chat view state outside Preact: the messages of the current path, streaming flag, usage, models and
 * pending approvals. Updates with a known message id replace that message in place.
 */
import type { ChatMessageDto, HostToWebview, ModelDto } from "../../src/shared/protocol.js";

/** Token and cost use of the session. */
export interface ChatUsage {
  input: number;
  output: number;
  cost: number;
  contextTokens: number;
  contextWindow: number;
}

/** A tool call waiting for the user's answer. */
export interface PendingApproval {
  toolCallId: string;
  toolName: string;
  summary: string;
}

/** The chat view's model. */
export class ChatModel {
  messages: ChatMessageDto[] = [];
  streaming = false;
  model: ModelDto | undefined;
  usage: ChatUsage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 };
  noModelReason: string | undefined;
  models: ModelDto[] = [];
  currentModelKey: string | undefined;
  approvals: PendingApproval[] = [];
  loaded = false;
  /** Bumped by chat/setInput so the view can fill and focus the input box. */
  inputRequest: { text: string; seq: number } = { text: "", seq: 0 };
  private readonly byId = new Map<string, number>();
  private readonly listeners = new Set<() => void>();

  /** Subscribe to changes; returns an unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Apply a chat message from the host; returns true when it was one. */
  apply(msg: HostToWebview): boolean {
    switch (msg.type) {
      case "chat/snapshot":
        this.messages = [...msg.messages];
        this.reindex();
        this.streaming = msg.streaming;
        this.model = msg.model;
        this.usage = { ...msg.usage };
        this.noModelReason = msg.noModelReason;
        this.loaded = true;
        if (msg.model !== undefined) this.currentModelKey = msg.model.key;
        break;
      case "chat/message": {
        // The stored entry may replace a streamed message that had a temporary id.
        const tempAt = msg.replaces !== undefined ? this.byId.get(msg.replaces) : undefined;
        const at = this.byId.get(msg.message.id) ?? tempAt;
        const next = [...this.messages];
        if (at === undefined) next.push(msg.message);
        else next[at] = msg.message;
        if (tempAt !== undefined && at !== tempAt) next.splice(tempAt, 1);
        this.messages = next;
        this.reindex();
        break;
      }
      case "chat/streaming":
        this.streaming = msg.streaming;
        if (!msg.streaming) this.approvals = [];
        break;
      case "chat/setInput":
        this.inputRequest = { text: msg.text, seq: this.inputRequest.seq + 1 };
        break;
      case "chat/approval":
        this.approvals = [...this.approvals.filter((a) => a.toolCallId !== msg.toolCallId), { ...msg }];
        break;
      case "chat/approvalDone":
        this.approvals = this.approvals.filter((a) => a.toolCallId !== msg.toolCallId);
        break;
      case "chat/models":
        this.models = [...msg.models];
        this.currentModelKey = msg.current ?? this.currentModelKey;
        break;
      default:
        return false;
    }
    this.changed();
    return true;
  }

  /** Forget an approval once answered here (the host confirms with approvalDone too). */
  answered(toolCallId: string): void {
    this.approvals = this.approvals.filter((a) => a.toolCallId !== toolCallId);
    this.changed();
  }

  private reindex(): void {
    this.byId.clear();
    this.messages.forEach((m, i) => this.byId.set(m.id, i));
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
