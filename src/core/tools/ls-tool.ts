/** `ls` {path?, limit?}: entries of one folder, folders marked with "/". */
import fs from "node:fs/promises";
import { describeFsError } from "./fs-errors.js";
import { displayPath, namedPath } from "./path-guard.js";
import { guarded, optInt, optString, textResult } from "./tool-args.js";
import type { AgentTool } from "./types.js";
import { folderPath, openInWorkspace } from "./workspace-open.js";
import { toolParameters } from "./tool-parameters.js";

const DEFAULT_LIMIT = 500;

/** Create the ls tool. */
export function createLsTool(cwd: string): AgentTool {
  return {
    name: "ls",
    description: `List a folder (default: workspace root), sorted by name, dotfiles included; folders end with "/". At most ${DEFAULT_LIMIT} entries by default.`,
    parameters: toolParameters({
      path: ["string", "Folder to list (default: workspace root)"],
      limit: ["number", `Maximum entries (default ${DEFAULT_LIMIT})`],
    }),
    mutates: false,
    promptSnippet: "List directory contents",
    execute: guarded("ls", async (args) => {
      const p = optString(args, "path") ?? ".";
      const limit = optInt(args, "limit", 1) ?? DEFAULT_LIMIT;
      const shown = displayPath(cwd, namedPath(cwd, p));
      let entries: import("node:fs").Dirent[];
      try {
        const opened = await openInWorkspace(cwd, p, "dir");
        try {
          entries = await fs.readdir(folderPath(opened.handle, opened.real), { withFileTypes: true });
        } finally {
          await opened.handle.close();
        }
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "ENOTDIR") return textResult(`${shown} is a file, not a folder (use read).`, true);
        throw describeFsError(e, shown);
      }
      const names = entries
        .map((e) => (e.isDirectory() ? `${e.name}/` : e.isSymbolicLink() ? `${e.name}@` : e.name))
        .sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      if (!names.length) return textResult("(empty folder)", false, { count: 0 });
      let text = names.slice(0, limit).join("\n");
      if (names.length > limit) text += `\n\n[Showing ${limit} of ${names.length} entries. Use limit to see more.]`;
      return textResult(text, false, { count: names.length });
    }),
  };
}
