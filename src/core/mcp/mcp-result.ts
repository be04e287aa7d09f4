/**
 * An MCP tool result as a tool result of the session, stored the way pi stores it: text and images as content
 * blocks, embedded text resources as text, embedded image resources as images, other binary resources, audio and
 * resource links as a line naming them; `details` holds `{ server, tool }`. Text goes through the tools' output cap
 * (a single line over it keeps the cap's worth of its head). Images pass the check of pasted images (type, size,
 * base64) and at most as many as one message carries are kept: a refused one is a line naming it and why, so a
 * server's 8 MB SVG is never stored (it would be sent again with every later request of the branch, and refused).
 */
import type { CallToolResult, ContentBlock } from "@modelcontextprotocol/sdk/types.js";
import type { ImageContent, TextContent } from "../messages.js";
import { imageProblem, MAX_IMAGES_PER_MESSAGE } from "../mentions/image-attachment.js";
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
  return bytesText(Math.floor((base64.length * 3) / 4));
}

function bytesText(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The image, or a line saying why it is not kept (the check of pasted images). */
function checkedImage(data: string, mimeType: string): TextContent | ImageContent {
  const problem = imageProblem({ data, mimeType });
  if (problem) return { type: "text", text: `[image ${mimeType || "unknown"} (${sizeOf(data)}) omitted: ${problem}]` };
  return { type: "image", data, mimeType };
}

function blockContent(block: ContentBlock): TextContent | ImageContent {
  switch (block.type) {
    case "text":
      return { type: "text", text: block.text };
    case "image":
      return checkedImage(block.data, block.mimeType);
    case "audio":
      return { type: "text", text: `[audio ${block.mimeType} (${sizeOf(block.data)}) omitted]` };
    case "resource_link": {
      const about = block.description ? `: ${block.description}` : "";
      return { type: "text", text: `[Resource ${block.uri} "${block.title ?? block.name}"${about}]` };
    }
    case "resource": {
      const r = block.resource;
      if ("text" in r) return { type: "text", text: r.text };
      if (r.mimeType?.startsWith("image/")) return checkedImage(r.blob, r.mimeType);
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
  const t = truncateHead(joined, MAX_LINES, MAX_BYTES, { cutLongFirstLine: true });
  if (!t.truncated) return { content, cut: false };
  const limit = `limit ${MAX_LINES} lines or ${MAX_BYTES / 1024} KB`;
  const note = t.cutLine
    ? `\n\n[Output truncated: line 1 of ${t.totalLines} cut at ${bytesText(t.cutLine.keptBytes)} of ${bytesText(t.cutLine.totalBytes)} (${limit})]`
    : `\n\n[Output truncated: ${t.keptLines} of ${t.totalLines} lines shown (${limit})]`;
  const images = content.filter((c): c is ImageContent => c.type === "image");
  return { content: [{ type: "text", text: t.text + note }, ...images], cut: true };
}

/** At most MAX_IMAGES_PER_MESSAGE images; the rest are counted in a line after the last one kept. */
function capImages(content: (TextContent | ImageContent)[]): (TextContent | ImageContent)[] {
  let images = 0;
  const out = content.filter((c) => c.type !== "image" || ++images <= MAX_IMAGES_PER_MESSAGE);
  const dropped = images - MAX_IMAGES_PER_MESSAGE;
  if (dropped > 0)
    out.push({
      type: "text",
      text: `[${dropped} more image${dropped === 1 ? "" : "s"} omitted (at most ${MAX_IMAGES_PER_MESSAGE} per result)]`,
    });
  return out;
}

/** `result` of `tool` on `server` as the session keeps it; a result marked `isError` stays an error. */
export function convertMcpResult(server: string, tool: string, result: CallToolResult): ToolResult {
  const content: (TextContent | ImageContent)[] = capImages(result.content.map(blockContent));
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
