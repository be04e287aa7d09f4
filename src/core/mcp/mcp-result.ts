/**
 * An MCP tool result as a tool result of the session, stored the way pi stores it: text and images as content
 * blocks, embedded text resources as text, embedded image resources as images, other binary resources, audio and
 * resource links as a line naming them; `details` holds `{ server, tool }`. Text goes through the tools' output cap.
 */
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ImageContent, TextContent } from "../messages.js";
import { MAX_BYTES, MAX_LINES, truncateHead } from "../tools/truncate.js";
import type { ToolResult } from "../tools/types.js";

/** What pi keeps in a MCP tool result's `details`. */
export interface McpResultDetails {
  server: string;
  tool: string;
  /** Set when the text was cut to the output cap. */
  truncated?: boolean;
}

function sizeOf(base64: string): string {
  const bytes = Math.floor((base64.length * 3) / 4);
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`;
}

function blockContent(block: ContentBlock): TextContent | ImageContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return { type: "image", data: block.data, mimeType: block.mimeType };
    case "audio":
      return { type: "text", text: `[audio ${block.mimeType} (${sizeOf(block.data)}) omitted]` };
    case "resource_link": {
      const about = block.description ? `: ${block.description}` : "";
      return { type: "text", text: `[Resource ${block.uri} "${block.title ?? block.name}"${about}]` };
    }
    case "resource": {
      const r = block.resource;
      if ("text" in r) return { type: "text", text: r.text };
      if (r.mimeType?.startsWith("image/")) return { type: "image", data: r.blob, mimeType: r.mimeType };
      return {
        type: "text",
        text: `[binary resource ${r.uri} (${r.mimeType ?? "unknown type"}, ${sizeOf(r.blob)}) omitted]`,
      };
    }
    default:
      return { type: "text", text: `[unsupported MCP content ${(block as { type?: unknown }).type as string}]` };
  }
}

/** The text blocks joined and cut to the cap as one text; images kept in their place after it. */
function capText(content: (TextContent | ImageContent)[]): { content: (TextContent | ImageContent)[]; cut: boolean } {
  const texts = content.filter((c): c is TextContent => c.type === "text");
  if (texts.length === 0) return { content, cut: false };
  const joined = texts.map((t) => t.text).join("\n");
  const t = truncateHead(joined, MAX_LINES, MAX_BYTES);
  if (!t.truncated) return { content, cut: false };
  const note = `\n\n[Output truncated: ${t.keptLines} of ${t.totalLines} lines shown (limit ${MAX_LINES} lines or ${MAX_BYTES / 1024} KB)]`;
  const images = content.filter((c): c is ImageContent => c.type === "image");
  return { content: [{ type: "text", text: t.text + note }, ...images], cut: true };
}

/** `result` of `tool` on `server` as the session keeps it; a result marked `isError` stays an error. */
export function convertMcpResult(server: string, tool: string, result: CallToolResult): ToolResult {
  const content: (TextContent | ImageContent)[] = result.content.map(blockContent);
  // A result with structured content only (servers should mirror it as text, some do not): its JSON.
  if (content.length === 0 && result.structuredContent !== undefined)
    content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
  if (result.isError === true && !content.some((c) => c.type === "text" && c.text.trim() !== ""))
    content.push({ type: "text", text: `MCP tool ${server}/${tool} returned an error` });
  if (content.length === 0) content.push({ type: "text", text: "(no output)" });
  const capped = capText(content);
  const details: McpResultDetails = { server, tool, ...(capped.cut ? { truncated: true } : {}) };
  return { content: capped.content, details, ...(result.isError === true ? { isError: true } : {}) };
}
