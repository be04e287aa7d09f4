/**
 * The chat input's completion and mention state, apart from the textarea: which completion the caret is in
 * (completion-trigger.ts), the rows the host answered for it (only the latest request's), the active row,
 * and the mentions picked or added from the editor. The textarea and the list draw it; this decides.
 */
import { mentionInText } from "../../src/core/mentions/mention-label.js";
import { MAX_IMAGES_PER_MESSAGE } from "../../src/core/mentions/image-attachment.js";
import type {
  CompletionItemDto,
  HostToWebview,
  ImageDto,
  MentionDto,
  WebviewToHost,
} from "../../src/shared/protocol.js";
import { applyCompletion, completionAt, type CompletionContext } from "./completion-trigger.js";
import { readImageFile } from "./image-input.js";

/** Mentions remembered at most (the latest). */
const MAX_REMEMBERED = 200;

/** See the file comment. */
export class ChatInputAssist {
  /** The rows shown; empty when the list is closed. */
  items: CompletionItemDto[] = [];
  /** Index of the active row. */
  active = 0;
  /** Images pasted or dropped, sent with the next message. */
  images: ImageDto[] = [];
  /** Why something was not added or cannot be sent (shown above the input until the next change). */
  notice: string | undefined;
  private context: CompletionContext | undefined;
  private requestId = 0;
  /** The completion Escape closed: not reopened until its query changes or the caret leaves it. */
  private dismissed: string | undefined;
  private mentions: MentionDto[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly post: (msg: WebviewToHost) => void) {}

  /** True while the list shows rows. */
  get open(): boolean {
    return this.items.length > 0 && this.context !== undefined;
  }

  /** The trigger of the open list, for its label. */
  get trigger(): "@" | "/" | undefined {
    return this.context?.trigger;
  }

  /** Handle a host message; true when it was for this model. */
  apply(msg: HostToWebview): boolean {
    if (msg.type !== "chat/completions") return false;
    if (msg.requestId !== this.requestId || this.context === undefined) return true;
    this.items = msg.items;
    this.active = 0;
    this.changed();
    return true;
  }

  /** The text or caret changed: open, update or close the list. */
  update(text: string, caret: number): void {
    const ctx = completionAt(text, caret);
    const key = ctx ? keyOf(ctx) : undefined;
    if (key !== this.dismissed) this.dismissed = undefined;
    if (!ctx || key === this.dismissed) return this.close(false);
    if (
      this.context &&
      this.context.trigger === ctx.trigger &&
      this.context.start === ctx.start &&
      this.context.query === ctx.query
    )
      return;
    this.context = ctx;
    this.requestId++;
    this.post({ type: "chat/complete", requestId: this.requestId, trigger: ctx.trigger, query: ctx.query });
  }

  /** Close the list; `dismiss` (Escape) keeps it closed until the caret leaves this completion. */
  close(dismiss = true): void {
    if (dismiss && this.context) this.dismissed = keyOf(this.context);
    const had = this.items.length > 0;
    this.context = undefined;
    this.items = [];
    this.requestId++;
    if (had) this.changed();
  }

  /** Move the active row by `delta`, wrapping. */
  move(delta: number): void {
    if (!this.open) return;
    this.active = (this.active + delta + this.items.length) % this.items.length;
    this.changed();
  }

  /** Make row `index` active (mouse hover). */
  setActive(index: number): void {
    if (index === this.active || index < 0 || index >= this.items.length) return;
    this.active = index;
    this.changed();
  }

  /**
   * Pick row `index` (default the active one) in `text` with the caret at `caret`: the new text and caret.
   * A file or folder becomes a mention; a folder keeps the list open on its contents.
   */
  pick(text: string, caret: number, index = this.active): { text: string; caret: number } | undefined {
    const item = this.items[index];
    const ctx = this.context;
    if (!item || !ctx) return undefined;
    const next = applyCompletion(text, caret, ctx, item.value);
    if ((item.kind === "file" || item.kind === "folder") && item.root !== undefined) {
      const label = `@${item.value}`;
      const path = item.kind === "folder" ? item.value.replace(/\/$/, "") || "." : item.value;
      this.remember({ label, path, root: item.root });
    }
    this.close(false);
    if (item.kind === "folder") this.update(next.text, next.caret);
    return next;
  }

  /** A mention added from outside (Add Selection/File to Chat): `text` with its label appended. */
  addMention(text: string, mention: MentionDto): string {
    this.remember(mention);
    const sep = text === "" || /\s$/.test(text) ? "" : " ";
    return `${text}${sep}${mention.label} `;
  }

  /** The mentions whose labels `text` still holds (what a send attaches). */
  mentionsIn(text: string): MentionDto[] {
    return this.mentions.filter((m) => mentionInText(text, m.label));
  }

  /** Add image files (paste, drop): each is scaled or refused (image-input.ts). */
  async addImages(files: readonly File[]): Promise<void> {
    const problems: string[] = [];
    for (const file of files) {
      if (this.images.length >= MAX_IMAGES_PER_MESSAGE) {
        problems.push(`At most ${MAX_IMAGES_PER_MESSAGE} images per message.`);
        break;
      }
      const read = await readImageFile(file);
      if (read.ok) this.images = [...this.images, read.image];
      else problems.push(read.reason);
    }
    this.notice = problems.length > 0 ? problems.join(" ") : undefined;
    this.changed();
  }

  /** Remove pending image `index`. */
  removeImage(index: number): void {
    this.images = this.images.filter((_, i) => i !== index);
    this.notice = undefined;
    this.changed();
  }

  /** Show why a send did not happen (a text-only model with images). */
  refuse(reason: string): void {
    this.notice = reason;
    this.changed();
  }

  /**
   * After a send: the images and the notice go. Mentions are kept (only those still in a message's text are
   * sent), so a message the host gives back — a mention it could not attach — still carries them.
   */
  reset(): void {
    this.images = [];
    this.notice = undefined;
    this.close(false);
  }

  /** Re-render on changes. */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private remember(m: MentionDto): void {
    // The latest wins: a selection added again with other lines replaces the older one of the same label.
    this.mentions = [...this.mentions.filter((x) => x.label !== m.label), m].slice(-MAX_REMEMBERED);
  }

  private changed(): void {
    for (const fn of this.listeners) fn();
  }
}

function keyOf(ctx: CompletionContext): string {
  return `${ctx.trigger}${ctx.start}:${ctx.query}`;
}
