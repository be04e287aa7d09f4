/**
 * Which of the current path's messages the chat view holds, and what to send it. A path may hold thousands
 * of messages and hundreds of megabytes (10 KB tool outputs), so the chat gets a window ending at the leaf,
 * bounded in messages and bytes, and pages in older messages when it scrolls up. After a move, the part of
 * the path the move did not change stays in the view and only the new tail is sent. Bodies are read only
 * for the messages sent. Pure: no `vscode` import.
 *
 * The host mirrors what the view holds (`ids`, `lo`): it is the only one that changes it, and its messages
 * arrive in order, so after the view applies them it holds exactly that. A page request made against an
 * older state is ignored; the snapshot that made it old tells the view so.
 */
import type { Usage } from "../../core/messages.js";
import type { SessionEntry } from "../../core/session/types.js";
import type { PathSearch } from "../../core/session/path-search.js";
import type { PathChange } from "../../core/session/types.js";
import { todoListIn, todoListOnPath, type TodoItem } from "../../core/tools/todo-list.js";
import type { ChatMessageDto } from "../../shared/protocol.js";
import { kindTitle } from "../../core/entries/kind-words.js";
import { entryToChat, isChatEntry, MAX_ENTRY_TEXT, type ChatEnvelope, type PathUsage } from "./chat-dto.js";
import { errorText } from "../../core/error-text.js";

/** What the chat path reads from a SessionManager. */
export interface ChatPathSource {
  /** Envelopes root → leaf (no bodies read). */
  getPathEnvelopes(): readonly ChatEnvelope[];
  /**
   * How the path to the leaf differs from the path to `fromId` (SessionManager.getPathChange); undefined for an id
   * the session does not have. With it an update reads only the entries a move or an append changed; without it,
   * the whole path's envelopes, compared with the last ones.
   */
  getPathChange?(fromId: string | null): PathChange<ChatEnvelope> | undefined;
  getEntry(id: string): SessionEntry | undefined;
  getUsage(id: string): Usage | undefined;
  /**
   * Searches the same path from the answers the store keeps per entry (SessionManager.newestOnPath); without it the
   * todo list is found by walking the path's envelopes back from the leaf.
   */
  newestOnPath?: PathSearch<ChatEnvelope>["newestOnPath"];
}

/** How much one window or page may hold. At least one message is sent whatever its size. */
export interface ChatWindowLimits {
  messages: number;
  /** Approximate characters of text (see sizeOf). */
  bytes: number;
}

/**
 * The window: enough to fill a tall chat several times over, small enough to post in a few milliseconds
 * even when every message carries a 10 KB tool output.
 */
export const CHAT_WINDOW: ChatWindowLimits = { messages: 60, bytes: 512 * 1024 };

/** The path part of a chat/snapshot. */
export interface ChatPathUpdate {
  start: number;
  keep: boolean;
  messages: ChatMessageDto[];
  /** The usage records of the path, root first (for the usage line). */
  usage: PathUsage[];
  /** The path's todo list (its newest valid `todo` call; the chat's checklist), or none. */
  todos?: TodoItem[];
}

/** A page of older messages: the path's messages from `start` up to the view's first one. */
export interface ChatPage {
  start: number;
  messages: ChatMessageDto[];
}

function cap(text: string): string {
  return text.length > MAX_ENTRY_TEXT ? text.slice(0, MAX_ENTRY_TEXT) + "\n…" : text;
}

/** A message as the chat gets it: texts capped (a session line can be megabytes; the file keeps them whole). */
function capped(dto: ChatMessageDto): ChatMessageDto {
  dto.text = cap(dto.text);
  if (dto.thinking !== undefined) dto.thinking = cap(dto.thinking);
  if (dto.errorMessage !== undefined) dto.errorMessage = cap(dto.errorMessage);
  return dto;
}

/** Roughly the characters a message adds to a post (its texts; the rest is small). */
function sizeOf(dto: ChatMessageDto): number {
  let n = 200 + dto.text.length + (dto.thinking?.length ?? 0) + (dto.errorMessage?.length ?? 0);
  for (const c of dto.toolCalls ?? []) n += c.name.length + c.args.length + 40;
  return n;
}

/** Mirrors the chat view's window of the current path. */
export class ChatPath {
  /** Ids of the chat messages of the path the view shows (root first). */
  private readonly ids: string[] = [];
  /**
   * The path of the last update and, per entry of it, how many chat messages and usage records the entries
   * before it hold. A move keeps most of a long path (30,000 entries in a big session): the next update reads
   * only what comes after the part it shares with this one (envelopes are the store's objects, compared as such).
   */
  private path: readonly ChatEnvelope[] = [];
  /** The last update's leaf (its path's last entry), when the source says how paths change (getPathChange). */
  private leafId: string | null = null;
  private readonly chatBefore: number[] = [];
  private readonly usageBefore: number[] = [];
  private readonly usageRecords: PathUsage[] = [];
  /** Index in `ids` of the first message the view holds. */
  private lo = 0;
  /** The view holds `ids[lo…]` (false until the first update, and after it reloaded). */
  private held = false;

  constructor(
    private readonly source: ChatPathSource,
    private readonly limits: ChatWindowLimits = CHAT_WINDOW,
  ) {}

  /** The view was (re)loaded and holds nothing. */
  reset(): void {
    this.held = false;
  }

