/**
 * Token estimation without a tokenizer: characters / 4, as pi does. Deliberately conservative
 * (over-estimates English text slightly) so that "would this exceed the window" errs on the safe side.
 */
import type { AgentMessage, AssistantMessage, ImageContent, TextContent } from "../messages.js";

/** Characters per token assumed by every estimate. */
export const CHARS_PER_TOKEN = 4;
/** Tokens charged for one image block (pi charges 4,800 characters). */
export const IMAGE_TOKENS = 1200;

/** Tokens of a plain string. */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

function contentTokens(content: string | readonly (TextContent | ImageContent)[]): number {
  if (typeof content === "string") return estimateTextTokens(content);
  let tokens = 0;
  for (const block of content) tokens += block.type === "text" ? estimateTextTokens(block.text) : IMAGE_TOKENS;
  return tokens;
}

/** Estimated tokens of one message as the model would see it. */
export function estimateTokens(message: AgentMessage): number {
  switch (message.role) {
    case "system":
      // pi 1.5's recorded prompt is not sent (convertToLlm): it costs nothing here.
      return 0;
    case "user":
    case "custom":
    case "toolResult":
      return contentTokens(message.content);
    case "assistant": {
      let chars = 0;
      for (const block of message.content) {
        if (block.type === "text") chars += block.text.length;
        else if (block.type === "thinking") chars += block.thinking.length;
        else chars += block.name.length + JSON.stringify(block.arguments).length;
      }
      return Math.ceil(chars / CHARS_PER_TOKEN);
    }
    case "bashExecution":
      return estimateTextTokens(message.command) + estimateTextTokens(message.output);
    case "branchSummary":
    case "compactionSummary":
      return estimateTextTokens(message.summary);
    default: {
      const never: never = message;
      void never;
      return 0;
    }
  }
}

/** Tokens the provider reported for an assistant reply (prompt + output), 0 when unknown. */
export function usageTokens(message: AssistantMessage): number {
  const u = message.usage;
  return u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
}

/**
 * Estimated size of a context. Uses the provider's reported usage of the last successful assistant
 * reply (exact for everything up to it) plus estimates for what came after; falls back to estimating
 * every message.
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): number {
  // A reply older than the latest compaction reported the usage of the uncompacted context: ignore it.
  const compactedAt = messages.reduce((t, m) => (m.role === "compactionSummary" ? Math.max(t, m.timestamp) : t), 0);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "assistant" && m.timestamp <= compactedAt) break;
    if (m.role === "assistant" && m.stopReason !== "error" && m.stopReason !== "aborted") {
      const reported = usageTokens(m);
      if (reported > 0) {
        let trailing = 0;
        for (let j = i + 1; j < messages.length; j++) trailing += estimateTokens(messages[j]);
        return reported + trailing;
      }
      break;
    }
  }
  let total = 0;
  for (const m of messages) total += estimateTokens(m);
  return total;
}
