/** `find` {pattern, path?, limit?}: files whose path matches a glob. */
import fs from "node:fs/promises";
import { globMatch, globToRegExp } from "./glob.js";
import { displayPath, resolveInWorkspace } from "./path-guard.js";
import { guarded, optInt, optString, reqString, textResult } from "./tool-args.js";
import { truncateHead } from "./truncate.js";
import type { AgentTool } from "./types.js";
import { walk } from "./walk.js";
import { toolParameters } from "./tool-parameters.js";

const DEFAULT_LIMIT = 1000;

/** Create the find tool. */
export function createFindTool(cwd: string): AgentTool {
  return {
    name: "find",
    description: `Find files by glob pattern (e.g. "*.ts", "src/**/*.test.ts"). A pattern without "/" matches file names at any depth. Skips node_modules, .git and files ignored by .gitignore. At most ${DEFAULT_LIMIT} results by default.`,
    parameters: toolParameters(
      {
        pattern: ["string", "Glob pattern"],
        path: ["string", "Folder to search (default: workspace root)"],
        limit: ["number", `Maximum results (default ${DEFAULT_LIMIT})`],
      },
      ["pattern"],
    ),
    mutates: false,
    promptSnippet: "Find files by glob pattern (respects .gitignore)",
    execute: guarded("find", async (args, ctx) => {
      const pattern = reqString(args, "pattern");
      const p = optString(args, "path") ?? ".";
      const limit = optInt(args, "limit", 1) ?? DEFAULT_LIMIT;
      const start = await resolveInWorkspace(cwd, p);
      const st = await fs.stat(start.real).catch(() => undefined);
      if (!st?.isDirectory()) return textResult(`Not a folder: ${p}`, true);
      const compiled = globToRegExp(pattern);
      // Match relative to the searched folder, print relative to the workspace.
      const base = displayPath(cwd, start.abs);
      const prefix = base === "." ? "" : base + "/";
      const found: string[] = [];
      let limited = false;
      for await (const e of walk(start, (abs) => displayPath(cwd, abs), {
        signal: ctx.signal,
        gitignoreRoot: cwd,
      })) {
        if (e.isDir) continue;
        const relToSearch = e.rel.startsWith(prefix) ? e.rel.slice(prefix.length) : e.rel;
        if (!globMatch(compiled, relToSearch)) continue;
        if (found.length >= limit) {
          limited = true;
          break;
        }
        found.push(e.rel);
      }
      if (ctx.signal?.aborted) return textResult("find: aborted.", true);
      if (!found.length) return textResult("No files found matching the pattern.", false, { count: 0 });
      const t = truncateHead(found.join("\n"));
      let text = t.text;
      if (limited) text += `\n\n[Stopped at ${limit} results. Use a narrower pattern or path.]`;
      else if (t.truncated) text += `\n\n[Showing ${t.keptLines} of ${found.length} results.]`;
      return textResult(text, false, { count: found.length, limited });
    }),
  };
}
