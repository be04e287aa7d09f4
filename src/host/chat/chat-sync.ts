/**
 * Turns AgentSession events into chat messages: a streamed reply keeps one temporary id until it is
 * stored, then the stored row replaces it (`replaces`). Streaming updates are coalesced to at most
 * one post per `intervalMs` so a fast model does not flood the webview, and an update that only added text is sent
 * as the added text (`chat/messageText`), so a long reply crosses the channel about once instead of once per update.
 * A command the user typed (`!command`) shows the same way: its output while it runs, then its stored entry. The
 * chat is "streaming" (Abort, Escape) while a prompt or such a command runs. Pure: no `vscode` import.
 */
import type { AgentEvent } from "../../core/agent/events.js";
import type { AgentMessage, BashExecutionMessage } from "../../core/messages.js";
import type { ChatMessageDto, HostToWebview } from "../../shared/protocol.js";
import { messageToDto } from "./chat-dto.js";

/** What the chat sync reports besides webview posts. */
export interface ChatSyncHooks {
  /** A prompt finished or a compaction ended: refresh the snapshot (usage line, compacted path). */
  onSettled(): void;
  /** Streaming (a prompt or a typed command runs) started or stopped (context key for Escape/Abort). */
  onStreaming(streaming: boolean): void;
}

/** Mirrors one AgentSession's events into the chat view. */
export class ChatSync {
  private seq = 0;
  private tempAssistant: string | undefined;
  private tempUser: string | undefined;
  private pendingUpdate: AgentMessage | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private agentRunning = false;
  private commandRunning = false;
  /** The status line shows a failure this sync posted (cleared when the next run starts). */
  private errorShown = false;
  /** What the chat was last told: streaming or not. */
  private streaming = false;
  /** Temporary ids of typed commands shown and not stored yet, oldest first (one that ends during a prompt waits). */
  private tempCommands: string[] = [];
  /** The running command: its temporary id and how it started. */
  private command: { id: string; command: string; excluded: boolean; timestamp: number } | undefined;
  /**
   * The streamed message the view was last sent whole or extended: its id, text, thinking and the rest as JSON. The
   * next update of it whose rest is the same and whose text and thinking continue these is sent as deltas.
   */
  private shown: { id: string; text: string; thinking: string; rest: string } | undefined;

  constructor(
    private readonly post: (msg: HostToWebview) => void,
    private readonly hooks: ChatSyncHooks,
    private readonly intervalMs = 50,
  ) {}

