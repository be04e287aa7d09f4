/** `edit` {path, oldText, newText}: replace one exact, unique occurrence of text in a file. */
import type { FileHandle } from "node:fs/promises";
import { describeFsError } from "./fs-errors.js";
import { displayPath, namedPath } from "./path-guard.js";
import { guarded, reqString, textResult } from "./tool-args.js";
import type { AgentTool, ToolResult } from "./types.js";
import { openInWorkspace, replaceContent } from "./workspace-open.js";

function countOccurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** A small line diff of the replaced region, for display (`-` old, `+` new, with line numbers). */
function regionDiff(
  before: string,
  index: number,
  oldText: string,
  newText: string,
): { diff: string; firstChangedLine: number } {
  const firstChangedLine = before.slice(0, index).split("\n").length;
  const minus = oldText.split("\n").map((l, i) => `-${String(firstChangedLine + i).padStart(4)} ${l}`);
  const plus = newText.split("\n").map((l, i) => `+${String(firstChangedLine + i).padStart(4)} ${l}`);
  return { diff: [...minus, ...plus].join("\n"), firstChangedLine };
}

/** Create the edit tool. */
export function createEditTool(cwd: string): AgentTool {
  return {
    name: "edit",
    description:
      "Edit a file by replacing exact text. oldText must match the file exactly (whitespace included) and occur exactly once; include surrounding lines to make it unique.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the workspace root" },
        oldText: { type: "string", description: "Exact text to find (must be unique in the file)" },
        newText: { type: "string", description: "Replacement text" },
      },
      required: ["path", "oldText", "newText"],
    },
    mutates: true,
    promptSnippet: "Make a precise file edit by exact text replacement",
    promptGuidelines: ["Use edit for targeted changes; its oldText must match the file exactly and only once."],
    execute: guarded("edit", async (args) => {
      const p = reqString(args, "path");
      const oldText = reqString(args, "oldText");
      const newText = reqString(args, "newText", true);
      const shown = displayPath(cwd, namedPath(cwd, p));
      let handle: FileHandle;
      try {
        ({ handle } = await openInWorkspace(cwd, p, "edit"));
      } catch (e) {
        throw describeFsError(e, shown);
      }
      // Read and write through the one handle checked to be inside the workspace.
      try {
        return await editOpenFile(handle, shown, oldText, newText);
      } catch (e) {
        throw describeFsError(e, shown);
      } finally {
        await handle.close();
      }
    }),
  };
}

async function editOpenFile(handle: FileHandle, shown: string, oldText: string, newText: string): Promise<ToolResult> {
  const before = await handle.readFile("utf8");
  let count = countOccurrences(before, oldText);
  // Models write "\n"; Windows files hold "\r\n". Match in the file's own convention.
  if (count === 0 && before.includes("\r\n") && !oldText.includes("\r\n")) {
    const crlfOld = oldText.replace(/\n/g, "\r\n");
    const crlfCount = countOccurrences(before, crlfOld);
    if (crlfCount > 0) {
      oldText = crlfOld;
      newText = newText.replace(/\r?\n/g, "\r\n");
      count = crlfCount;
    }
  }
  if (count === 0) {
    return textResult(
      `Could not find the text to replace in ${shown}. oldText must match the file exactly, including whitespace and line breaks; read the file again and copy the text.`,
      true,
    );
  }
  if (count > 1) {
    return textResult(
      `The text to replace occurs ${count} times in ${shown}; it must be unique. Include more surrounding lines in oldText.`,
      true,
    );
  }
  if (oldText === newText) return textResult(`oldText and newText are identical; ${shown} was not changed.`, true);
  const index = before.indexOf(oldText);
  await replaceContent(handle, before.slice(0, index) + newText + before.slice(index + oldText.length));
  const { diff, firstChangedLine } = regionDiff(before, index, oldText, newText);
  return textResult(
    `Edited ${shown}: replaced ${oldText.split("\n").length} line(s) at line ${firstChangedLine}.`,
    false,
    { path: shown, diff, firstChangedLine },
  );
}
