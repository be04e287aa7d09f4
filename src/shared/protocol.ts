/**
 * The host <-> webview protocol: one file of discriminated unions on `type`, used by both sides.
 * Names read like paths (`tree/navigate`). The host validates every incoming message
 * (src/host/protocol-validation.ts); the webview trusts the host.
 */
import type { CompareFileChange, CompareOverview, CompareTurn } from "../core/compare/compare-types.js";
import type { TreeColumns } from "./tree-columns.js";

/** Which entry kind a tree row shows. */
export type TreeNodeKind =
  | "user"
  | "assistant"
  | "toolResult"
  | "bashExecution"
  | "custom_message"
  | "branch_summary"
  | "compaction"
  | "label"
  | "custom"
  | "model_change"
  | "thinking_level_change"
  | "session_info"
  | "unknown"
  | "usage"
  | "context_edit"
  | "system";

/** One session entry as the tree draws it: envelope and a short preview, never the whole body. */
export interface TreeNodeDto {
  id: string;
  parentId: string | null;
  kind: TreeNodeKind;
  /** ISO timestamp (children are ordered oldest first). */
  timestamp: string;
  /** First ~200 characters of the entry's text, single line. */
  preview: string;
  /** Resolved label, if any. */
  label?: string;
  /** Assistant: the message has tool calls only, no text. */
  toolCallsOnly?: boolean;
  /** Tool name (toolResult) or tool names (assistant tool calls), for display and search. */
  toolName?: string;
  /** Compaction: tokensBefore. */
  tokens?: number;
  /** Assistant: stopReason "error" or "aborted". */
  failed?: boolean;
  /** Parent id names no entry in the file: shown as a root and flagged. */
  orphan?: boolean;
  /** custom_message with display:false. */
  hidden?: boolean;
  /** Branch summary: the node it summarizes up to (its `fromId`); the row shows where it came from. */
  fromId?: string;
  /**
   * How many files this entry's tool calls changed in the workspace (the checkpoint entries hanging off it,
   * docs/checkpoints.md); absent when none.
   */
  changedFiles?: number;
}

/** Tree filters (pi's): default, no-tools, user-only, labeled-only, all. */
export type TreeFilter = "default" | "no-tools" | "user-only" | "labeled-only" | "all";

/** A chat message as the chat view renders it (already flattened from AgentMessage). */
export interface ChatMessageDto {
  /** Entry id once stored; a temporary id while streaming. */
  id: string;
  role: "user" | "assistant" | "toolResult" | "bashExecution" | "custom" | "branchSummary" | "compactionSummary";
  /** Markdown/plain text of the message (assistant: text blocks joined). */
  text: string;
  thinking?: string;
  toolCalls?: { id: string; name: string; args: string }[];
  toolName?: string;
  toolCallId?: string;
  isError?: boolean;
  stopReason?: string;
  errorMessage?: string;
  model?: string;
  usage?: { input: number; output: number; cost: number };
  timestamp: number;
}

/** Model choice offered by the host. */
export interface ModelDto {
  key: string;
  name: string;
  provider: string;
  contextWindow: number;
}

