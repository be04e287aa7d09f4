/** `write` {path, content}: create or overwrite a file (parent folders created). */
import fs from "node:fs/promises";
import path from "node:path";
import { describeFsError } from "./fs-errors.js";
import { displayPath, resolveInWorkspace } from "./path-guard.js";
import { guarded, reqString, textResult } from "./tool-args.js";
import type { AgentTool } from "./types.js";

/** Create the write tool. */
export function createWriteTool(cwd: string): AgentTool {
  return {
    name: "write",
    description: "Write a file, creating it (and its folders) or overwriting it entirely.",
    parameters: {
      type: "object",
      properties: {
        path: { type: "string", description: "File path, relative to the workspace root" },
        content: { type: "string", description: "The complete new content" },
      },
      required: ["path", "content"],
    },
    mutates: true,
    execute: guarded("write", async (args) => {
      const p = reqString(args, "path");
      const content = reqString(args, "content", true);
      const abs = await resolveInWorkspace(cwd, p);
      const shown = displayPath(cwd, abs);
      try {
        await fs.mkdir(path.dirname(abs), { recursive: true });
        await fs.writeFile(abs, content, "utf8");
      } catch (e) {
        throw describeFsError(e, shown);
      }
      const bytes = Buffer.byteLength(content, "utf8");
      return textResult(`Wrote ${bytes} bytes to ${shown}`, false, { path: shown, bytes });
    }),
  };
}
