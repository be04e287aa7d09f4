/** `read` {path, offset?, limit?}: file contents (text, or images as image blocks). */
import path from "node:path";
import { describeFsError } from "./fs-errors.js";
import { readLineWindow, type LineWindow } from "./read-lines.js";
import { OutsideWorkspaceError, displayPath, isInside, namedPath } from "./path-guard.js";
import { openInWorkspace, type OpenedPath } from "./workspace-open.js";
import { guarded, optInt, reqString, textResult } from "./tool-args.js";
import { MAX_BYTES, MAX_LINES, truncateHead } from "./truncate.js";
import type { AgentTool } from "./types.js";
import { FILE_PATH, toolParameters } from "./tool-parameters.js";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};
/** Larger images are refused rather than sent. */
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/**
 * Opens `p` in the workspace, else — an absolute path inside one of `extraRoots` (the folders of the skills the
 * system prompt lists, which may live in pi's agent folder) — confined to that folder the same way.
 */
async function openForRead(cwd: string, p: string, extraRoots: readonly string[]): Promise<OpenedPath> {
  try {
    return await openInWorkspace(cwd, p, "read");
  } catch (e) {
    if (!(e instanceof OutsideWorkspaceError) || !path.isAbsolute(p)) throw e;
    const root = extraRoots.find((r) => isInside(path.resolve(r), path.resolve(p)));
    if (root === undefined) throw e;
    return openInWorkspace(root, p, "read");
  }
}

/** Create the read tool; `extraRoots` are folders outside the workspace it may read too (see openForRead). */
export function createReadTool(cwd: string, extraRoots: () => readonly string[] = () => []): AgentTool {
  return {
    name: "read",
    description: `Read a file. Text is returned as-is; at most ${MAX_LINES} lines or ${MAX_BYTES / 1024}KB per call (use offset/limit to page; offset is a 1-based line number). Images (png, jpg, gif, webp) are returned as images.`,
    parameters: toolParameters(
      {
        path: FILE_PATH,
        offset: ["number", "Line number to start at (1-based)"],
        limit: ["number", "Maximum number of lines to return"],
      },
      ["path"],
    ),
    mutates: false,
    promptSnippet: "Read file contents",
    promptGuidelines: ["Use read to examine files instead of cat or sed."],
    execute: guarded("read", async (args) => {
      const p = reqString(args, "path");
      const offset = optInt(args, "offset", 1) ?? 1;
      const limit = optInt(args, "limit", 1);
      const shown = displayPath(cwd, namedPath(cwd, p));
      let opened: OpenedPath;
      try {
        opened = await openForRead(cwd, p, extraRoots());
      } catch (e) {
        throw describeFsError(e, shown);
      }
      let win: LineWindow;
      try {
        const size = opened.stat.size;
        const mime = IMAGE_TYPES[path.extname(opened.abs).toLowerCase()];
        if (mime) {
          if (size > MAX_IMAGE_BYTES)
            return textResult(
              `${shown} is an image of ${size} bytes; too large to send (max ${MAX_IMAGE_BYTES}).`,
              true,
            );
          const data = await opened.handle.readFile();
          return {
            content: [
              { type: "text", text: `Image ${shown} (${mime}, ${data.length} bytes)` },
              { type: "image", data: data.toString("base64"), mimeType: mime },
            ],
          };
        }
        // Never more lines than one answer can show; the byte cap is applied below.
        win = await readLineWindow(opened.handle, size, offset, Math.min(limit ?? MAX_LINES, MAX_LINES) + 1);
      } catch (e) {
        throw describeFsError(e, shown);
      } finally {
        await opened.handle.close();
      }
      if (win.binary) return textResult(`${shown} looks like a binary file; not shown.`, true);
      const total = win.totalLines;
      if (offset > total) return textResult(`Offset ${offset} is beyond the end of ${shown} (${total} lines).`, true);
      const slice = win.lines.slice(0, limit ?? win.lines.length);
      const t = truncateHead(slice.join("\n"));
      let text = t.text;
      const lastShown = offset + t.keptLines - 1;
      if (t.truncated) {
        text += `\n\n[Showing lines ${offset}-${lastShown} of ${total}. Use offset=${lastShown + 1} to continue.]`;
      } else if (limit !== undefined && lastShown < total) {
        text += `\n\n[${total - lastShown} more lines in file. Use offset=${lastShown + 1} to continue.]`;
      }
      return {
        content: [{ type: "text", text }],
        details: { path: shown, startLine: offset, endLine: lastShown, totalLines: total, truncated: t.truncated },
      };
    }),
  };
}
