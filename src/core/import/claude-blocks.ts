/** Conversion of Claude Code content blocks into this project's message content. */
import type { ImageContent, TextContent, ThinkingContent, ToolCall } from "../messages.js";
import type { ClaudeContentBlock, ClaudeLine } from "./claude-types.js";
import { mapClaudeToolCall } from "./claude-tools.js";

/** Longest text kept for a block type this project cannot show natively. */
const OTHER_BLOCK_LIMIT = 2000;

/** Blocks as a list (a bare string becomes one text block). */
export function blocksOf(content: unknown): ClaudeContentBlock[] {
  if (typeof content === "string") return content === "" ? [] : [{ type: "text", text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter(
    (b): b is ClaudeContentBlock =>
      typeof b === "object" && b !== null && typeof (b as { type?: unknown }).type === "string",
  );
}

/** Text of a user line (string content or its text blocks): a sidechain's Task prompt, a compaction's summary. */
export function userTextOf(line: ClaudeLine): string {
  const c = line.message?.content;
  if (typeof c === "string") return c;
  return blocksOf(c)
    .filter((b) => b.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n");
}

/** An image block, or a text note when the image is not inline base64. */
export function convertImage(block: ClaudeContentBlock): ImageContent | TextContent {
  const src = block.source;
  if (src && src.type === "base64" && typeof src.data === "string") {
    return {
      type: "image",
      data: src.data,
      mimeType: typeof src.media_type === "string" ? src.media_type : "image/png",
    };
  }
  return { type: "text", text: src?.url ? `[image: ${src.url}]` : "[image]" };
}

/** A short text rendering of a block type with no equivalent here (server tools, documents…). */
export function describeOtherBlock(block: ClaudeContentBlock): TextContent {
  let json = JSON.stringify(block);
  if (json.length > OTHER_BLOCK_LIMIT) json = json.slice(0, OTHER_BLOCK_LIMIT) + "…";
  return { type: "text", text: `[${block.type}] ${json}` };
}

/** User-side blocks (text, image) → user content. tool_result blocks are handled by the caller. */
export function convertUserBlock(block: ClaudeContentBlock): TextContent | ImageContent | undefined {
  if (block.type === "text") return typeof block.text === "string" ? { type: "text", text: block.text } : undefined;
  if (block.type === "image") return convertImage(block);
  if (block.type === "tool_result") return undefined;
  return describeOtherBlock(block);
}

/** The content of a tool_result block. */
export function convertToolResultContent(content: unknown): (TextContent | ImageContent)[] {
  if (content === undefined || content === null) return [];
  if (typeof content === "string") return [{ type: "text", text: content }];
  if (Array.isArray(content)) {
    const out: (TextContent | ImageContent)[] = [];
    for (const b of blocksOf(content)) {
      const c = convertUserBlock(b);
      if (c) out.push(c);
    }
    return out;
  }
  return [{ type: "text", text: JSON.stringify(content) }];
}

/** Assistant blocks → assistant content. */
export function convertAssistantBlock(
  block: ClaudeContentBlock,
  mapTools: boolean,
): TextContent | ThinkingContent | ToolCall | undefined {
  switch (block.type) {
    case "text":
      return typeof block.text === "string" ? { type: "text", text: block.text } : undefined;
    case "thinking": {
      if (typeof block.thinking !== "string") return undefined;
      const t: ThinkingContent = { type: "thinking", thinking: block.thinking };
      if (typeof block.signature === "string" && block.signature !== "") t.thinkingSignature = block.signature;
      return t;
    }
    case "redacted_thinking":
      return { type: "thinking", thinking: "[redacted thinking]" };
    case "tool_use": {
      if (typeof block.id !== "string" || typeof block.name !== "string") return describeOtherBlock(block);
      const input =
        typeof block.input === "object" && block.input !== null && !Array.isArray(block.input)
          ? (block.input as Record<string, unknown>)
          : {};
      const mapped = mapTools ? mapClaudeToolCall(block.name, input) : { name: block.name, arguments: input };
      return { type: "toolCall", id: block.id, name: mapped.name, arguments: mapped.arguments };
    }
    default:
      return describeOtherBlock(block);
  }
}
