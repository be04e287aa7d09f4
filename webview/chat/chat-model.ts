/**
 * Chat view state outside Preact: the messages of the current path, streaming flag, usage, models and
 * pending approvals. Updates with a known message id replace that message in place.
 *
 * The messages are a window of the path ending at the leaf (the host sends the newest ones, and after a move
 * only what changed); older ones are asked for page by page when the list scrolls near its top.
 */
import type { QueuedKind, QueuedMessage } from "../../src/core/agent/prompt-queue.js";
import type { TodoItem } from "../../src/core/tools/todo-list.js";
import type { ThinkingLevel } from "../../src/core/providers/types.js";
import {
  chatTextDeltaProblem,
  type AsideDto,
  type ChangedFileDto,
  type ChatMessageDto,
  type ChatUsage,
  type HostToWebview,
  type ModelDto,
  type WatchedBranchDto,
  type WebviewToHost,
} from "../../src/shared/protocol.js";

/** A tool call waiting for the user's answer: what the host's `chat/approval` message says of it. */
export type PendingApproval = Omit<Extract<HostToWebview, { type: "chat/approval" }>, "type">;

/** The chat view's model. */
export class ChatModel {
  messages: ChatMessageDto[] = [];
  /** Index in the path of `messages[0]`: above 0, older messages can be paged in. */
  start = 0;
  /** Bumped when another conversation replaced the messages (not extended them): the list shows its end. */
  resetSeq = 0;
  /**
   * A stored message's row key when it replaced a streamed one (its temporary id): the row stays mounted across the
   * swap, so a long reply is not rendered again from scratch when it is stored (rowKeyOf).
   */
  private readonly rowKeys = new Map<string, string>();
  streaming = false;
  model: ModelDto | undefined;
  usage: ChatUsage = { input: 0, output: 0, cost: 0, contextTokens: 0, contextWindow: 0 };
  noModelReason: string | undefined;
  models: ModelDto[] = [];
  currentModelKey: string | undefined;
  approvals: PendingApproval[] = [];
  /** The running parallel branch the chat shows instead of the main branch, read-only (chat/watch). */
  watch: WatchedBranchDto | undefined;
  /** Ask Aside answers of this conversation, oldest first (not messages of the path). */
  asides: AsideDto[] = [];
  loaded = false;
  /** Bumped by chat/setInput so the view can fill and focus the input box. */
  inputRequest: { text: string; seq: number } = { text: "", seq: 0 };
  /** Bumped by chat/restoreInput: queued text a run left undelivered goes back before what the input holds. */
  restoreRequest: { text: string; seq: number } = { text: "", seq: 0 };
  /** Messages typed while the agent works, waiting for delivery. */
  queue: QueuedMessage[] = [];
  /** The thinking levels the current model takes, and the one in force. */
  thinkingLevels: ThinkingLevel[] = [];
  thinkingLevel: ThinkingLevel | undefined;
  /** The files the last run changed (cleared when the next run starts or the conversation changes). */
  changedFiles: ChangedFileDto[] = [];
  /**
   * The path's todo list: the snapshot's (its newest `todo` call), then the list of each stored message that calls
   * `todo` after it. A move sends a snapshot, so another branch shows its own list.
   */
  todos: TodoItem[] | undefined;
  /** Plan mode is on at the leaf (the snapshot's; a toggle or a move sends a new one). */
  planMode = false;
  /** The plan to approve (the snapshot's): the id of the answer the agent gave in plan mode, at the leaf. */
  planId: string | undefined;
  /** What Enter queues while the agent works (the setting); Alt+Enter queues the other. */
  enterWhileRunning: QueuedKind = "followUp";
  /** Text deltas refused because they did not fit the message held (see chatTextDeltaProblem). */
  refusedDeltas = 0;
  private readonly byId = new Map<string, number>();
  private readonly listeners = new Set<() => void>();
  /** The page asked for and not answered yet. */
  private olderRequest: number | undefined;
  private nextRequestId = 1;

