/** `edit` {path, oldText, newText}: replace one exact, unique occurrence of text in a file. */
import type { FileHandle } from "node:fs/promises";
import { describeFsError } from "./fs-errors.js";
import { displayPath, namedPath } from "./path-guard.js";
import { guarded, reqString, textResult } from "./tool-args.js";
import type { AgentTool, ToolResult } from "./types.js";
import { applyEdit } from "./file-change.js";
import { editDiff } from "./edit-diff.js";
import { assertWrittenInPlace, FileChangedSinceReviewError, openAsReviewed } from "./reviewed-file.js";
import { openInWorkspace, replaceContent } from "./workspace-open.js";
import { FILE_PATH, toolParameters } from "./tool-parameters.js";

/** Create the edit tool. */
export function createEditTool(cwd: string): AgentTool {
  return {
    name: "edit",
    description:
      "Edit a file by replacing exact text. oldText must match the file exactly (whitespace included) and occur exactly once; include surrounding lines to make it unique.",
    parameters: toolParameters(
      {
        path: FILE_PATH,
        oldText: ["string", "Exact text to find (must be unique in the file)"],
        newText: ["string", "Replacement text"],
      },
      ["path", "oldText", "newText"],
    ),
    mutates: true,
    promptSnippet: "Make a precise file edit by exact text replacement",
    promptGuidelines: ["Use edit for targeted changes; its oldText must match the file exactly and only once."],
    execute: guarded("edit", async (args, ctx) => {
      const p = reqString(args, "path");
      const oldText = reqString(args, "oldText");
      const newText = reqString(args, "newText", true);
      const shown = displayPath(cwd, namedPath(cwd, p));
      let opened: { handle: FileHandle; real: string; bytes?: Buffer };
      try {
        // Approved from a diff: only on the file the diff showed (reviewed-file.ts), so the result is the diff's.
        opened = ctx.reviewed
          ? await openAsReviewed(cwd, p, ctx.reviewed, shown, false)
          : await openInWorkspace(cwd, p, "edit");
      } catch (e) {
        if (e instanceof FileChangedSinceReviewError) throw e;
        throw describeFsError(e, shown);
      }
      // Read and write through the one handle checked to be inside the workspace.
      try {
        const before = opened.bytes ? opened.bytes.toString("utf8") : await opened.handle.readFile("utf8");
        const result = await editOpenFile(opened.handle, before, shown, oldText, newText);
        if (ctx.reviewed && result.isError !== true) await assertWrittenInPlace(opened.handle, opened.real, shown);
        return result;
      } catch (e) {
        if (e instanceof FileChangedSinceReviewError) throw e;
        throw describeFsError(e, shown);
      } finally {
        await opened.handle.close();
      }
    }),
  };
}

async function editOpenFile(
  handle: FileHandle,
  before: string,
  shown: string,
  oldText: string,
  newText: string,
): Promise<ToolResult> {
  const edit = applyEdit(before, oldText, newText);
  if (!edit.ok) return textResult(edit.error(shown), true);
  await replaceContent(handle, edit.after);
  const { diff, firstChangedLine } = editDiff(before, edit.after, edit.index, edit.oldText, edit.newText);
  return textResult(
    `Edited ${shown}: replaced ${edit.oldText.split("\n").length} line(s) at line ${firstChangedLine}.`,
    false,
    { path: shown, diff, firstChangedLine },
  );
}
