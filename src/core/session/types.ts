/**
 * Session file entries (pi session format version 3). One JSON object per line; line 1 is the header.
 * See docs/session-format.md.
 */
import type { AgentMessage, ImageContent, SystemMessage, TextContent, Usage } from "../messages.js";
import type { SessionInfoReader } from "./session-info-reader.js";

/** The version this project writes. */
export const CURRENT_SESSION_VERSION = 3;

/** Line 1 of a session file. Not part of the tree. */
export interface SessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  /** Path of the session this one was forked from. */
  parentSession?: string;
  /** Unknown fields are kept on rewrite. */
  [extra: string]: unknown;
}

/** Fields every entry has. */
export interface SessionEntryBase {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
}

/** A conversation message. */
export interface SessionMessageEntry extends SessionEntryBase {
  type: "message";
  message: AgentMessage;
}

/**
 * Older history replaced by a summary; entries from firstKeptEntryId on are kept (its own id: none are, as
 * pi 1.5 writes when nothing is kept).
 */
export interface CompactionEntry<T = unknown> extends SessionEntryBase {
  type: "compaction";
  summary: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: T;
  fromHook?: boolean;
  /** pi 1.5: what producing the summary cost. */
  usage?: Usage;
  /** pi 1.5: the system prompt in force when compacting (the summarized system messages leave the context). */
  systemMessage?: SystemMessage;
}

/** Summary of a branch the user navigated away from. parentId = the new leaf position. */
export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
  type: "branch_summary";
  /** The old leaf that was abandoned. */
  fromId: string;
  summary: string;
  details?: T;
  fromHook?: boolean;
  /** pi 1.5: what producing the summary cost. */
  usage?: Usage;
}

/** Sets (or, with label undefined, clears) the label of targetId. */
export interface LabelEntry extends SessionEntryBase {
  type: "label";
  targetId: string;
  label?: string;
}

/** Extension state. Never sent to the model. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
  type: "custom";
  customType: string;
  data?: T;
}

/** Extension message that reaches the model as a user message. */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
  type: "custom_message";
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: T;
}

/** The model was switched. */
export interface ModelChangeEntry extends SessionEntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}

/** The thinking level was switched. */
export interface ThinkingLevelChangeEntry extends SessionEntryBase {
  type: "thinking_level_change";
  thinkingLevel: string;
}

/** Session metadata (display name). */
export interface SessionInfoEntry extends SessionEntryBase {
  type: "session_info";
  name?: string;
}

/**
 * pi 1.5: a branch-local edit of an earlier entry on the path, applied when the context is built (the latest
 * edit of a target wins): `replacement: null` drops the target's message, otherwise its content is replaced.
 */
export interface ContextEditEntry extends SessionEntryBase {
  type: "context_edit";
  targetId: string;
  replacement: null | { content: string | (TextContent | ImageContent)[] };
}

/** pi 1.5: tokens and cost of a model call that added no message (e.g. a cache warm-up). Never sent to the model. */
export interface UsageEntry extends SessionEntryBase {
  type: "usage";
  /** What the call was for (pi: "cache_warm", …). */
  kind: string;
  provider: string;
  model: string;
  usage: Usage;
  note?: string;
}

/** An entry of a type this version does not know. Kept verbatim, shown only in the "all" filter. */
export interface UnknownEntry extends SessionEntryBase {
  [extra: string]: unknown;
}

/** Every known entry. */
export type SessionEntry =
  | SessionMessageEntry
  | CompactionEntry
  | BranchSummaryEntry
  | LabelEntry
  | CustomEntry
  | CustomMessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | SessionInfoEntry
  | ContextEditEntry
  | UsageEntry;

/** Known entry type names. */
export type SessionEntryType = SessionEntry["type"];

/** A node of getTree(). Children oldest first. */
export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  /** Resolved label of this entry, if any. */
  label?: string;
  /** When that label was set (the timestamp of the label entry that set it), as pi 1.6 gives it. */
  labelTimestamp?: string;
  /** True when the entry is surfaced as a root although its parentId is not null (see EntryEnvelope.orphan). */
  orphan?: boolean;
  /** The entry's envelope (cheap; `entry` itself loads the body on first access). */
  envelope?: EntryEnvelope;
}

/** What the model sees from the current leaf, plus the model and thinking level in force there. */
export interface SessionContext {
  messages: AgentMessage[];
  thinkingLevel: string;
  model?: { provider: string; modelId: string };
}

