/**
 * The user message a chat input makes: the typed text first (so the tree's row and the chat read what the
 * user wrote), then one text block per attachment, then the images — pi's user content
 * (`{type:"text"}` / `{type:"image", data, mimeType}`). `splitAttachments` reads such a message back for
 * a compact display: the typed text, and the attachments by name only.
 */
import type { ImageContent, TextContent } from "../messages.js";

/** An attachment as a chat shows it: its path (and line range), not its text. */
export interface AttachmentLabel {
  kind: "file" | "folder" | "selection" | "image";
  /** Path as written in the block; for an image its MIME type. */
  name: string;
  lines?: string;
}

/** The content of a user message with attachments (a plain string when there are none). */
export function composeUserContent(
  text: string,
  blocks: readonly string[],
  images: readonly ImageContent[] = [],
): string | (TextContent | ImageContent)[] {
  if (blocks.length === 0 && images.length === 0) return text;
  return [
    { type: "text", text },
    ...blocks.map((block): TextContent => ({ type: "text", text: block })),
    ...images.map((img): ImageContent => ({ type: "image", data: img.data, mimeType: img.mimeType })),
  ];
}

const BLOCK_HEAD = /^<(file|folder) name="([^"]*)"(?: lines="(\d+-\d+)")?>\n/;

/** What a block of composeUserContent stands for, or undefined for ordinary text. */
export function attachmentLabelOf(text: string): AttachmentLabel | undefined {
  const m = BLOCK_HEAD.exec(text);
  if (!m) return undefined;
  const close = m[1] === "file" ? "</file>" : "</folder>";
  if (!text.endsWith(close)) return undefined;
  if (m[1] === "folder") return { kind: "folder", name: m[2] };
  return m[3] === undefined ? { kind: "file", name: m[2] } : { kind: "selection", name: m[2], lines: m[3] };
}

/** The typed text of a user message's content and its attachments (blocks and images) by name. */
export function splitAttachments(content: string | readonly (TextContent | ImageContent)[]): {
  text: string;
  attachments: AttachmentLabel[];
} {
  if (typeof content === "string") return { text: content, attachments: [] };
  const text: string[] = [];
  const attachments: AttachmentLabel[] = [];
  for (const block of content) {
    if (block.type === "image") {
      attachments.push({ kind: "image", name: block.mimeType });
      continue;
    }
    const label = attachmentLabelOf(block.text);
    if (label) attachments.push(label);
    else text.push(block.text);
  }
  return { text: text.join("\n"), attachments };
}

const PREVIEW_BLOCK = /\s*<(file|folder) name="([^"]*)"(?: lines="(\d+-\d+)")?>[\s\S]*$/;

/**
 * A row preview (the message's text blocks joined, cut at 200 characters) with the first attachment block and
 * what follows shown as the attachment's name: `look at @a.ts [file a.ts]`, not the file's text.
 */
export function compactPreview(preview: string): string {
  const m = PREVIEW_BLOCK.exec(preview);
  if (!m) return preview;
  const name = m[2].split(/[\\/]/).filter(Boolean).pop() ?? m[2];
  const label: AttachmentLabel =
    m[1] === "folder"
      ? { kind: "folder", name }
      : m[3] !== undefined
        ? { kind: "selection", name, lines: m[3] }
        : { kind: "file", name };
  return `${preview.slice(0, m.index)} [${attachmentPhrase(label)}]`.trimStart();
}

/** An attachment in words, as rows, the compare view and the exported page name it: `file a.ts`, `lines 3-9 of a.ts`. */
export function attachmentPhrase(a: AttachmentLabel): string {
  return a.kind === "selection" ? `lines ${a.lines ?? ""} of ${a.name}` : `${a.kind} ${a.name}`;
}
