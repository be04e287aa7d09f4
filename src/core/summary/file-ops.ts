/**
 * Which files a stretch of conversation read and modified, from the `read` / `write` / `edit` tool
 * calls the assistant made (pi's tool names and argument shapes). Stored in summary and compaction
 * `details` and appended to the summary text so the next model knows where to look.
 */
import type { AgentMessage } from "../messages.js";
import type { FileOperationDetails } from "../hooks/hook-events.js";

const READ_TOOLS = new Set(["read"]);
const MODIFY_TOOLS = new Set(["write", "edit"]);

/** Mutable accumulator of file paths. */
export interface FileOps {
  read: Set<string>;
  modified: Set<string>;
}

/** An empty accumulator. */
export function createFileOps(): FileOps {
  return { read: new Set(), modified: new Set() };
}

function pathArg(args: Record<string, unknown>): string | undefined {
  const p = args.path ?? args.file_path ?? args.filePath;
  return typeof p === "string" && p.trim() !== "" ? p : undefined;
}

/** Adds the paths touched by the tool calls in `messages`. */
export function collectFileOps(messages: readonly AgentMessage[], ops: FileOps = createFileOps()): FileOps {
  for (const m of messages) {
    if (m.role !== "assistant") continue;
    for (const block of m.content) {
      if (block.type !== "toolCall") continue;
      const path = pathArg(block.arguments);
      if (!path) continue;
      if (READ_TOOLS.has(block.name)) ops.read.add(path);
      else if (MODIFY_TOOLS.has(block.name)) ops.modified.add(path);
    }
  }
  return ops;
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Adds the lists of an earlier summary's or compaction's `details` (so file tracking is cumulative
 * across iterative compactions and nested branch summaries). Unknown shapes are ignored.
 */
export function mergeFileOpsDetails(ops: FileOps, details: unknown): FileOps {
  if (details && typeof details === "object") {
    const d = details as Record<string, unknown>;
    for (const p of stringList(d.readFiles)) ops.read.add(p);
    for (const p of stringList(d.modifiedFiles)) ops.modified.add(p);
  }
  return ops;
}

/** Sorted lists; a file both read and modified is listed as modified only. */
export function fileOpsToDetails(ops: FileOps): FileOperationDetails {
  const modifiedFiles = [...ops.modified].sort();
  const readFiles = [...ops.read].filter((p) => !ops.modified.has(p)).sort();
  return { readFiles, modifiedFiles };
}

/** The `<read-files>` / `<modified-files>` blocks appended to a summary (empty string when none). */
export function formatFileOps(details: Pick<FileOperationDetails, "readFiles" | "modifiedFiles">): string {
  const parts: string[] = [];
  if (details.readFiles.length > 0) parts.push(`<read-files>\n${details.readFiles.join("\n")}\n</read-files>`);
  if (details.modifiedFiles.length > 0)
    parts.push(`<modified-files>\n${details.modifiedFiles.join("\n")}\n</modified-files>`);
  return parts.length > 0 ? "\n\n" + parts.join("\n\n") : "";
}