  /**
   * What the view needs for the current path, assumed sent: after a move that kept enough of what the view
   * holds, only the messages after the common part; else the newest window.
   */
  update(): ChatPathUpdate {
    const shared = this.source.getPathChange ? this.followChange() : this.followPath();
    const ids = this.ids;
    const n = ids.length;
    // The chat messages the new path shares with the last one: those of the entries both paths start with.
    const common = this.held ? shared : 0;
    const window = new Collector(this.source, ids, n);
    // Reuse what the view holds when the new tail is small and the view keeps at least half a window.
    const half = { messages: Math.max(1, this.limits.messages >> 1), bytes: this.limits.bytes >> 1 };
    const keep =
      this.held &&
      this.lo <= common &&
      n - this.lo >= Math.min(n, half.messages) &&
      window.collect(common, half) === common;
    let start = common;
    if (!keep) {
      // The newest window; what was read for the tail is part of it.
      start = window.collect(0, this.limits);
      this.lo = start;
    }
    this.held = true;
    const update: ChatPathUpdate = { start, keep, messages: window.messages(), usage: this.usageRecords.slice() };
    const todos = this.todos();
    if (todos) update.todos = todos;
    return update;
  }

  /**
   * Follows the path by what changed since the last update's leaf (a move reads the entries after the fork, an
   * append the new ones): the whole path's envelopes are asked for once, at the first update. Returns how many chat
   * messages the two paths share (their first ones).
   */
  private followChange(): number {
    const change = (fromId: string | null) => this.source.getPathChange?.(fromId);
    let next = change(this.leafId);
    // The last leaf is gone (a rewrite of the file deleted it), or its path is not the one followed: read it all.
    if (next === undefined || next.shared > this.chatBefore.length) next = change(null);
    if (next === undefined) {
      // The source knows no path from the root (it should): compare whole paths, and ask from the root next time.
      this.leafId = null;
      this.path = [];
      return this.followPath();
    }
    this.leafId = next.leafId;
    return this.follow(next.shared, next.tail);
  }

  /** Follows the path by comparing the whole path's envelopes with the last update's (sources without getPathChange). */
  private followPath(): number {
    const path = this.source.getPathEnvelopes();
    const old = this.path;
    let same = 0;
    const max = Math.min(old.length, path.length);
    while (same < max && old[same] === path[same]) same++;
    this.path = path;
    return this.follow(same, path, same);
  }

  /**
   * Makes `ids` and the usage records those of the new path: the first `same` entries are the last update's path's,
   * the rest are `tail` from `from` on. Returns how many chat messages the two paths share (their first ones).
   */
  private follow(same: number, tail: readonly ChatEnvelope[], from = 0): number {
    const kept = same < this.chatBefore.length;
    const shared = kept ? this.chatBefore[same] : this.ids.length;
    this.ids.length = shared;
    if (kept) this.usageRecords.length = this.usageBefore[same];
    this.chatBefore.length = same;
    this.usageBefore.length = same;
    for (let i = from; i < tail.length; i++) {
      const e = tail[i];
      this.chatBefore.push(this.ids.length);
      this.usageBefore.push(this.usageRecords.length);
      if (isChatEntry(e)) this.ids.push(e.id);
      const record = this.usageOf(e);
      if (record) this.usageRecords.push(record);
    }
    return shared;
  }

  /** The page before the view's first message, or undefined when the request is stale or there is none. */
  older(before: number, beforeId: string): ChatPage | undefined {
    if (!this.held || before !== this.lo || before === 0 || this.ids[before] !== beforeId) return undefined;
    const page = new Collector(this.source, this.ids, before);
    const start = page.collect(0, this.limits);
    this.lo = start;
    return { start, messages: page.messages() };
  }

  /** The todo list in force at the leaf; a body that cannot be read is passed over (the chat says so in its row). */
  private todos(): TodoItem[] | undefined {
    const { source } = this;
    if (source.newestOnPath)
      return todoListIn({
        newestOnPath: (test, fromId) => source.newestOnPath?.(test, fromId),
        getEntry: (id) => source.getEntry(id),
      });
    return todoListOnPath({
      envelopes: source.getPathChange ? source.getPathEnvelopes() : this.path,
      entry: (id) => {
        try {
          return this.source.getEntry(id);
        } catch {
          return undefined;
        }
      },
    });
  }

  /** The usage record of a path entry, if it records token use. */
  private usageOf(e: ChatEnvelope): PathUsage | undefined {
    const usage = this.source.getUsage(e.id);
    return usage && { usage, setsContext: e.type === "message" && e.role === "assistant" && e.failed !== true };
  }
}

/** Reads messages backwards from the end of a range of the path, within limits. */
class Collector {
  private readonly newestFirst: ChatMessageDto[] = [];
  private bytes = 0;

  /** Collects ids[…, end), newest first. */
  constructor(
    private readonly source: ChatPathSource,
    private readonly ids: readonly string[],
    private next: number,
  ) {}

  /**
   * Goes on reading older messages while they fit in `limits` (counting those read before; at least one) and
   * are not below `floor`. Returns the index of the oldest message read so far.
   */
  collect(floor: number, limits: ChatWindowLimits): number {
    while (this.next > floor && this.newestFirst.length < limits.messages) {
      const m = capped(this.read(this.ids[this.next - 1]));
      const size = sizeOf(m);
      if (this.newestFirst.length > 0 && this.bytes + size > limits.bytes) break;
      this.newestFirst.push(m);
      this.bytes += size;
      this.next--;
    }
    return this.next;
  }

  /** The messages read, oldest first. */
  messages(): ChatMessageDto[] {
    return [...this.newestFirst].reverse();
  }

  private read(id: string): ChatMessageDto {
    let why = "it is missing";
    try {
      const entry = this.source.getEntry(id);
      const dto = entry && entryToChat(entry);
      if (dto) return dto;
    } catch (e) {
      why = errorText(e);
    }
    // The row keeps its place, so indexes stay those of the path; the file is left as it is.
    const title = kindTitle("unknown");
    return { id, role: "custom", title, icon: "warning", text: `(This entry could not be read: ${why})`, timestamp: 0 };
  }
}