  /** Subscribe to changes; returns an unsubscribe function. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Apply a chat message from the host; returns true when it was one. */
  apply(msg: HostToWebview): boolean {
    switch (msg.type) {
      case "chat/snapshot": {
        const reach = this.start + this.messages.length;
        if (msg.keep && this.start <= msg.start && msg.start <= reach) {
          // A move: what it did not change stays, the rest (and anything streamed after it) is replaced.
          this.messages = [...this.messages.slice(0, msg.start - this.start), ...msg.messages];
        } else {
          this.messages = [...msg.messages];
          this.start = msg.start;
          this.resetSeq++;
          this.changedFiles = [];
          // Another conversation: the asides asked in the one shown before are not about it.
          this.asides = [];
        }
        // An unanswered page request was made against what this replaced: the host ignores it.
        this.olderRequest = undefined;
        this.reindex();
        this.streaming = msg.streaming;
        this.model = msg.model;
        this.usage = { ...msg.usage };
        this.noModelReason = msg.noModelReason;
        this.todos = msg.todos;
        this.planMode = msg.planMode === true;
        this.planId = msg.planId;
        this.loaded = true;
        if (msg.model !== undefined) this.currentModelKey = msg.model.key;
        break;
      }
      case "chat/older":
        if (msg.requestId !== this.olderRequest) return true;
        this.olderRequest = undefined;
        if (msg.start + msg.messages.length === this.start) {
          this.messages = [...msg.messages, ...this.messages];
          this.start = msg.start;
          this.reindex();
        }
        break;
      case "chat/message": {
        // The stored entry may replace a streamed message that had a temporary id.
        const tempAt = msg.replaces !== undefined ? this.byId.get(msg.replaces) : undefined;
        const at = this.byId.get(msg.message.id) ?? tempAt;
        const next = [...this.messages];
        if (at === undefined) next.push(msg.message);
        else next[at] = msg.message;
        if (tempAt !== undefined && at !== tempAt) next.splice(tempAt, 1);
        if (tempAt !== undefined && at === tempAt && msg.replaces !== undefined)
          this.rowKeys.set(msg.message.id, this.rowKeyOf(msg.replaces));
        this.messages = next;
        this.reindex();
        if (msg.message.todos !== undefined) this.todos = msg.message.todos;
        break;
      }
      case "chat/messageText": {
        const at = this.byId.get(msg.id);
        const held = at !== undefined ? this.messages[at] : undefined;
        const problem = chatTextDeltaProblem(held, msg);
        if (problem !== undefined || held === undefined || at === undefined) {
          // Nothing is lost: the message stays as it was until the host sends it whole (its stored entry at the latest).
          console.error(`Agent Tree: refused ${problem ?? "a text delta"}`);
          this.refusedDeltas++;
          return true;
        }
        const next = [...this.messages];
        next[at] =
          msg.field === "thinking"
            ? { ...held, thinking: (held.thinking ?? "") + msg.append }
            : { ...held, text: held.text + msg.append };
        this.messages = next;
        break;
      }
      case "chat/streaming":
        this.streaming = msg.streaming;
        if (!msg.streaming) this.approvals = [];
        else this.changedFiles = [];
        break;
      case "chat/queue":
        this.queue = [...msg.items];
        break;
      case "chat/restoreInput":
        this.restoreRequest = { text: msg.text, seq: this.restoreRequest.seq + 1 };
        break;
      case "chat/changedFiles":
        this.changedFiles = [...msg.files];
        break;
      case "chat/settings":
        this.enterWhileRunning = msg.enterWhileRunning;
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
      case "chat/aside": {
        if (this.byId.has(msg.aside.id)) break;
        const at = this.asides.findIndex((a) => a.id === msg.aside.id);
        this.asides = at < 0 ? [...this.asides, msg.aside] : this.asides.map((a, i) => (i === at ? msg.aside : a));
        break;
      }
      case "chat/watch":
        this.watch = msg.branch;
        break;
      case "chat/models":
        this.models = [...msg.models];
        this.currentModelKey = msg.current ?? this.currentModelKey;
        this.thinkingLevels = [...(msg.thinkingLevels ?? [])];
        this.thinkingLevel = msg.thinkingLevel;
        break;
      default:
        return false;
    }
    this.changed();
    return true;
  }

  /**
   * The request for the page before the first message held, to post to the host; undefined when there is
   * none before it or one is on its way.
   */
  requestOlder(): Extract<WebviewToHost, { type: "chat/requestOlder" }> | undefined {
    if (this.start === 0 || this.olderRequest !== undefined || this.messages.length === 0) return undefined;
    this.olderRequest = this.nextRequestId++;
    return {
      type: "chat/requestOlder",
      requestId: this.olderRequest,
      before: this.start,
      beforeId: this.messages[0].id,
    };
  }

  /** Forget an approval once answered here (the host confirms with approvalDone too). */
  answered(toolCallId: string): void {
    this.approvals = this.approvals.filter((a) => a.toolCallId !== toolCallId);
    this.changed();
  }

  /**
   * Indexes the messages by id. An aside whose question is now a message of the path (the leaf moved onto it, or it
   * was continued as a branch) is the conversation itself: it is no longer shown apart.
   */
  private reindex(): void {
    this.byId.clear();
    this.messages.forEach((m, i) => this.byId.set(m.id, i));
    // Keys of messages no longer held are dropped (a snapshot of another branch, a page cut away).
    for (const id of this.rowKeys.keys()) if (!this.byId.has(id)) this.rowKeys.delete(id);
    if (this.asides.some((a) => this.byId.has(a.id))) this.asides = this.asides.filter((a) => !this.byId.has(a.id));
  }

  /** The key of `id`'s row in the list: its id, or the temporary id of the streamed message it replaced. */
  rowKeyOf(id: string): string {
    return this.rowKeys.get(id) ?? id;
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}
