/**
 * Runs one tool call the model asked for: approval by the host's policy, execution with the abort
 * signal, and a ToolResultMessage in every case (refused, aborted, unknown tool, tool threw), so the
 * transcript always pairs each call with a result. A `write`/`edit` approved from its diff whose file changed
 * since is asked about again with the new diff, up to MAX_REVIEWS times (src/core/tools/reviewed-file.ts).
 */
import type { ToolCall, ToolResultMessage } from "../messages.js";
import { FileChangedSinceReviewError, MAX_REVIEWS } from "../tools/reviewed-file.js";
import type {
  AgentTool,
  ToolApprovalDecision,
  ToolApprovalPolicy,
  ToolApprovalRequest,
  ToolResult,
} from "../tools/types.js";
import type { AgentEvent } from "./events.js";
import { errorText } from "../error-text.js";

/** Text of the result of a call that was not run because the prompt was aborted. */
export const ABORTED_TOOL_RESULT = "Aborted";
/** Text of the result of a call in a reply that failed mid-stream (its arguments may be incomplete). */
export const FAILED_REPLY_TOOL_RESULT = "Not run: the model reply failed before the call was complete";

/** What a tool call needs from the session. */
export interface ToolCallEnv {
  tools: ReadonlyMap<string, AgentTool>;
  approve: ToolApprovalPolicy;
  cwd: string;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
  /** Applied to every result and partial result before it is emitted or kept (removes known keys). */
  redact: (result: ToolResult) => ToolResult;
  /**
   * Asked before the approval (the session's tool_call hooks): a text when the call is blocked (then it is neither
   * asked about nor run, and the model gets the text), undefined to go on. May change `call.arguments` in place.
   */
  beforeCall?: (call: ToolCall, signal: AbortSignal) => Promise<string | undefined>;
  /** The entry of the assistant message holding the call (ToolContext.callEntryId). */
  callEntryId?: string;
}

/**
 * Settles with `promise`, or with a refusal as soon as `signal` aborts — a host dialog that ignores
 * the signal must not keep an aborted prompt waiting.
 */
function untilAborted(promise: Promise<ToolApprovalDecision>, signal: AbortSignal): Promise<ToolApprovalDecision> {
  if (signal.aborted) return Promise.resolve({ approved: false, reason: ABORTED_TOOL_RESULT });
  return new Promise((resolve, reject) => {
    const onAbort = (): void => resolve({ approved: false, reason: ABORTED_TOOL_RESULT });
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (d) => {
        signal.removeEventListener("abort", onAbort);
        resolve(d);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

/** A result message for `call`. */
export function toolResultMessage(call: ToolCall, result: ToolResult, isError: boolean): ToolResultMessage {
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    isError,
    timestamp: Date.now(),
  };
  if (result.details !== undefined) message.details = result.details;
  return message;
}

/** The error result of a call that did not run; emits tool_execution_end so a UI can close it. */
export function skippedToolResult(call: ToolCall, text: string, emit: (e: AgentEvent) => void): ToolResultMessage {
  const result: ToolResult = { content: [{ type: "text", text }], isError: true };
  emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError: true });
  return toolResultMessage(call, result, true);
}

/**
 * Runs an approved call; a failure becomes an error result. `changed`: the call was approved from a diff and its
 * file changed since (nothing was written).
 */
async function runTool(
  tool: AgentTool,
  call: ToolCall,
  decision: Extract<ToolApprovalDecision, { approved: true }>,
  env: ToolCallEnv,
): Promise<{ result: ToolResult } | { changed: FileChangedSinceReviewError }> {
  try {
    const result = await tool.execute(call.arguments, {
      cwd: env.cwd,
      signal: env.signal,
      ...(decision.localNetwork === true ? { localNetwork: true } : {}),
      ...(decision.reviewed ? { reviewed: decision.reviewed } : {}),
      ...(env.callEntryId !== undefined ? { callEntryId: env.callEntryId } : {}),
      onUpdate: (partial) =>
        env.emit({
          type: "tool_execution_update",
          toolCallId: call.id,
          toolName: call.name,
          partial: env.redact(partial),
        }),
    });
    return { result };
  } catch (err) {
    if (err instanceof FileChangedSinceReviewError && decision.reviewed && !env.signal.aborted) return { changed: err };
    const text = env.signal.aborted ? ABORTED_TOOL_RESULT : `Tool "${call.name}" failed: ${errorText(err)}`;
    return { result: { content: [{ type: "text", text }], isError: true } };
  }
}

/** The file changed after each of MAX_REVIEWS diffs: refused, said to the user (an error) and to the model. */
function keptChanging(err: FileChangedSinceReviewError, env: ToolCallEnv): ToolResult {
  const text = `${err.shown} kept changing while its diff was reviewed (${MAX_REVIEWS} diffs shown); nothing was written. Read the file again before changing it.`;
  env.emit({ type: "error", error: text, source: "tool" });
  return { content: [{ type: "text", text }], isError: true };
}

/** Approves and runs `call`; never throws. */
export async function executeToolCall(call: ToolCall, env: ToolCallEnv): Promise<ToolResultMessage> {
  if (env.signal.aborted) return skippedToolResult(call, ABORTED_TOOL_RESULT, env.emit);
  const tool = env.tools.get(call.name);
  if (!tool) {
    const known = [...env.tools.keys()].join(", ") || "none";
    return skippedToolResult(call, `Tool "${call.name}" is not available (available: ${known})`, env.emit);
  }
  // pi-ai says when the arguments the model sent were not a JSON object (`arguments` is then empty): the model is
  // told so, and can send the call again; nothing runs and nothing is asked.
  if (call.argumentsError) return skippedToolResult(call, `Tool "${call.name}": ${call.argumentsError}`, env.emit);
  const blocked = await env.beforeCall?.(call, env.signal);
  if (env.signal.aborted) return skippedToolResult(call, ABORTED_TOOL_RESULT, env.emit);
  if (blocked !== undefined) return skippedToolResult(call, blocked, env.emit);
  const args = call.arguments;
  let changed: string | undefined;
  let result: ToolResult | undefined;
  for (let review = 1; result === undefined; review++) {
    const request: ToolApprovalRequest = { toolCallId: call.id, toolName: call.name, args };
    if (changed !== undefined) request.changed = changed;
    env.emit({ type: "tool_approval_pending", toolCallId: call.id, toolName: call.name, args });
    let decision: ToolApprovalDecision;
    try {
      decision = await untilAborted(env.approve(request, env.signal), env.signal);
    } catch (err) {
      decision = { approved: false, reason: `approval failed: ${errorText(err)}` };
    }
    if (env.signal.aborted) return skippedToolResult(call, ABORTED_TOOL_RESULT, env.emit);
    if (!decision.approved) {
      const reason = decision.reason?.trim();
      return skippedToolResult(call, reason ? `Refused by user: ${reason}` : "Refused by user", env.emit);
    }
    env.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args });
    const ran = await runTool(tool, call, decision, env);
    if ("result" in ran) result = ran.result;
    // The file is not what the user accepted: nothing was written; show the new diff and ask again.
    else if (review < MAX_REVIEWS) changed = ran.changed.message;
    else result = keptChanging(ran.changed, env);
  }
  result = env.redact(result);
  const isError = result.isError === true;
  env.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError });
  return toolResultMessage(call, result, isError);
}
