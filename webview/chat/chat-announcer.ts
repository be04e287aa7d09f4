/**
 * What the chat's live region says, decided from host messages alone (no DOM): only content that is new
 * while the view is open, each once. The message list itself is no live region: it is windowed, so rows
 * mounted by scrolling back would otherwise be read out as if they had just arrived.
 *
 * Announced: a user message when it first appears, an assistant reply when it is finished (its stored
 * entry replaces the streamed one, or streaming stops), a tool result that is an error, and a tool call
 * waiting for approval. Never: a snapshot's messages (opening, switching sessions, the refresh after a
 * prompt), older messages paged in, or another version of a message already seen.
 */
import type { ChatMessageDto, HostToWebview } from "../../src/shared/protocol.js";

/** Characters of message text quoted in an announcement. */
const QUOTE_CHARS = 150;

/** Decides announcements; feed it every host message, in order, from before `ready` is posted. */
export class ChatAnnouncer {
  /** Ids of messages already present or already announced: further versions of them are not news. */
  private readonly known = new Set<string>();
  /** Assistant replies being streamed, by id, waiting to be finished. */
  private readonly pending = new Map<string, ChatMessageDto>();
  /** Replies announced (by temporary and stored id), so the stored copy of one is not announced again. */
  private readonly replied = new Set<string>();
  private readonly approvals = new Set<string>();
  private streaming = false;

  /** The announcements one host message causes, in order (usually none). */
  onHost(msg: HostToWebview): string[] {
    switch (msg.type) {
      case "chat/snapshot":
        this.streaming = msg.streaming;
        for (const m of msg.messages) this.known.add(m.id);
        return [];
      case "chat/older":
        for (const m of msg.messages) this.known.add(m.id);
        return [];
      case "chat/message":
        return this.onMessage(msg.message, msg.replaces);
      case "chat/messageText": {
        // A streamed reply grew: keep its latest text for when it finishes (a delta that does not fit is dropped).
        const m = this.pending.get(msg.id);
        if (m !== undefined && msg.field === undefined && m.text.length === msg.at)
          this.pending.set(msg.id, { ...m, text: m.text + msg.append });
        return [];
      }
      case "chat/streaming": {
        this.streaming = msg.streaming;
        if (msg.streaming) return [];
        // A reply never replaced by a stored entry is finished when the run is.
        const out = [...this.pending.values()].map((m) => this.reply(m));
        this.pending.clear();
        return out;
      }
      case "chat/approval":
        if (this.approvals.has(msg.toolCallId)) return [];
        this.approvals.add(msg.toolCallId);
        return [`Approval needed: ${msg.toolName} wants to run ${quote(msg.summary)}`];
      default:
        return [];
    }
  }

  private onMessage(m: ChatMessageDto, replaces: string | undefined): string[] {
    if (this.known.has(m.id)) {
      // A streamed update (or a re-sent old message): keep the latest text for when it finishes.
      if (this.pending.has(m.id)) this.pending.set(m.id, m);
      return [];
    }
    this.known.add(m.id);
    const replaced = replaces !== undefined && this.known.has(replaces);
    switch (m.role) {
      case "user":
        // The stored copy of a message shown (and announced) while it was being sent is not news.
        return replaced ? [] : [`You said: ${quote(m.text)}`];
      case "assistant":
        if (replaces !== undefined) {
          this.pending.delete(replaces);
          if (this.replied.has(replaces)) {
            this.replied.add(m.id);
            return [];
          }
          return [this.reply(m)];
        }
        if (this.streaming) {
          this.pending.set(m.id, m);
          return [];
        }
        return [this.reply(m)];
      case "toolResult":
        return m.isError === true ? [`${m.toolName ?? "Tool"} failed: ${quote(m.text)}`] : [];
      default:
        return [];
    }
  }

  private reply(m: ChatMessageDto): string {
    this.replied.add(m.id);
    return replyText(m);
  }
}

/** "Assistant replied: …", with the tools it called when it said nothing, and how it ended if badly. */
export function replyText(m: ChatMessageDto): string {
  const parts: string[] = [];
  const text = quote(m.text);
  const tools = (m.toolCalls ?? []).map((c) => c.name);
  if (text !== "") parts.push(`Assistant replied: ${text}`);
  else if (tools.length > 0) parts.push(`Assistant called ${tools.join(", ")}`);
  const said = parts.length > 0;
  const why = m.errorMessage ? `: ${quote(m.errorMessage)}` : "";
  if (m.stopReason === "aborted") parts.push(said ? "Aborted" : "Assistant reply aborted");
  else if (m.stopReason === "error") parts.push(said ? `Error${why}` : `Assistant reply failed${why}`);
  return parts.length > 0 ? parts.join(". ") : "Assistant replied.";
}

/** The start of a text as one line, without the markdown marks a screen reader would spell out. */
export function quote(text: string): string {
  const plain = text
    .replace(/^\s*(```|~~~).*$/gm, " ")
    .replace(/^\s{0,3}(#{1,6}|>|[-+*]|\d+[.)])\s+/gm, "")
    .replace(/\*\*|__|`+/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= QUOTE_CHARS) return plain;
  const cut = plain.slice(0, QUOTE_CHARS);
  const space = cut.lastIndexOf(" ");
  return `${space > QUOTE_CHARS * 0.6 ? cut.slice(0, space) : cut}…`;
}
