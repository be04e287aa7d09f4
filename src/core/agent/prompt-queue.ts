/**
 * The messages a user typed while an agent works (pi's steering and follow-up queues). Steering is delivered
 * once all the tool calls of the current reply have finished, before the next model request (pi 1.6); a follow-up when the agent would stop,
 * as a request of its own. Both are taken one at a time (pi's "one-at-a-time" mode), so every queued message
 * gets its own model reply. The queue belongs to one running agent, never to the session or the host, so
 * several agents on one session each keep their own.
 */

import type { ImageContent, TextContent } from "../messages.js";

/** How a queued message is delivered. */
export type QueuedKind = "steer" | "followUp";

/** One queued message. */
export interface QueuedMessage {
  /** Stable while the message waits (edit and remove name it). */
  id: string;
  kind: QueuedKind;
  /** The typed text (after template expansion); an edit replaces it. */
  text: string;
  /** How many attachments (files, selections, images) go with it; they stay when the text is edited. */
  attachmentCount?: number;
}

/** What the agent delivers: the text, and the attachment blocks that follow it (src/core/mentions/user-content.ts). */
export interface QueuedDelivery {
  text: string;
  attachments: readonly (TextContent | ImageContent)[];
}

interface Item extends QueuedMessage {
  attachments: readonly (TextContent | ImageContent)[];
}

/** See the file comment. */
export class PromptQueue {
  private items: Item[] = [];
  private nextId = 1;

  /** @param onChange called after every change, with the queue as it is now. */
  constructor(private readonly onChange: (items: readonly QueuedMessage[]) => void = () => undefined) {}

  /** Adds a message (with the attachments that follow its text) at the end; returns its id. */
  enqueue(kind: QueuedKind, text: string, attachments: readonly (TextContent | ImageContent)[] = []): string {
    if (text.trim() === "") throw new Error("Cannot queue an empty message");
    const id = `q${this.nextId++}`;
    this.items.push({ id, kind, text, attachments: [...attachments] });
    this.changed();
    return id;
  }

  /** Replaces a waiting message's text; false when it was already delivered or removed. */
  edit(id: string, text: string): boolean {
    const item = this.items.find((i) => i.id === id);
    if (!item) return false;
    if (text.trim() === "") return this.remove(id);
    item.text = text;
    this.changed();
    return true;
  }

  /** Drops a waiting message; false when it was already delivered or removed. */
  remove(id: string): boolean {
    const before = this.items.length;
    this.items = this.items.filter((i) => i.id !== id);
    if (this.items.length === before) return false;
    this.changed();
    return true;
  }

  /** Takes the oldest message of `kind`, if any, with its attachments. */
  take(kind: QueuedKind): QueuedDelivery | undefined {
    const index = this.items.findIndex((i) => i.kind === kind);
    if (index < 0) return undefined;
    const [item] = this.items.splice(index, 1);
    this.changed();
    return { text: item.text, attachments: item.attachments };
  }

  /** Empties the queue and returns what it held, oldest first (Escape puts it back into the input). */
  clear(): QueuedMessage[] {
    const items = this.items.map(publicItem);
    if (items.length === 0) return [];
    this.items = [];
    this.changed();
    return items;
  }

  /** The waiting messages, oldest first. */
  list(): readonly QueuedMessage[] {
    return this.items.map(publicItem);
  }

  /** Number of waiting messages. */
  get size(): number {
    return this.items.length;
  }

  private changed(): void {
    this.onChange(this.list());
  }
}

/** A waiting message as the chat lists it: its text and how many attachments, not their bytes. */
function publicItem(i: Item): QueuedMessage {
  return {
    id: i.id,
    kind: i.kind,
    text: i.text,
    ...(i.attachments.length > 0 ? { attachmentCount: i.attachments.length } : {}),
  };
}
