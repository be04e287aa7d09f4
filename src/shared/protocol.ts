/**
 * The host <-> webview protocol: one file of discriminated unions on `type`, used by both sides.
 * Names read like paths (`tree/navigate`). The host validates every incoming message
 * (src/host/views/protocol-validation.ts); the webview trusts the host.
 */
import type { CompareFileChange, CompareOverview, CompareTurn } from "../core/compare/compare-types.js";
import type { NavigateMode } from "../core/agent/navigate-types.js";
import type { AttachmentLabel } from "../core/mentions/user-content.js";
import type { QueuedKind, QueuedMessage } from "../core/agent/prompt-queue.js";
import type { ThinkingLevel } from "../core/providers/types.js";
import type { RowColumns } from "../core/rows/row-columns.js";
import type { TodoItem } from "../core/tools/todo-list.js";

/** Tree filters (pi's): declared once in src/core/rows/row-filter.ts. */
export type { TreeFilter } from "../core/rows/row-filter.js";

/** The chat's usage line: tokens and cost of the path, and how full the context is (declared once, here). */
export interface ChatUsage {
  input: number;
  output: number;
  cost: number;
  contextTokens: number;
  contextWindow: number;
}

/** A chat message as the chat view renders it (already flattened from AgentMessage). */
export interface ChatMessageDto {
  /** Entry id once stored; a temporary id while streaming. */
  id: string;
  role: "user" | "assistant" | "toolResult" | "bashExecution" | "custom" | "branchSummary" | "compactionSummary";
  /** Its heading and codicon, as every view names the kind (src/core/entries/kind-words.ts). */
  title: string;
  icon: string;
  /** Short facts after the heading (a hook message's type). */
  facts?: string[];
  /** Markdown/plain text of the message (assistant: text blocks joined; user: the typed text only). */
  text: string;
  /** A user message's attachments by name (their text is for the model; the chat shows them compactly). */
  attachments?: AttachmentLabel[];
  /** A user message's images, for thumbnails. */
  images?: ImageDto[];
  thinking?: string;
  /** Each call: its tool as rows name it (`label`), what it acts on (`hint`), its arguments as JSON (capped). */
  toolCalls?: { id: string; name: string; label: string; hint: string; args: string }[];
  toolName?: string;
  toolCallId?: string;
  isError?: boolean;
  stopReason?: string;
  errorMessage?: string;
  /** How a reply ended badly, in words (`Error: …`, `Aborted`). */
  failure?: string;
  /** How the message is treated, in words (`Not sent to the model (!!)`). */
  note?: string;
  model?: string;
  usage?: { input: number; output: number; cost: number };
  /** An assistant message's valid `todo` call: the list it sets (the chat's checklist follows the newest). */
  todos?: TodoItem[];
  /** A command the user typed with `!!`: recorded, kept out of the model's context. */
  excludedFromContext?: boolean;
  /** A command the user typed that still runs: `text` is its output so far. */
  running?: boolean;
  timestamp: number;
}

/** A file a run changed, as the chat lists it after the run. */
export interface ChangedFileDto {
  /** Workspace-relative path. */
  path: string;
  status: "added" | "modified" | "deleted" | "renamed" | "type-changed";
  /** Lines added and removed; undefined for a binary file. */
  added?: number;
  removed?: number;
}

/** Model choice offered by the host. */
export interface ModelDto {
  key: string;
  name: string;
  provider: string;
  contextWindow: number;
  /** The model takes images (the input refuses them before sending otherwise). */
  images?: boolean;
}

/** An image pasted or dropped into the chat input, base64 (src/core/mentions/image-attachment.ts: caps). */
export interface ImageDto {
  mimeType: string;
  data: string;
}

/**
 * A mention in the chat input (`@` pick, Add Selection/File to Chat, a file dropped from the Explorer). Its
 * `label` is what the input's text shows; on send the host attaches what it names when the label is still in
 * the text (src/core/mentions/file-attachment.ts).
 */
