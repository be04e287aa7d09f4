/** Map our conversation to Anthropic Messages request params. */
import type {
  ContentBlockParam,
  ImageBlockParam,
  MessageParam,
  TextBlockParam,
  Tool,
  ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import type { AssistantMessage, ImageContent, LlmMessage, TextContent } from "../messages.js";
import { prepareMessages } from "./message-prep.js";
import { normalizeToolCallId } from "./tool-call-ids.js";
import type { ModelInfo, ToolDefinition } from "./types.js";

const IMAGE_MIMES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
type ImageMime = (typeof IMAGE_MIMES)[number];

function imageBlock(img: ImageContent): ImageBlockParam | TextBlockParam {
  if (!(IMAGE_MIMES as readonly string[]).includes(img.mimeType))
    return { type: "text", text: `(image of unsupported type ${img.mimeType} omitted)` };
  return { type: "image", source: { type: "base64", media_type: img.mimeType as ImageMime, data: img.data } };
}

function userBlocks(
  content: string | readonly (TextContent | ImageContent)[],
): string | (TextBlockParam | ImageBlockParam)[] {
  if (typeof content === "string") return content;
  return content
    .filter((c) => c.type !== "text" || c.text !== "")
    .map((c) => (c.type === "text" ? { type: "text", text: c.text } : imageBlock(c)));
}

/** Thinking signatures are only valid for the provider/API that produced them. */
function canReplayThinking(m: AssistantMessage, model: ModelInfo): boolean {
  return m.provider === model.provider && (m.api === undefined || m.api === model.api);
}

/**
 * Convert messages: consecutive tool results become one user turn; thinking blocks with a signature
 * are replayed for the same provider, and dropped otherwise (a foreign signature is rejected).
 */
export function toAnthropicMessages(messages: readonly LlmMessage[], model: ModelInfo): MessageParam[] {
  const out: MessageParam[] = [];
  for (const m of prepareMessages(messages)) {
    switch (m.role) {
      case "user": {
        const content = userBlocks(m.content);
        if (content.length) out.push({ role: "user", content });
        break;
      }
      case "assistant": {
        const blocks: ContentBlockParam[] = [];
        const replay = canReplayThinking(m, model);
        for (const c of m.content) {
          if (c.type === "thinking") {
            if (!replay || !c.thinkingSignature) continue;
            if (c.redacted) blocks.push({ type: "redacted_thinking", data: c.thinkingSignature });
            else if (c.thinking)
              blocks.push({ type: "thinking", thinking: c.thinking, signature: c.thinkingSignature });
          } else if (c.type === "text") {
            if (c.text.trim()) blocks.push({ type: "text", text: c.text });
          } else {
            blocks.push({ type: "tool_use", id: normalizeToolCallId(c.id), name: c.name, input: c.arguments });
          }
        }
        if (blocks.length) out.push({ role: "assistant", content: blocks });
        break;
      }
      case "toolResult": {
        const inner = m.content.map((c) =>
          c.type === "text" ? { type: "text" as const, text: c.text } : imageBlock(c),
        );
        const block: ToolResultBlockParam = {
          type: "tool_result",
          tool_use_id: normalizeToolCallId(m.toolCallId),
          content: inner.length ? inner : [{ type: "text", text: "(no output)" }],
          is_error: m.isError,
        };
        const last = out[out.length - 1];
        const lastContent: string | ContentBlockParam[] | undefined = last?.content;
        if (
          last?.role === "user" &&
          Array.isArray(lastContent) &&
          lastContent.length > 0 &&
          lastContent.every((b) => b.type === "tool_result")
        ) {
          lastContent.push(block);
        } else {
          out.push({ role: "user", content: [block] });
        }
        break;
      }
    }
  }
  return out;
}

/** Tool definitions in Messages API form. */
export function toAnthropicTools(tools: readonly ToolDefinition[]): Tool[] {
  return tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: { ...t.parameters, type: "object" as const },
  }));
}

/**
 * Mark the system prompt and the newest user turn as prompt-cache breakpoints, so each agent
 * turn re-reads the conversation prefix from Anthropic's cache (about 10% of the input price).
 * With `stableLength`, the system prompt is two blocks, each a breakpoint: its first `stableLength`
 * characters (the sections that rarely change) and the rest — three breakpoints of the four allowed.
 */
export function withCacheBreakpoints(
  system: string | undefined,
  messages: MessageParam[],
  stableLength?: number,
): { system?: TextBlockParam[]; messages: MessageParam[] } {
  const out = messages.slice();
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i];
    if (m.role !== "user") continue;
    const blocks: ContentBlockParam[] =
      typeof m.content === "string" ? [{ type: "text", text: m.content }] : m.content.slice();
    const last = blocks[blocks.length - 1];
    if (last && (last.type === "text" || last.type === "image" || last.type === "tool_result")) {
      blocks[blocks.length - 1] = { ...last, cache_control: { type: "ephemeral" } };
      out[i] = { role: "user", content: blocks };
    }
    break;
  }
  const block = (text: string): TextBlockParam => ({ type: "text", text, cache_control: { type: "ephemeral" } });
  const split = stableLength !== undefined && stableLength > 0 && system !== undefined && stableLength < system.length;
  return {
    system: !system
      ? undefined
      : split
        ? [block(system.slice(0, stableLength)), block(system.slice(stableLength))]
        : [block(system)],
    messages: out,
  };
}
