/**
 * Runs one tool call the model asked for: approval by the host's policy, execution with the abort
 * signal, and a ToolResultMessage in every case (refused, aborted, unknown tool, tool threw), so the
 * transcript always pairs each call with a result.
 */
import type { ToolCall, ToolResultMessage } from "../messages.js";
import type { AgentTool, ToolApprovalDecision, ToolApprovalPolicy, ToolResult } from "../tools/types.js";
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

/** Approves and runs `call`; never throws. */
export async function executeToolCall(call: ToolCall, env: ToolCallEnv): Promise<ToolResultMessage> {
  if (env.signal.aborted) return skippedToolResult(call, ABORTED_TOOL_RESULT, env.emit);
  const tool = env.tools.get(call.name);
  if (!tool) {
    const known = [...env.tools.keys()].join(", ") || "none";
    return skippedToolResult(call, `Tool "${call.name}" is not available (available: ${known})`, env.emit);
  }
  const args = call.arguments;
  env.emit({ type: "tool_approval_pending", toolCallId: call.id, toolName: call.name, args });
  let decision: ToolApprovalDecision;
  try {
    decision = await untilAborted(
      env.approve({ toolCallId: call.id, toolName: call.name, args }, env.signal),
      env.signal,
    );
  } catch (err) {
    decision = { approved: false, reason: `approval failed: ${errorText(err)}` };
  }
  if (env.signal.aborted) return skippedToolResult(call, ABORTED_TOOL_RESULT, env.emit);
  if (!decision.approved) {
    const reason = decision.reason?.trim();
    return skippedToolResult(call, reason ? `Refused by user: ${reason}` : "Refused by user", env.emit);
  }

  env.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args });
  let result: ToolResult;
  try {
    result = await tool.execute(args, {
      cwd: env.cwd,
      signal: env.signal,
      ...(decision.localNetwork === true ? { localNetwork: true } : {}),
      onUpdate: (partial) =>
        env.emit({
          type: "tool_execution_update",
          toolCallId: call.id,
          toolName: call.name,
          partial: env.redact(partial),
        }),
    });
  } catch (err) {
    const text = env.signal.aborted ? ABORTED_TOOL_RESULT : `Tool "${call.name}" failed: ${errorText(err)}`;
    result = { content: [{ type: "text", text }], isError: true };
  }
  result = env.redact(result);
  const isError = result.isError === true;
  env.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError });
  return toolResultMessage(call, result, isError);
}