export interface MentionDto {
  /** The text in the input, e.g. `@src/app.ts` or `@src/app.ts#12-20` (starts with `@`). */
  label: string;
  /** Relative to `root`, forward slashes; never leads out of it (`.`: the folder itself). */
  path: string;
  /** The workspace folder it lies in (absolute, normalized). */
  root: string;
  /** A selection: its text and 1-based line range (lines only with the text; `endLine` not before `startLine`). */
  text?: string;
  startLine?: number;
  endLine?: number;
}

/** One row of the chat input's completion list (`@` files and folders, `/` commands and templates). */
export interface CompletionItemDto {
  kind: "file" | "folder" | "command" | "template" | "skill";
  /** What is inserted after the trigger: a path, or a command name. */
  value: string;
  /** Description of a command, template or skill; the workspace folder of a file in a multi-root workspace. */
  detail?: string;
  /** A command's `argument-hint`, e.g. `<title>` or `[focus]`. */
  hint?: string;
  /** A recently opened file. */
  recent?: boolean;
  /** Files and folders: the workspace folder (absolute). */
  root?: string;
}

/**
 * An Ask Aside answer (docs/parallel.md) as the chat shows it: marked as an aside, below the path's messages and
 * not one of them (the aside sits on a side branch; the leaf and the main context do not change).
 */
export interface AsideDto {
  /** The aside's first entry (its question). */
  id: string;
  question: string;
  /** The answer so far (markdown). */
  text: string;
  state: "running" | "done" | "failed" | "stopped";
  error?: string;
  model?: string;
}

/** A branch running beside the user's, as its newest row shows it. */
export interface RunningBranchDto {
  /** The branch's newest message entry. */
  tipId: string;
  /** The tool it runs now, if any. */
  tool?: string;
  /** Tokens so far (estimated from the text while a reply streams). */
  tokens: number;
}

/**
 * A running parallel branch the chat shows instead of the main branch (docs/parallel.md, "Watching a branch"):
 * read-only while it runs; once it ended the chat offers to switch to it.
 */
export interface WatchedBranchDto {
  /** The branch's first entry. */
  branchId: string;
  /** How the banner names it: "Branch 2 of 3", "The aside". */
  label: string;
  state: "running" | "done" | "stopped" | "failed";
  error?: string;
}

/** What the chat's banner of a watched branch asks the host (its buttons, Escape). */
export const WATCH_ACTIONS = ["stop", "back", "switch"] as const;

/** A `chat/watchAction`: Stop Branch, Back to my branch, switch to the finished branch. */
export type WatchAction = (typeof WATCH_ACTIONS)[number];