/** One session in a folder listing. */
export interface SessionInfo {
  path: string;
  id: string;
  cwd: string;
  name?: string;
  parentSessionPath?: string;
  created: Date;
  /** As pi reports it: the newest user or assistant message's own time, else the header's, else the file's. */
  modified: Date;
  messageCount: number;
  firstMessage: string;
  sizeBytes: number;
}

/** A `*.jsonl` file of a session folder that a listing left out, and why (said to the user, not thrown). */
export interface SkippedSessionFile {
  path: string;
  reason: string;
}

/** Options of a folder listing (SessionManager.list, listAll). */
export interface ListSessionsOptions {
  /** Receives every `*.jsonl` file that is not listed as a session, with its reason. */
  skipped?: SkippedSessionFile[];
  /** Reads the files not cached (session-info-reader.ts: worker threads); none: the caller's thread. */
  reader?: SessionInfoReader;
  /** Stops the listing (it rejects with the signal's reason): the picker that wanted it has closed. */
  signal?: AbortSignal;
}

/** A problem found while loading a file; the line is skipped (and left in the file). */
export interface LoadIssue {
  /** 1-based line number in the file. */
  line: number;
  reason: string;
  /** True for a torn final line (no newline, cut mid-write); it is repaired before the next append. */
  torn?: boolean;
}

/**
 * The cheap part of an entry, available for every entry without reading its body (see
 * SessionManager.getEnvelopes()): what `envelopeOf(entry)` gives, read from the line when the session is opened.
 */
export interface EntryEnvelope {
  id: string;
  parentId: string | null;
  /** Entry type (`message`, `compaction`, … or an unknown type kept verbatim). */
  type: string;
  /** `message` entries: the message role. */
  role?: string;
  timestamp: string;
  /** ≤ 200 characters of the entry's text, whitespace collapsed to single spaces (one line). */
  preview: string;
  /** toolResult: the tool name; assistant: the names of its tool calls, comma separated. */
  toolName?: string;
  /** Assistant: the message has tool calls and no text. */
  toolCallsOnly?: boolean;
  /** Compaction: tokensBefore. */
  tokens?: number;
  /** Branch summary: the node it summarizes up to (`fromId`), so a UI can show where it came from. */
  fromId?: string;
  /** Assistant: stopReason "error" or "aborted". */
  failed?: boolean;
  /** Assistant: stopReason "aborted" (the user stopped it; `failed` is set too). */
  aborted?: boolean;
  /** custom_message with display:false. */
  hidden?: boolean;
  /**
   * Surfaced as a root although parentId is not null: it names no entry in the file, or it closes a parentId
   * cycle (which is broken at its entry that comes first in the file).
   */
  orphan?: boolean;
}

/** How the path to the leaf differs from an earlier path (SessionManager.getPathChange). */
export interface PathChange<E = EntryEnvelope> {
  /** How many entries the two paths start with (the depth of their fork, plus one; 0 when they share none). */
  shared: number;
  /** The envelopes of the path after those, up to the leaf, root first. */
  tail: E[];
  /** The leaf: the path's last entry (null when the path is empty). */
  leafId: string | null;
}

/** Options of a session's writer lock (see docs/session-format.md, "One writer per file"). */
export interface LockOptions {
  /** How often this process refreshes its lock (default 10 s). */
  heartbeatMs?: number;
  /** A lock not refreshed for this long is `unresponsive` (default 30 s, and at least 3 of its holder's heartbeats). */
  staleAfterMs?: number;
  /**
   * Refresh the lock only when this resolves: the VS Code extension passes a round trip to its window, so a
   * lock whose window is gone stops being refreshed although its process lives on. A call that does not
   * settle means no refresh; the next one starts after it settled.
   */
  alive?: () => PromiseLike<unknown>;
  /** Take over the lock a SessionLockedError described (its `claim`), if it is still that very lock. */
  takeOver?: string;
  /** Called at the two instants of taking a lock where another process may act (see LockHooks). */
  hooks?: LockHooks;
}

/**
 * The low-level file operations of a session's writes. The extension passes none; a caller may give its own to
 * reproduce what the disk can do (a test makes a write stop half-way as a full disk does, or kills the process
 * between a rewrite's fsync and its rename).
 */
export interface SessionFileIo {
  /** write(2) of every append and rewrite: may write fewer bytes than asked, or throw; default fs.writeSync. */
  write?: (fd: number, buf: Buffer, offset: number, length: number) => number;
  /** Called between a rewrite's temp file being flushed and its rename over the session. */
  beforeRename?: (tempFile: string) => void;
}