  /** Handle one event. */
  handle(e: AgentEvent): void {
    switch (e.type) {
      case "agent_start":
        this.agentRunning = true;
        this.setStreaming();
        // A failure the line still says is from before this run (a failed reply's row keeps it): the line goes.
        if (this.errorShown) this.post({ type: "status", text: "", kind: "info" });
        this.errorShown = false;
        break;
      case "agent_end":
        this.flushUpdate();
        this.tempAssistant = this.tempUser = undefined;
        this.agentRunning = false;
        this.setStreaming();
        this.hooks.onSettled();
        break;
      case "bash_execution_start": {
        const id = this.nextId();
        this.command = { id, command: e.command, excluded: e.excludeFromContext, timestamp: Date.now() };
        this.tempCommands.push(id);
        this.commandRunning = true;
        this.postCommand("");
        this.setStreaming();
        break;
      }
      case "bash_execution_update":
        this.postCommand(e.output);
        break;
      case "bash_execution_end":
        this.onCommandEnd(e.message, e.error);
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
        if (e.error) {
          this.post({ type: "status", text: `Compaction failed: ${e.error}`, kind: "error" });
          this.errorShown = true;
        } else if (!e.aborted && e.entryId)
          this.post({ type: "status", text: "Conversation compacted.", kind: "info" });
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
        this.errorShown = true;
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
    this.shown = undefined;
  }

  /**
   * The view was sent a snapshot (or reloaded): it no longer holds the streamed message, so the next update of it is
   * sent whole.
   */
  resendStreamed(): void {
    this.shown = undefined;
  }

  private setStreaming(): void {
    const streaming = this.agentRunning || this.commandRunning;
    if (streaming === this.streaming) return;
    this.streaming = streaming;
    this.post({ type: "chat/streaming", streaming });
    this.hooks.onStreaming(streaming);
  }

  /** The running command with its output so far. */
  private postCommand(output: string): void {
    const c = this.command;
    if (!c) return;
    const message = messageToDto(c.id, commandMessage(c, output));
    message.running = true;
    this.postStreamed(message);
  }

  /**
   * A streamed message's update: only its added text and thinking when nothing else changed since the view was
   * sent it.
   */
  private postStreamed(message: ChatMessageDto): void {
    const { text, thinking = "", ...others } = message;
    const rest = JSON.stringify(others);
    const s = this.shown;
    this.shown = { id: message.id, text, thinking, rest };
    if (s?.id === message.id && s.rest === rest && text.startsWith(s.text) && thinking.startsWith(s.thinking)) {
      const id = message.id;
      if (thinking.length > s.thinking.length)
        this.post({
          type: "chat/messageText",
          id,
          field: "thinking",
          at: s.thinking.length,
          append: thinking.slice(s.thinking.length),
        });
      if (text.length > s.text.length)
        this.post({ type: "chat/messageText", id, at: s.text.length, append: text.slice(s.text.length) });
      return;
    }
    this.post({ type: "chat/message", message });
  }

  /** The command ended: its final text now; its stored entry replaces it once recorded (message_end). */
  private onCommandEnd(message: BashExecutionMessage | undefined, error: string | undefined): void {
    const c = this.command;
    this.command = undefined;
    this.commandRunning = false;
    this.shown = undefined;
    if (c && message) this.post({ type: "chat/message", message: messageToDto(c.id, message) });
    else if (c) {
      // Nothing is recorded: the row says why, and is gone with the next snapshot.
      this.tempCommands = this.tempCommands.filter((id) => id !== c.id);
      const failed = commandMessage(c, `(could not run: ${error ?? "unknown error"})`);
      this.post({ type: "chat/message", message: messageToDto(c.id, failed) });
    }
    this.setStreaming();
    if (!message && !this.agentRunning) this.hooks.onSettled();
  }

  private nextId(): string {
    return `pending-${++this.seq}`;
  }

  private onStart(m: AgentMessage): void {
    if (m.role === "assistant") {
      this.tempAssistant = this.nextId();
      this.postStreamed(streamedDto(this.tempAssistant, m));
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
      this.shown = undefined;
    } else if (m.role === "user") {
      replaces = this.tempUser;
      this.tempUser = undefined;
    } else if (m.role === "bashExecution") {
      replaces = this.tempCommands.shift();
    }
    const msg: HostToWebview = { type: "chat/message", message: messageToDto(entryId, m) };
    if (replaces !== undefined) msg.replaces = replaces;
    this.post(msg);
    // A command recorded outside a prompt: the snapshot after it puts the entry where the path has it.
    if (m.role === "bashExecution" && !this.agentRunning) this.hooks.onSettled();
  }

  private flushUpdate(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const m = this.pendingUpdate;
    this.pendingUpdate = undefined;
    if (m && this.tempAssistant) this.postStreamed(streamedDto(this.tempAssistant, m));
  }
}

/**
 * A reply still streaming: a todo call in it may hold half a list, so the checklist follows stored messages only.
 * Its usage (and the facts that count it) is left out too: some providers report it with every chunk, which would
 * make every update differ in more than its text (no delta); a reply's row shows neither, and the stored entry brings
 * both.
 */
function streamedDto(id: string, m: AgentMessage): ChatMessageDto {
  const dto = messageToDto(id, m);
  delete dto.todos;
  delete dto.usage;
  delete dto.facts;
  return dto;
}

/** A command still running (or one that could not run) as the message it will be recorded as, with `output` so far. */
function commandMessage(
  c: { command: string; excluded: boolean; timestamp: number },
  output: string,
): BashExecutionMessage {
  return {
    role: "bashExecution",
    command: c.command,
    output,
    exitCode: undefined,
    cancelled: false,
    truncated: false,
    ...(c.excluded ? { excludeFromContext: true } : {}),
    timestamp: c.timestamp,
  };
}