/** Messages the host posts to a webview. */
export type HostToWebview =
  /**
   * Every row after `ready` or a session switch, as columns (src/core/rows/row-columns.ts: UTF-8 bytes and typed
   * arrays instead of one object per entry, which VS Code posts as binary, out of the message's JSON, so 100k
   * entries travel, clone and index quickly).
   */
  | {
      type: "tree/snapshot";
      sessionId: string;
      sessionName?: string;
      sessionFile?: string;
      readOnly?: boolean;
      rows: RowColumns;
      leafId: string | null;
      /** First entries of the archived branches (each hides itself and everything below it by default). */
      archived?: string[];
      /** Archived branches are shown, dimmed (the host owns the choice, per workspace); absent: hidden. */
      showArchived?: boolean;
    }
  /**
   * What changed since the last tree message, in one message so the view redraws the tree once: a move appends
   * its leaf marker and moves the leaf, a label or archive line is a row and a change. The view applies the
   * parts present, in this order.
   */
  | {
      type: "tree/update";
      /** Rows appended, or sent again with new fields (a badge), in file order: a small batch of the same columns. */
      rows?: RowColumns;
      /** Labels changed (no `label`: removed). */
      labels?: { id: string; label?: string }[];
      /** A branch was archived or unarchived: the first entries of the archived branches now. */
      archived?: string[];
      /** The leaf moved. */
      leafId?: string | null;
      /** Archived branches are now shown (dimmed) or hidden: the host's choice changed, or the view asked for it. */
      showArchived?: boolean;
    }
  /** Answer to tree/requestText: an entry's whole text (hover). */
  | { type: "tree/entryText"; requestId: number; entryId: string; text: string }
  /** Scroll to and select an entry. */
  | { type: "tree/reveal"; entryId: string }
  /** A navigation is running (summarizing) or finished; the tree disables clicks meanwhile. */
  | { type: "tree/busy"; busy: boolean; message?: string }
  /** Branches running beside the user's (Explore in Parallel, Ask Aside), each on its newest row; all of them. */
  | { type: "tree/running"; branches: RunningBranchDto[] }
  /**
   * The chat of the current path. A path may hold thousands of messages, so the chat holds a window of them
   * ending at the leaf: `messages` are the path's messages from index `start` (0 = the root's) to the leaf.
   * With `keep`, the chat keeps the messages it holds before `start` (the path still has them: the part a
   * move did not change) and replaces the rest; without, it replaces everything. Older messages are paged
   * in with chat/requestOlder.
   */
  | {
      type: "chat/snapshot";
      start: number;
      keep: boolean;
      messages: ChatMessageDto[];
      streaming: boolean;
      model?: ModelDto;
      usage: ChatUsage;
      noModelReason?: string;
      /** The todo list of the path (its newest valid `todo` call); absent when it has none. */
      todos?: TodoItem[];
      /** Plan mode is on at the leaf (its path's newest plan-mode line: src/core/agent/plan-mode.ts). */
      planMode?: boolean;
      /** The plan to approve: the leaf's entry, an answer the agent gave in plan mode (Approve Plan shows under it). */
      planId?: string;
    }
  /**
   * A message was added or replaced (streaming updates carry the same id). When the stored entry
   * replaces a streamed one, `replaces` names the temporary id to swap out.
   */
  | { type: "chat/message"; message: ChatMessageDto; replaces?: string }
  /**
   * A streamed message's text (or its thinking) grew: `append` follows its first `at` characters. Sent instead of
   * chat/message while nothing else of the message changed, so a long reply does not cross the channel whole on every update; the view
   * applies it only to the message it holds with that id and a text of exactly `at` characters (chatTextDeltaProblem).
   */
  | ChatTextDelta
  /**
   * Answer to chat/requestOlder: the path's messages from index `start` up to the chat's first one. Not sent
   * when the request no longer matches what the chat holds (a snapshot is on its way).
   */
  | { type: "chat/older"; requestId: number; start: number; messages: ChatMessageDto[] }
  /** Streaming started/stopped. */
  | { type: "chat/streaming"; streaming: boolean }
  /** The chat input's settings: which kind of queued message Enter makes while the agent works (Alt+Enter the other). */
  | { type: "chat/settings"; enterWhileRunning: QueuedKind }
  /** Put text into the input box (editorText after navigation). */
  | { type: "chat/setInput"; text: string }
  /** Answer to chat/complete: the completion list's rows for that query. */
  | { type: "chat/completions"; requestId: number; items: CompletionItemDto[] }
  /** Add a mention to the input (Add Selection to Chat, Add File to Chat) and focus it. */
  | { type: "chat/addMention"; mention: MentionDto }
  /**
   * A tool call waits for approval. `edit`: a write or edit whose result opened in a diff editor (Accept, Reject,
   * Accept All in This Run). `rules`: what Always Allow in This Workspace adds (absent: not offered). `local`: the
   * call reaches a loopback or private address, in words (only Allow and Deny are offered).
   */
  | {
      type: "chat/approval";
      toolCallId: string;
      toolName: string;
      summary: string;
      edit?: { path: string };
      rules?: string[];
      local?: string;
    }
  /** The messages typed while the agent works, waiting for delivery (oldest first). */
  | { type: "chat/queue"; items: QueuedMessage[] }
  /** Queued messages a run left undelivered (aborted, failed): put back into the input, before what it holds. */
  | { type: "chat/restoreInput"; text: string }
  /** The files the last run changed, with line counts from the checkpoints (each opens its diff). */
  | { type: "chat/changedFiles"; entryId: string; files: ChangedFileDto[] }
  /** The approval was answered elsewhere (notification) or the run ended. */
  | { type: "chat/approvalDone"; toolCallId: string }
  /**
   * The current model (`models` holds it, for its name and whether it takes images; the picker of every model is the
   * host's), the thinking levels it takes (only "off" for a model without reasoning) and the one in force at the leaf.
   */
  | {
      type: "chat/models";
      models: ModelDto[];
      current?: string;
      thinkingLevels?: ThinkingLevel[];
      thinkingLevel?: ThinkingLevel;
    }
  /** An aside was asked, answered or ended (same id: replaces the shown one). */
  | { type: "chat/aside"; aside: AsideDto }
  /**
   * The chat now shows a running parallel branch (its path and its streaming reply), or its state changed; no
   * `branch`: it shows the main branch again. Sent before the chat/snapshot of what it shows.
   */
  | { type: "chat/watch"; branch?: WatchedBranchDto }
  /** A transient status line; one with no text clears the line. */
  | { type: "status"; text: string; kind: "info" | "error" };