/** Messages the host posts to a webview. */
export type HostToWebview =
  /**
   * Whole tree after `ready` or a session switch, in columnar form (src/shared/tree-columns.ts: a few big
   * strings and number arrays instead of one object per entry, so 100k entries clone and index quickly).
   */
  | {
      type: "tree/snapshot";
      sessionId: string;
      sessionName?: string;
      sessionFile?: string;
      readOnly?: boolean;
      tree: TreeColumns;
      leafId: string | null;
      /** First entries of the archived branches (each hides itself and everything below it by default). */
      archived?: string[];
    }
  /** New entries appended (in file order). */
  | { type: "tree/append"; nodes: TreeNodeDto[] }
  /** The leaf moved. */
  | { type: "tree/leaf"; leafId: string | null }
  /** Labels changed. */
  | { type: "tree/labels"; changes: { id: string; label?: string }[] }
  /** A branch was archived or unarchived: the first entries of the archived branches now. */
  | { type: "tree/archived"; archived: string[] }
  /** Answer to tree/requestText: an entry's whole text (hover). */
  | { type: "tree/entryText"; requestId: number; entryId: string; text: string }
  /** Scroll to and select an entry. */
  | { type: "tree/reveal"; entryId: string }
  /** A navigation is running (summarizing) or finished; the tree disables clicks meanwhile. */
  | { type: "tree/busy"; busy: boolean; message?: string }
  /** The whole chat for the current path. */
  | {
      type: "chat/snapshot";
      messages: ChatMessageDto[];
      streaming: boolean;
      model?: ModelDto;
      usage: { input: number; output: number; cost: number; contextTokens: number; contextWindow: number };
      noModelReason?: string;
    }
  /**
   * A message was added or replaced (streaming updates carry the same id). When the stored entry
   * replaces a streamed one, `replaces` names the temporary id to swap out.
   */
  | { type: "chat/message"; message: ChatMessageDto; replaces?: string }
  /** Streaming started/stopped. */
  | { type: "chat/streaming"; streaming: boolean }
  /** Put text into the input box (editorText after navigation). */
  | { type: "chat/setInput"; text: string }
  /** A tool call waits for approval. */
  | { type: "chat/approval"; toolCallId: string; toolName: string; summary: string }
  /** The approval was answered elsewhere (notification) or the run ended. */
  | { type: "chat/approvalDone"; toolCallId: string }
  /** Models the picker offers, and the current one. */
  | { type: "chat/models"; models: ModelDto[]; current?: string }
  /** A transient status line. */
  | { type: "status"; text: string; kind: "info" | "error" };

/** Messages a webview posts to the host. */
export type WebviewToHost =
  /** The webview is loaded and listening; the host answers with snapshots. */
  | { type: "ready"; view: "tree" | "chat" }
  /** Click/Enter on a tree row: move there (the host asks about a summary unless mode says). */
  | { type: "tree/navigate"; entryId: string; mode?: "ask" | "summarize" | "none" }
  /** Hover wants an entry's whole text. */
  | { type: "tree/requestText"; requestId: number; entryId: string }
  /** Keyboard shortcut for a context-menu action on the selected row. */
  | {
      type: "tree/action";
      action: "label" | "fork" | "copy" | "summarizeSwitch" | "archive" | "unarchive" | "delete";
      entryId: string;
    }
  /** Send a prompt. */
  | { type: "chat/submit"; text: string }
  /** Stop the running prompt. */
  | { type: "chat/abort" }
  /** Answer a tool approval. `always` auto-approves this tool for the session. */
  | { type: "chat/approve"; toolCallId: string; approved: boolean; always?: boolean }
  /** Pick a model by key. */
  | { type: "chat/selectModel"; key: string }
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
  /** A transient status line. */
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

/** Commands a webview button may run. */
export type WebviewCommand = "newSession" | "openSession" | "compact" | "setApiKey" | "selectModel" | "exportHtml";

/** Largest text the host accepts from a webview (chat input, ids). */
export const MAX_WEBVIEW_TEXT = 1_000_000;

/**
 * What the host's HTML shell loads for either view (paths relative to the extension root). The shell must
 * set `<body data-view="tree|chat">`, link `style` (it includes the codicons; their font is emitted next to
 * it in dist/), load `script` with the CSP nonce, and carry `<meta property="csp-nonce" content="NONCE">`
 * so the UI toolkit can nonce the one `<style>` element it creates (otherwise the CSP blocks it).
 */
export const WEBVIEW_ASSETS = { script: "dist/webview.js", style: "dist/webview.css" } as const;

/** The compare panel's bundle (its own, so the side-bar views do not carry the compare view), same shell rules. */
export const COMPARE_ASSETS = { script: "dist/compare.js", style: "dist/compare.css" } as const;
