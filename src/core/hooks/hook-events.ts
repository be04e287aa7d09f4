/**
 * The hook events of a session and their payloads (pi's hook API, reduced to what this core supports): what
 * handlers of each event see and may return. src/core/hooks/types.ts builds the handler API on these.
 */
import type { AgentMessage, ImageContent, TextContent, Usage } from "../messages.js";
import type { ModelInfo } from "../providers/types.js";
import type { BranchSummaryEntry, CompactionEntry, SessionEntry } from "../session/types.js";
import type { SystemPromptOptions } from "../prompt/prompt-options.js";

/**
 * What session_before_tree handlers see. A navigation fills it with the move; Bring Conclusions Here fills it
 * with `bringFrom` set, `targetId` and `oldLeafId` both the current leaf (the user stays there and the summary is
 * appended to it) and `entriesToSummarize` the other branch from the common ancestor to `bringFrom`.
 */
export interface TreePreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  entriesToSummarize: SessionEntry[];
  userWantsSummary: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
  /** Bring Conclusions Here only: the node of another branch whose conclusions are brought (the summary's fromId). */
  bringFrom?: string;
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
  /** `position` as pi 1.6 sends it: "before" (/fork, ends before a user message) or "at" (/clone, keeps the entry). */
  session_before_fork: { type: "session_before_fork"; entryId: string; position: "before" | "at" };
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
  /**
   * Before a prompt's first model call (pi's before_agent_start). `systemPromptOptions` is the handlers' to change
   * in place (sections, promptGuidelines, contextFiles, …): the changed sections are recorded and sent. Absent when
   * the session was given a fixed prompt text.
   */
  before_agent_start: {
    type: "before_agent_start";
    /** The user's text; undefined for a turn a hook message started. */
    prompt?: string;
    /** The prompt as rendered so far (earlier handlers' changes included). */
    systemPrompt: string;
    systemPromptOptions?: SystemPromptOptions;
  };
  /**
   * Before a tool call the model asked for is approved and run, in every run of the session — the leaf's, a
   * parallel branch's, an aside's (pi's tool_call). `input` is the call's arguments, the handlers' to change in place
   * (later handlers and the tool see the change). A handler that returns `block: true` stops the call: it is not
   * asked about and not run, and the model gets "Blocked by a hook: <reason>" as its result.
   */
  tool_call: {
    type: "tool_call";
    toolCallId: string;
    toolName: string;
    input: Record<string, unknown>;
  };
}

/** What each hook event's handlers may return. */
export interface HookResultMap {
  session_before_tree: {
    cancel?: boolean;
    /** A summary of the hook's own; `usage`: its model call's tokens and cost, recorded on the entry (as pi). */
    summary?: { summary: string; details?: unknown; usage?: Usage };
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
    /** A compaction of the hook's own; `usage` as for session_before_tree's summary. */
    compaction?: { summary: string; firstKeptEntryId?: string; details?: unknown; usage?: Usage };
  };
  session_compact: void;
  before_agent_start: {
    /** Sends this text as the whole prompt for the run (not recorded: the session keeps the sections). */
    systemPrompt?: string;
    /** Added after the user's message (a custom_message the model sees). */
    message?: HookMessage;
  };
  tool_call: {
    /** Stops the call (the remaining handlers are not asked). */
    block?: boolean;
    /** Why, told to the model in the call's result. */
    reason?: string;
  };
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
