/**
 * What the host puts into the chat input — text that replaces it (a fork's user message, a message given back
 * after a failed send) and mentions added to it (Add Selection to Chat, Add File to Chat, a drop) — owned here.
 * A ready chat view gets it at once. A view that is not ready (being created, or re-created after it stayed
 * blank) would lose a message, so the input it has not received is held here, as state rather than a queue: the
 * last text (it replaces whatever came before it, mentions included) and the mentions added after it. When the
 * view says `ready`, it is sent with the rest of the chat's state (`viewReady`). Pure: no `vscode` import.
 */
import type { HostToWebview, MentionDto } from "../../shared/protocol.js";

/** Most mentions held for a view that is not ready (the most one message may carry). */
export const MAX_HELD_MENTIONS = 100;

/** The chat view as the handoff needs it (AgentWebviewView). */
export interface ChatInputView {
  readonly isReady: boolean;
  post(msg: Extract<HostToWebview, { type: "chat/setInput" | "chat/addMention" }>): void;
  /** Gives the view the workbench's focus (its box takes it): a webview cannot take it by itself. */
  focus(): Promise<void> | void;
}

/** See the file comment. */
export class ChatInputHandoff {
  /** Text for the input the view has not received: replaces what the input holds. */
  private text: string | undefined;
  /** Mentions the view has not received, added after `text`, in order. */
  private mentions: MentionDto[] = [];

  constructor(private readonly chat: ChatInputView) {}

  /** Replace what the input holds with `text` (and focus it). */
  setText(text: string): void {
    this.mentions = [];
    if (this.chat.isReady) {
      this.text = undefined;
      this.chat.post({ type: "chat/setInput", text });
      // The text is there to be edited and sent: a user message selected in the tree, a fork's message.
      void this.chat.focus();
    } else this.text = text;
  }

  /** Add a mention to the input (and focus it). */
  addMention(mention: MentionDto): void {
    if (this.chat.isReady) this.chat.post({ type: "chat/addMention", mention });
    else if (this.mentions.length < MAX_HELD_MENTIONS) this.mentions.push(mention);
  }

  /** The chat view said `ready`: it gets the input it has not received yet, the text first, then the mentions. */
  viewReady(): void {
    const { text, mentions } = this;
    this.text = undefined;
    this.mentions = [];
    if (text !== undefined) this.chat.post({ type: "chat/setInput", text });
    for (const mention of mentions) this.chat.post({ type: "chat/addMention", mention });
  }
}