/** Messages a webview posts to the host. */
export type WebviewToHost =
  /** The webview is loaded and listening; the host answers with snapshots. */
  | { type: "ready"; view: "tree" | "chat" }
  /** Click/Enter on a tree row: move there (the host asks about a summary unless mode says). */
  | { type: "tree/navigate"; entryId: string; mode?: Exclude<NavigateMode, "choose"> }
  /** Hover wants an entry's whole text. */
  | { type: "tree/requestText"; requestId: number; entryId: string }
  /**
   * The toolbar toggle, or a reveal of a row in a hidden archived branch: show archived branches (dimmed) or hide
   * them. The host owns the choice and answers with `tree/update` `showArchived`; the view shows what that says.
   */
  | { type: "tree/showArchived"; show: boolean }
  /** A key for a row command on the selected row: the command's operation runs on it (src/host/operations). */
  | { type: "tree/action"; command: TreeKeyCommand; entryId: string }
  /** Send a prompt, with the mentions the input holds (attached when their label is still in `text`). */
  | { type: "chat/submit"; text: string; mentions?: MentionDto[]; images?: ImageDto[] }
  /** The input wants completion rows: `@` files and folders, or `/` commands at the start of the input. */
  | { type: "chat/complete"; requestId: number; trigger: "@" | "/"; query: string }
  /** Files dropped onto the input (URIs from the Explorer or the OS): the host answers with chat/addMention. */
  | { type: "chat/dropFiles"; uris: string[] }
  /** The chat scrolled near its first message, which is the path's message `before` (id `beforeId`). */
  | { type: "chat/requestOlder"; requestId: number; before: number; beforeId: string }
  /** Stop the running prompt. */
  | { type: "chat/abort" }
  /**
   * Answer a tool approval. `always` auto-approves this tool for the session; `allInRun` accepts every write and
   * edit until the run ends; `inWorkspace` adds the offered rules to the workspace's setting.
   */
  | {
      type: "chat/approve";
      toolCallId: string;
      approved: boolean;
      always?: boolean;
      allInRun?: boolean;
      inWorkspace?: boolean;
    }
  /** While a run works: queue a follow-up or a steering message (Enter one, Alt+Enter the other: chat/settings). */
  | { type: "chat/queue"; kind: QueuedKind; text: string; mentions?: MentionDto[]; images?: ImageDto[] }
  /** Change a queued message's text (empty removes it). */
  | { type: "chat/queueEdit"; id: string; text: string }
  /** Remove a queued message. */
  | { type: "chat/queueRemove"; id: string }
  /** Pick a thinking level. */
  | { type: "chat/selectThinkingLevel"; level: ThinkingLevel }
  /**
   * Open the diff of a pending edit again (`toolCallId`), or of a changed file of chat/changedFiles (`file`): one
   * of them.
   */
  | { type: "chat/openDiff"; toolCallId?: string; file?: number }
  /** Pick a model by key. */
  | { type: "chat/selectModel"; key: string }
  /** The banner of a watched branch (chat/watch): stop it, go back to the main branch, or switch to it once ended. */
  | { type: "chat/watchAction"; action: WatchAction }
  /** Continue as Branch on an aside of the chat (its first entry, AsideDto.id): the aside becomes the leaf's branch. */
  | { type: "chat/continueAside"; asideId: string }
  /** Run an extension command with no arguments (New Session, Open Session…, Compact, Set API Key). */
  | { type: "command"; command: WebviewCommand };

/**
 * Messages the host posts to a compare panel (an editor tab comparing two branches; webview/compare). The
 * comparison's data shapes are the core's (src/core/compare/compare-types.ts).
 */
