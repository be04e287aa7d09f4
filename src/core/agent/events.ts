/** Events an AgentSession emits while it works; a UI renders them while streaming. */
import type { AgentMessage, AssistantMessage, BashExecutionMessage, ToolResultMessage } from "../messages.js";
import type { ToolResult } from "../tools/types.js";
import type { ProviderErrorKind } from "../providers/types.js";
import type { QueuedMessage } from "./prompt-queue.js";

/** Emitted by AgentSession.subscribe(). */
export type AgentEvent =
  /** A prompt started running. */
  | { type: "agent_start" }
  /** The prompt finished (normally, with an error, or aborted). */
  | { type: "agent_end"; messages: AgentMessage[] }
  /** One model call plus its tool calls begins. */
  | { type: "turn_start" }
  /** One model call plus its tool calls ended. */
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  /** A message begins (user message when submitted, assistant when streaming starts). */
  | { type: "message_start"; message: AgentMessage }
  /** The streaming assistant message changed. */
  | { type: "message_update"; message: AssistantMessage }
  /** A message is complete and has been appended to the session as entry `entryId`. */
  | { type: "message_end"; message: AgentMessage; entryId: string }
  /** A tool call is waiting for the host's approval. */
  | { type: "tool_approval_pending"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  /** A tool starts. */
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown> }
  /** A tool streamed partial output. */
  | { type: "tool_execution_update"; toolCallId: string; toolName: string; partial: ToolResult }
  /** A tool finished. */
  | { type: "tool_execution_end"; toolCallId: string; toolName: string; result: ToolResult; isError: boolean }
  /** A command the user typed (`!command`) started (AgentSession.executeBash). */
  | { type: "bash_execution_start"; command: string; excludeFromContext: boolean }
  /** The output so far of the running command (its tail, cut as the bash tool cuts it). */
  | { type: "bash_execution_update"; command: string; output: string }
  /**
   * The command ended (done, failed or aborted). Its message_end follows when it is recorded: at once, or when the
   * running prompt ends (a command that ends during a prompt waits, as in pi). `error`: it could not be started;
   * nothing is recorded.
   */
  | { type: "bash_execution_end"; message?: BashExecutionMessage; error?: string }
  /** Automatic or manual compaction started / ended. */
  | { type: "compaction_start"; reason: "manual" | "threshold" | "overflow" }
  | { type: "compaction_end"; entryId?: string; error?: string; aborted?: boolean }
  /** The messages queued while the agent works changed (queued, edited, removed, delivered or cleared). */
  | { type: "queue_update"; items: readonly QueuedMessage[] }
  /** Retrying a failed model call. */
  | { type: "retry"; attempt: number; delayMs: number; error: string }
  /**
   * A failure the user should see (model error, hook error). The session is unchanged by it. A failed model call
   * says what failed (`errorKind`: a refused key is "auth") and whose (`provider`), so the host can offer the fix.
   */
  | {
      type: "error";
      error: string;
      source: "model" | "tool" | "hook" | "compaction" | "summary" | "checkpoint";
      errorKind?: ProviderErrorKind;
      provider?: string;
    };
