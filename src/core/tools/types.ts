/** Workspace tools the agent can call (pi's names and argument shapes). */
import type { ImageContent, TextContent } from "../messages.js";
import type { ToolDefinition } from "../providers/types.js";
import type { ReviewedFile } from "./reviewed-file.js";

/** What a tool returns. */
export interface ToolResult {
  content: (TextContent | ImageContent)[];
  isError?: boolean;
  details?: unknown;
}

/** Passed to every tool call. */
export interface ToolContext {
  /** Workspace root; every path is confined to it. */
  cwd: string;
  signal?: AbortSignal;
  /** Streaming partial output (bash). */
  onUpdate?: (partial: ToolResult) => void;
  /**
   * The user approved this call knowing it reaches a loopback or private address (web_fetch): the approval said
   * so. Without it such an address is refused.
   */
  localNetwork?: boolean;
  /**
   * `write`/`edit` approved from a diff: the file as the diff showed it. The tool runs only on that file and
   * throws FileChangedSinceReviewError otherwise (src/core/tools/reviewed-file.ts).
   */
  reviewed?: ReviewedFile;
  /**
   * The entry of the assistant message holding this call, once recorded: where a branch off the call hangs (a
   * subagent's). Undefined when the loop runs without a session store.
   */
  callEntryId?: string;
}

/** A tool the agent loop can run. */
export interface AgentTool<Args = Record<string, unknown>> extends ToolDefinition {
  /** Whether it may change the workspace, so the host asks before running it (write, edit, bash). */
  mutates: boolean;
  /** The host asks before running it although it changes nothing (web_fetch: it reaches the network). */
  asks?: boolean;
  /** One line for the system prompt's tool list (else the first line of `description`). */
  promptSnippet?: string;
  /** Rule bullets the system prompt adds while the tool is offered. */
  promptGuidelines?: readonly string[];
  /**
   * Several calls of it in one reply run at once (the loop starts a reply's consecutive calls of such tools together
   * and records their results in call order): a subagent, which waits for a whole agent run.
   */
  concurrent?: boolean;
  /**
   * It may change the workspace's files without being a `mutates` tool (a subagent: its own calls are asked), so
   * the run records a checkpoint after it as after a `mutates` tool.
   */
  mayChangeFiles?: boolean;
  execute(args: Args, ctx: ToolContext): Promise<ToolResult>;
}

/** A pending call the host may approve or refuse. */
export interface ToolApprovalRequest {
  toolCallId: string;
  toolName: string;
  args: Record<string, unknown>;
  /**
   * Asked again: why (the file of an approved `write`/`edit` changed after its diff was shown; nothing was
   * written). The host shows the new diff and should ask even where it would not ask again (Accept All in This Run).
   */
  changed?: string;
  /** Who asks when it is not the agent at the leaf: a subagent sharing its approvals ("Subagent 2"). */
  asker?: string;
}

/**
 * The host's answer. `reviewed`: the call was approved from a diff of this file (a `write` or `edit`); it then runs
 * only on the file as the diff showed it. `localNetwork`: the approval said the call reaches a local address (see
 * ToolContext).
 */
export type ToolApprovalDecision =
  { approved: true; reviewed?: ReviewedFile; localNetwork?: boolean } | { approved: false; reason?: string };

/** Supplied by the host: asks the user (or a setting) before a tool runs. */
export type ToolApprovalPolicy = (request: ToolApprovalRequest, signal?: AbortSignal) => Promise<ToolApprovalDecision>;

/**
 * Tools that come and go while a session runs (MCP servers): the session offers the model its own tools plus
 * these, asking `ready` when a prompt starts.
 */
export interface AgentToolSource {
  /** The tools available now, without starting or waiting for anything. */
  current(): readonly AgentTool[];
  /** Starts what the tools need and resolves with them (a bounded wait; ends early when `signal` aborts). */
  ready(signal?: AbortSignal): Promise<readonly AgentTool[]>;
}
