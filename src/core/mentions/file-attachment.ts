/**
 * What an `@` mention attaches to the user message, the way pi attaches `@file` arguments
 * (`cli/file-processor.js`): the file's text inside `<file name="/abs/path">…</file>`. Beyond pi: a text
 * above MAX_ATTACHMENT_BYTES is cut with a note saying so (the model can `read` the rest), a selection carries
 * its line range, a folder attaches its listing, and a binary file is refused with the reason, so a
 * mention never sends bytes the model cannot read.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { isIgnored } from "../tools/gitignore.js";
import { resolveInWorkspace } from "../tools/path-guard.js";
import { openFileInside, openFolderInside, folderPath } from "../tools/workspace-open.js";
import { SKIP_DIRS, readIgnoreRules } from "../tools/walk.js";
import { errorText } from "../error-text.js";

/** Text of one attached file (or selection) kept in the message; the rest is cut with a note. */
export const MAX_ATTACHMENT_BYTES = 100 * 1024;
/** Entries of a folder listing kept; the rest are counted in a note. */
export const MAX_FOLDER_ENTRIES = 500;
/** Bytes read to tell a binary file (a NUL among them), as the read tool does. */
const SNIFF_BYTES = 8192;

/** A mention the user picked: a workspace file or folder, or a line range of a file. */
export interface MentionRef {
  /** Relative to `cwd` (forward slashes) or absolute; must lie inside `cwd`. */
  path: string;
  /** A selection: its text as the editor holds it (unsaved edits included), and its 1-based lines. */
  text?: string;
  startLine?: number;
  endLine?: number;
}

/** An attachment ready for the message. */
export interface Attachment {
  kind: "file" | "folder" | "selection";
  /** Absolute path, as written into the block. */
  path: string;
  /** The block the model receives. */
  block: string;
  /** True when the text was cut at MAX_ATTACHMENT_BYTES (or the listing at MAX_FOLDER_ENTRIES). */
  truncated: boolean;
}

/** A mention that cannot be attached; `message` says which and why. */
export class AttachmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AttachmentError";
  }
}

/** The attachment of `ref`, read below `cwd` (links leading outside it are refused). */
export async function buildAttachment(cwd: string, ref: MentionRef): Promise<Attachment> {
  let where;
  try {
    where = await resolveInWorkspace(cwd, ref.path);
  } catch (e) {
    throw new AttachmentError(`@${ref.path}: ${errorText(e)}`);
  }
  const abs = where.abs;
  const st = await fs.stat(where.real).catch(() => undefined);
  if (!st) throw new AttachmentError(`@${ref.path}: no such file or folder`);
  if (st.isDirectory()) return folderAttachment(cwd, abs, where.real, where.realRoot);
  if (!st.isFile()) throw new AttachmentError(`@${ref.path}: not a regular file`);
  if (ref.text !== undefined) return selectionAttachment(abs, ref.text, ref.startLine, ref.endLine);
  const handle = await openFileInside(where.real, where.realRoot);
  try {
    const head = Buffer.alloc(Math.min(SNIFF_BYTES, st.size));
    await handle.read(head, 0, head.length, 0);
    if (head.includes(0)) throw new AttachmentError(`@${ref.path} is a binary file; only text files can be attached`);
    const keep = Math.min(st.size, MAX_ATTACHMENT_BYTES);
    const buf = Buffer.alloc(keep);
    await handle.read(buf, 0, keep, 0);
    let text = cutUtf8(buf).replace(/^\uFEFF/, "");
    const truncated = st.size > MAX_ATTACHMENT_BYTES;
    if (truncated) text += `\n[Cut at ${kib(MAX_ATTACHMENT_BYTES)} of ${kib(st.size)}: read the file for the rest.]`;
    return { kind: "file", path: abs, block: fileBlock(abs, text), truncated };
  } finally {
    await handle.close();
  }
}

/** A selection's attachment: its text with the file's path and the line range. */
export function selectionAttachment(abs: string, text: string, startLine?: number, endLine?: number): Attachment {
  const bytes = Buffer.byteLength(text, "utf8");
  const truncated = bytes > MAX_ATTACHMENT_BYTES;
  let body = truncated ? cutUtf8(Buffer.from(text, "utf8").subarray(0, MAX_ATTACHMENT_BYTES)) : text;
  if (truncated) body += `\n[Cut at ${kib(MAX_ATTACHMENT_BYTES)} of ${kib(bytes)} of the selection.]`;
  const lines = startLine === undefined ? "" : ` lines="${startLine}-${endLine ?? startLine}"`;
  return { kind: "selection", path: abs, block: `<file name="${abs}"${lines}>\n${body}\n</file>`, truncated };
}

async function folderAttachment(cwd: string, abs: string, real: string, realRoot: string): Promise<Attachment> {
  const handle = await openFolderInside(real, realRoot);
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(folderPath(handle, real), { withFileTypes: true });
  } finally {
    await handle.close();
  }
  // Its own .gitignore only (the listing is one level deep), read as the file walker reads one.
  const rules = await readIgnoreRules(path.join(real, ".gitignore"), realRoot, "");
  const names = entries
    .filter((e) => !(e.isDirectory() && SKIP_DIRS.has(e.name)) && !isIgnored(rules, e.name, e.isDirectory()))
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort();
  const kept = names.slice(0, MAX_FOLDER_ENTRIES);
  const truncated = names.length > kept.length;
  let listing = kept.join("\n") || "(empty folder)";
  if (truncated) listing += `\n[${names.length - kept.length} more entries not listed.]`;
  const rel = path.relative(cwd, abs).split(path.sep).join("/") || ".";
  return {
    kind: "folder",
    path: abs,
    block: `<folder name="${abs}">\nContents of ${rel}/ (.gitignore honoured):\n${listing}\n</folder>`,
    truncated,
  };
}

/** The block pi writes for an attached file. */
export function fileBlock(abs: string, text: string): string {
  return `<file name="${abs}">\n${text}\n</file>`;
}

/** Decode, dropping a multi-byte character the cut split. */
function cutUtf8(buf: Buffer): string {
  return buf.toString("utf8").replace(/\uFFFD$/, "");
}

function kib(bytes: number): string {
  return `${Math.round(bytes / 1024)} KiB`;
}
