/** Map our conversation to OpenAI Chat Completions request messages. */
import type {
  ChatCompletionContentPart,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { contentText, type ImageContent, type LlmMessage, type TextContent } from "../messages.js";
import { prepareMessages } from "./message-prep.js";
import { normalizeToolCallId } from "./tool-call-ids.js";
import type { ToolDefinition } from "./types.js";

function userParts(content: readonly (TextContent | ImageContent)[]): ChatCompletionContentPart[] {
  return content.map((c): ChatCompletionContentPart =>
    c.type === "text"
      ? { type: "text", text: c.text }
      : { type: "image_url", image_url: { url: `data:${c.mimeType};base64,${c.data}` } },
  );
}

/**
 * Convert messages. Thinking blocks are not sent (Chat Completions has no field for them).
 * Images in tool results go in a following user message, since tool messages only carry text.
 */
export function toOpenAIMessages(
  systemPrompt: string | undefined,
  messages: readonly LlmMessage[],
): ChatCompletionMessageParam[] {
  const out: ChatCompletionMessageParam[] = [];
  if (systemPrompt) out.push({ role: "system", content: systemPrompt });
  let pendingImages: ImageContent[] = [];
  const flushImages = (): void => {
    if (!pendingImages.length) return;
    out.push({
      role: "user",
      content: [{ type: "text", text: "Images returned by the tool call(s) above:" }, ...userParts(pendingImages)],
    });
    pendingImages = [];
  };
  for (const m of prepareMessages(messages)) {
    if (m.role !== "toolResult") flushImages();
    switch (m.role) {
      case "user":
        if (typeof m.content === "string") out.push({ role: "user", content: m.content });
        else if (m.content.length) out.push({ role: "user", content: userParts(m.content) });
        break;
      case "assistant": {
        const text = contentText(m.content, "");
        const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
        for (const c of m.content) {
          if (c.type !== "toolCall") continue;
          toolCalls.push({
            id: normalizeToolCallId(c.id),
            type: "function",
            function: { name: c.name, arguments: JSON.stringify(c.arguments) },
          });
        }
        if (!text && !toolCalls.length) break;
        out.push({
          role: "assistant",
          content: text || null,
          ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
        });
        break;
      }
      case "toolResult": {
        const text = contentText(m.content);
        const images = m.content.filter((c): c is ImageContent => c.type === "image");
        pendingImages.push(...images);
        out.push({
          role: "tool",
          tool_call_id: normalizeToolCallId(m.toolCallId),
          content: text || (images.length ? "(see images below)" : "(no output)"),
        });
        break;
      }
    }
  }
  flushImages();
  return out;
}

/** Tool definitions in Chat Completions form. */
export function toOpenAITools(tools: readonly ToolDefinition[]): ChatCompletionFunctionTool[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: { ...t.parameters } },
  }));
}
