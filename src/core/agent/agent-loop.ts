/**
 * The turn loop of one prompt: model call → tool calls → next model call, until the model stops,
 * the turn limit is hit, an error occurs or the signal aborts. Every message is appended as it
 * completes; every tool call gets a result, run or not. Messages the user typed meanwhile join as
 * pi delivers them: a steering message after the reply's tool calls ran, before the next model call;
 * a follow-up when the model would stop, as a request of its own (with a fresh turn budget).
 */
import type { AgentMessage, AssistantMessage, ToolCall, ToolResultMessage, UserMessage } from "../messages.js";
import type { StreamRequest } from "../providers/types.js";
import type { AgentTool, ToolApprovalPolicy, ToolResult } from "../tools/types.js";
import type { AgentEvent } from "./events.js";
import { streamAssistant, type StreamFn } from "./stream-turn.js";
import {
  ABORTED_TOOL_RESULT,
  FAILED_REPLY_TOOL_RESULT,
  executeToolCall,
  skippedToolResult,
  type ToolCallEnv,
} from "./tool-execution.js";
import { isContextOverflowError } from "../compaction/settings.js";

/** What the loop needs from the session. */
export interface LoopEnv {
  signal: AbortSignal;
  maxTurns: number;
  tools: readonly AgentTool[];
  approve: ToolApprovalPolicy;
  cwd: string;
  stream: StreamFn;
  emit: (event: AgentEvent) => void;
  /** Removes known keys from a tool result (see KeyRedactor). */
  redact: (result: ToolResult) => ToolResult;
  /** Before each call's approval: a text when a hook blocks it (ToolCallEnv.beforeCall). */
  beforeCall?: ToolCallEnv["beforeCall"];
  /**
   * Appends a message to the session and emits message_end; returns its entry id as a string (anything else: the
   * loop runs without a store, and its calls get no `callEntryId`).
   */
  append: (message: AgentMessage) => unknown;
  /** Adds the hook messages sent meanwhile. */
  flushQueued: () => void;
  /** True when a queued hook message asked for a reply (keeps the loop going). */
  hasTriggeredMessages: () => boolean;
  /** Threshold compaction before a model call. */
  compactIfNeeded: () => Promise<void>;
  /** Compaction after a context-overflow error; true when the context was compacted. */
  compactForOverflow: () => Promise<boolean>;
  /** True when an overflow should be answered by compacting. */
  canCompact: boolean;
  /** True when a failed reply says its request did not fit the context window (default: the message's text). */
  isContextOverflow?: (message: AssistantMessage) => boolean;
  buildRequest: () => Promise<StreamRequest>;
  /** Runs before each model call (after the abort and turn-limit checks): the session's checkpoint hook. */
  beforeModelCall?: () => Promise<void>;
  /** The next steering message the user typed meanwhile, if any (taken off its queue). */
  takeSteering?: () => UserMessage | undefined;
  /** The next follow-up the user queued, if any (taken off its queue). */
  takeFollowUp?: () => UserMessage | undefined;
  /**
   * Runs before a steering message or follow-up is appended: the session records the system prompt's changes
   * there, so a message delivered during a run follows its prompt as a prompt's own message does.
   */
  beforeDeliver?: () => Promise<void>;
}

/** Runs the loop (see the file comment). Never throws for model or tool failures. */
export async function runAgentLoop(env: LoopEnv): Promise<void> {
  const { signal, emit } = env;
  const toolsByName = new Map(env.tools.map((t) => [t.name, t]));
  let overflowRetried = false;
  const deliver = async (message: UserMessage): Promise<void> => {
    await env.beforeDeliver?.();
    emit({ type: "message_start", message });
    env.append(message);
  };
  for (let turn = 0; ; turn++) {
    if (signal.aborted) return;
    if (turn >= env.maxTurns) {
      emit({ type: "error", error: `Stopped after ${env.maxTurns} model calls in one prompt`, source: "model" });
      return;
    }
    await env.beforeModelCall?.();
    env.flushQueued();
    await env.compactIfNeeded();
    if (signal.aborted) return;

    emit({ type: "turn_start" });
    const { message, errorKind } = await streamAssistant(env.stream, await env.buildRequest(), emit);
    const messageId = env.append(message);

    if (message.stopReason === "error") {
      const overflow = env.isContextOverflow?.(message) ?? isContextOverflowError(message.errorMessage);
      if (env.canCompact && !overflowRetried && overflow) {
        overflowRetried = true;
        emit({ type: "turn_end", message, toolResults: [] });
        if (await env.compactForOverflow()) continue;
      }
      emit({
        type: "error",
        error: message.errorMessage ?? "The model call failed",
        source: "model",
        ...(errorKind ? { errorKind } : {}),
        provider: message.provider,
      });
    }

    const calls = message.content.filter((c) => c.type === "toolCall");
    const ran = message.stopReason !== "error" && message.stopReason !== "aborted";
    const execute = (call: ToolCall): Promise<ToolResultMessage> =>
      ran && !signal.aborted
        ? executeToolCall(call, {
            tools: toolsByName,
            approve: env.approve,
            cwd: env.cwd,
            signal,
            emit,
            redact: env.redact,
            ...(env.beforeCall ? { beforeCall: env.beforeCall } : {}),
            ...(typeof messageId === "string" ? { callEntryId: messageId } : {}),
          })
        : // Calls of a failed or aborted reply never run, but still get a result so the transcript stays valid.
          Promise.resolve(skippedToolResult(call, skippedText(message), emit));
    const concurrent = (call: ToolCall): boolean => ran && toolsByName.get(call.name)?.concurrent === true;
    // Consecutive calls of a concurrent tool start together; every result is recorded in call order.
    const started = new Map<number, Promise<ToolResultMessage>>();
    const toolResults: ToolResultMessage[] = [];
    for (let i = 0; i < calls.length; i++) {
      if (!started.has(i)) {
        if (concurrent(calls[i]))
          for (let j = i; j < calls.length && concurrent(calls[j]) && !started.has(j); j++)
            started.set(j, execute(calls[j]));
        else started.set(i, execute(calls[i]));
      }
      const result = await (started.get(i) as Promise<ToolResultMessage>);
      emit({ type: "message_start", message: result });
      env.append(result);
      toolResults.push(result);
    }
    emit({ type: "turn_end", message, toolResults });

    if (!ran || signal.aborted) return;
    const steering = env.takeSteering?.();
    if (steering) await deliver(steering);
    if (steering || calls.length > 0 || env.hasTriggeredMessages()) continue;
    const followUp = env.takeFollowUp?.();
    if (!followUp) return;
    await deliver(followUp);
    // A follow-up is a prompt of its own: it gets the whole turn budget again.
    turn = -1;
  }
}

function skippedText(message: AssistantMessage): string {
  return message.stopReason === "error" ? FAILED_REPLY_TOOL_RESULT : ABORTED_TOOL_RESULT;
}
