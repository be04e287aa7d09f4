/** The plain-text assistant reply the measurements append to their sessions. */
import type { AssistantMessage } from "../../src/core/messages.js";

/** A finished assistant reply holding `text`, with fixed usage numbers. */
export function textReply(text: string, timestamp: number): AssistantMessage {
  return {
    role: "assistant",
    content: [{ type: "text", text }],
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    usage: {
      input: 100,
      output: 200,
      cacheRead: 0,
      cacheWrite: 0,
      totalTokens: 300,
      cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    },
    stopReason: "stop",
    timestamp,
  };
}
