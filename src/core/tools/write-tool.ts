/** `write` {path, content}: create or overwrite a file (parent folders created). */
import { describeFsError } from "./fs-errors.js";
import { displayPath, namedPath } from "./path-guard.js";
import { assertWrittenInPlace, FileChangedSinceReviewError, openAsReviewed } from "./reviewed-file.js";
import { guarded, reqString, textResult } from "./tool-args.js";
import type { AgentTool } from "./types.js";
import { openInWorkspace, replaceContent } from "./workspace-open.js";
import { FILE_PATH, toolParameters } from "./tool-parameters.js";

/** Create the write tool. */
export function createWriteTool(cwd: string): AgentTool {
  return {
    name: "write",
    description: "Write a file, creating it (and its folders) or overwriting it entirely.",
    parameters: toolParameters({ path: FILE_PATH, content: ["string", "The complete new content"] }, [
      "path",
      "content",
    ]),
    mutates: true,
    promptSnippet: "Create or overwrite files",
    promptGuidelines: ["Use write only for new files or complete rewrites."],
    execute: guarded("write", async (args, ctx) => {
      const p = reqString(args, "path");
      const content = reqString(args, "content", true);
      const shown = displayPath(cwd, namedPath(cwd, p));
      let bytes: number;
      try {
        // Approved from a diff: only onto the file the diff showed (reviewed-file.ts), through the checked handle.
        const opened = ctx.reviewed
          ? await openAsReviewed(cwd, p, ctx.reviewed, shown, true)
          : await openInWorkspace(cwd, p, "write");
        try {
          bytes = await replaceContent(opened.handle, content);
          if (ctx.reviewed) await assertWrittenInPlace(opened.handle, opened.real, shown);
        } finally {
          await opened.handle.close();
        }
      } catch (e) {
        if (e instanceof FileChangedSinceReviewError) throw e;
        throw describeFsError(e, shown);
      }
      return textResult(`Wrote ${bytes} bytes to ${shown}`, false, { path: shown, bytes });
    }),
  };
}
