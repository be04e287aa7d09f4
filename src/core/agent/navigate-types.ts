/** Options, results and hook payloads of AgentSession.navigateTree / fork / compact. */
import type { AgentMessage, ImageContent, TextContent } from "../messages.js";
import type { ModelInfo } from "../providers/types.js";
import type { BranchSummaryEntry, CompactionEntry, SessionEntry } from "../session/types.js";

/** navigateTree options (tree.md). */
export interface NavigateTreeOptions {
  /** Summarize the branch being left. */
  summarize?: boolean;
  /** Extra focus for the summarizer (appended as "Additional focus: …"). */
  customInstructions?: string;
  /** With customInstructions: replace the default instructions instead of appending. */
  replaceInstructions?: boolean;
  /** Label for the summary entry, or for the target when not summarizing. */
  label?: string;
  /** Aborts summarization; navigation is then cancelled and nothing changes. */
  signal?: AbortSignal;
  /** Use the deterministic extractive summarizer even when a model is available. */
  extractive?: boolean;
}

/** navigateTree result. */
export interface NavigateTreeResult {
  /** Text of the selected user/custom message, for re-submission. */
  editorText?: string;
  /** True when nothing changed (hook cancel, failure, abort, or no-op). */
  cancelled: boolean;
  /** True when cancelled by the signal. */
  aborted?: boolean;
  /** Set when cancelled by a failure: the message to show. */
  error?: string;
  /** True when the target was already the leaf. */
  noop?: boolean;
  /** The summary entry written, if any. */
  summaryEntry?: BranchSummaryEntry;
}

/** What session_before_tree handlers see. */
export interface TreePreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  entriesToSummarize: SessionEntry[];
  userWantsSummary: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

/** Read files / modified files tracked by summaries and compactions. */
export interface FileOperationDetails {
  readFiles: string[];
  modifiedFiles: string[];
  /** True when written by the deterministic extractive summarizer (no model). */
  extractive?: boolean;
  [extra: string]: unknown;
}

/** What session_before_compact handlers see. */
export interface CompactionPreparation {
  firstKeptEntryId: string;
  messagesToSummarize: AgentMessage[];
  tokensBefore: number;
  previousSummary?: string;
  fileOps: FileOperationDetails;
}

/** Hook events and their payloads. */
export interface HookEventMap {
  session_before_tree: {
    type: "session_before_tree";
    preparation: TreePreparation;
    model?: ModelInfo;
    signal: AbortSignal;
  };
  session_tree: {
    type: "session_tree";
    newLeafId: string | null;
    oldLeafId: string | null;
    summaryEntry?: BranchSummaryEntry;
    fromHook?: boolean;
  };
  context: { type: "context"; messages: AgentMessage[] };
  session_before_fork: { type: "session_before_fork"; entryId: string };
  session_fork: { type: "session_fork"; previousSessionFile?: string; newSessionFile?: string };
  session_before_compact: {
    type: "session_before_compact";
    preparation: CompactionPreparation;
    previousCompactions: CompactionEntry[];
    customInstructions?: string;
    model?: ModelInfo;
    signal: AbortSignal;
  };
  session_compact: { type: "session_compact"; compactionEntry: CompactionEntry; fromHook: boolean };
}

/** What each hook event's handlers may return. */
export interface HookResultMap {
  session_before_tree: {
    cancel?: boolean;
    summary?: { summary: string; details?: unknown };
    customInstructions?: string;
    replaceInstructions?: boolean;
    label?: string;
  };
  session_tree: void;
  context: { messages?: AgentMessage[] };
  session_before_fork: { cancel?: boolean; skipConversationRestore?: boolean };
  session_fork: void;
  session_before_compact: {
    cancel?: boolean;
    compaction?: { summary: string; firstKeptEntryId?: string; details?: unknown };
  };
  session_compact: void;
}

/** A hook event name. */
export type HookEventName = keyof HookEventMap;

/** A message a hook sends into the conversation (stored as custom_message). */
export interface HookMessage<T = unknown> {
  customType: string;
  content: string | (TextContent | ImageContent)[];
  display: boolean;
  details?: T;
}