/**
 * The two instants of taking a lock where another process may act in between, called synchronously. They let a
 * caller hold this process right there (a test reproduces a race with them); the extension passes none.
 */
export interface LockHooks {
  /** A lock at `lockPath` was judged removable (its holder is gone, or it is being taken over) and is removed next. */
  beforeRemove?: (lockPath: string) => void;
  /** The rename that installs this process's lock at `lockPath` failed with `error`; what is in the way is looked at next. */
  afterInstallFailed?: (lockPath: string, error: unknown) => void;
}

/**
 * What SessionManager.subscribe() listeners receive. `rewrite`: the file was rewritten (deleteBranch): entries
 * are gone, parents and positions changed; read the session again. `append` with `byOther`: an entry another
 * program appended to the file (refreshFromDisk); it does not move the leaf — a `leaf` change follows when the
 * leaf follows it.
 */
export type SessionChange =
  | { type: "append"; entry: SessionEntry; byOther?: true }
  | { type: "leaf"; leafId: string | null }
  | { type: "rewrite" };

/** What SessionManager.refreshFromDisk() found in the file since this session last read or wrote it. */
export interface DiskRefresh {
  /** The entries another program appended, now in this session, in file order (none: nothing new). */
  added: EntryEnvelope[];
  /** Lines of theirs that could not be read (corrupt, duplicate id); each is in getLoadIssues() too. */
  issues: LoadIssue[];
  /**
   * The file is not the one read any more (replaced by an atomic rewrite, cut short, its first line changed):
   * nothing of it was read, and nothing will be; open it again to see it. Said once, then every call returns it.
   */
  replaced: boolean;
  /** Why it counts as replaced. */
  reason?: string;
  /** The leaf the file's lines now end on (where pi, or a reopen, resumes), when entries were added. */
  otherLeafId?: string | null;
  /** The leaf moved to `otherLeafId`: their entries continue from it, and it was not kept. */
  followed: boolean;
  /** Their entries end on a branch the leaf is not on (or will not be: it was kept while ours are written). */
  otherBranch: boolean;
}

/** Options of SessionManager.watchDisk(). */
export interface DiskWatchOptions {
  /** Asked at each change: true keeps the leaf where it is (an agent run writes from it). Default: follow. */
  keepLeaf?: () => boolean;
  /** How often the file's stat is polled where change events fail (network folders), in ms; default 1000. */
  intervalMs?: number;
  /** A refresh that failed (an unreadable file): the watch goes on. */
  onError?: (error: unknown) => void;
}

/** What SessionManager.deleteBranch() did. */
export interface BranchDeletion {
  /** Entries removed in all. */
  removed: number;
  /** Of them, the branch itself (the rest pointed into it: labels, archive lines, branch summaries). */
  branch: number;
  /** Entries that stayed but lost their parent, re-attached to their nearest ancestor that stays. */
  reattached: number;
  /** The file as it was, kept until the session is next opened for writing (none in memory). */
  backup?: string;
}

/** Options of SessionManager.create() and inMemory(). */
export interface NewSessionOptions {
  /** The session id (pi's custom session ids); default a new UUIDv7. Invalid ids throw SessionIdError. */
  id?: string;
  /** The session this one continues (header `parentSession`), as pi's newSession() records it. */
  parentSession?: string;
  /** create(): the writer lock, taken when the file is first written. */
  lock?: LockOptions;
  /** create(): the file operations of its writes (see SessionFileIo); default the real ones. */
  io?: SessionFileIo;
}

/** Options of SessionManager.open(). */
export interface OpenSessionOptions {
  /** Folder for files this session creates (createBranchedSession); default: the file's folder. */
  sessionDir?: string;
  /** Open without taking the writer lock; every write then throws SessionReadOnlyError. */
  readOnly?: boolean;
  /** The writer lock (not taken with readOnly). */
  lock?: LockOptions;
  /** The file operations of its writes (see SessionFileIo); default the real ones. */
  io?: SessionFileIo;
}

/** customType of the entries that persist a leaf move (branch()/resetLeaf()). data: LeafMarkerData. */
export const LEAF_MARKER_TYPE = "agent-tree/leaf";

/** data of a leaf marker entry: the entry the user moved to (null = before the first entry). */
export interface LeafMarkerData {
  targetId: string | null;
}

/** A line of a session file: the header or an entry (pi's FileEntry; SessionManager.inMemory takes them). */
export type FileEntry = SessionHeader | SessionEntry;