export type HostToCompare =
  /** Answer to `compare/ready`: both ends, the common ancestor and the status of every aligned turn. */
  | { type: "compare/snapshot"; overview: CompareOverview; sessionName?: string }
  /** A page of aligned turns with their items (answer to `compare/requestTurns`). */
  | { type: "compare/turns"; turns: CompareTurn[] }
  /** The files that differ between the two ends, when the host can tell (workspace checkpoints). */
  | { type: "compare/files"; files: CompareFileChange[] }
  /** A transient status line; one with no text clears the line. */
  | { type: "status"; text: string; kind: "info" | "error" };

/** Messages a compare panel posts to the host. */
export type CompareToHost =
  /** The panel is loaded and listening; the host answers with `compare/snapshot`. */
  | { type: "compare/ready" }
  /** Aligned turns [start, start + count) are needed (the view is windowed; the host caps `count`). */
  | { type: "compare/requestTurns"; start: number; count: number }
  /** Show this entry in the session tree. */
  | { type: "compare/reveal"; entryId: string }
  /** Open the diff of a file of the files section. */
  | { type: "compare/openFile"; path: string };

/**
 * The row commands the tree's keys may run on the selected row (`tree/action`): command ids of the host's
 * operations table, so a key, the row's context menu and the palette run one operation.
 */
export const TREE_KEY_COMMANDS = [
  "agentTree.labelEntry",
  "agentTree.copyText",
  "agentTree.summarizeAndSwitchHere",
  "agentTree.archiveBranch",
  "agentTree.unarchiveBranch",
  "agentTree.deleteBranch",
  "agentTree.replayWithModel",
] as const;

/** A command of `tree/action`. */
export type TreeKeyCommand = (typeof TREE_KEY_COMMANDS)[number];

/** Commands a webview button may run (each stands for an extension command: src/host/common/command-ids.ts). */
export const WEBVIEW_COMMANDS = [
  "newSession",
  "openSession",
  "compact",
  "setApiKey",
  "logIn",
  "selectModel",
  "exportHtml",
  "togglePlanMode",
  "approvePlan",
] as const;

/** A command of a `command` message. */
export type WebviewCommand = (typeof WEBVIEW_COMMANDS)[number];

/** Largest text the host accepts from a webview (chat input, ids). */
export const MAX_WEBVIEW_TEXT = 1_000_000;

/** See HostToWebview's `chat/messageText`. */
export interface ChatTextDelta {
  type: "chat/messageText";
  id: string;
  /** The field that grew: the message's text (absent) or its thinking (absent before counts as empty). */
  field?: "thinking";
  at: number;
  append: string;
}

/**
 * Why a `chat/messageText` delta cannot be applied to `held` (the message the view holds with the delta's id), or
 * undefined when it can: a delta for no message, for another length of text (one missed or applied twice) or with
 * fields of the wrong type would show a wrong text, so it is refused and the view keeps what it has until the next
 * whole message.
 */
export function chatTextDeltaProblem(held: ChatMessageDto | undefined, delta: unknown): string | undefined {
  const d = (typeof delta === "object" && delta !== null ? delta : {}) as Partial<Record<keyof ChatTextDelta, unknown>>;
  if (typeof d.id !== "string") return "chat/messageText without a message id";
  if (d.field !== undefined && d.field !== "thinking")
    return `chat/messageText for ${d.id}: \`field\` ${JSON.stringify(d.field)} is neither the text nor the thinking`;
  if (typeof d.append !== "string") return `chat/messageText for ${d.id}: \`append\` is not text`;
  if (typeof d.at !== "number" || !Number.isInteger(d.at) || d.at < 0)
    return `chat/messageText for ${d.id}: \`at\` is not a character offset`;
  if (held === undefined) return `chat/messageText for ${d.id}: the chat holds no such message`;
  const length = (d.field === "thinking" ? (held.thinking ?? "") : held.text).length;
  const what = d.field === "thinking" ? "thinking" : "text";
  if (length !== d.at)
    return `chat/messageText for ${d.id}: it continues ${d.at} characters of ${what}, the chat holds ${length}`;
  return undefined;
}
