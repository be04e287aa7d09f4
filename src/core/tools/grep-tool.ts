/** `grep` {pattern, path?, glob?, ignoreCase?, literal?, context?, limit?}: search file contents (pure Node). */
import fs from "node:fs/promises";
import { globMatch, globToRegExp } from "./glob.js";
import { displayPath, resolveInWorkspace } from "./path-guard.js";
import { guarded, optBool, optInt, optString, reqString, textResult } from "./tool-args.js";
import { MAX_BYTES, MAX_LINE_CHARS, truncateHead } from "./truncate.js";
import type { AgentTool } from "./types.js";
import { walk, type WalkEntry } from "./walk.js";
import { openFileInside } from "./workspace-open.js";
import { errorText } from "../error-text.js";
import { toolParameters } from "./tool-parameters.js";

/** Default maximum number of matches. */
const DEFAULT_LIMIT = 100;
/** Files larger than this are skipped (logs, bundles). */
const MAX_FILE_BYTES = 2 * 1024 * 1024;

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? line.slice(0, MAX_LINE_CHARS) + "… [line truncated]" : line;
}

/** Create the grep tool. */
export function createGrepTool(cwd: string): AgentTool {
  return {
    name: "grep",
    description: `Search file contents with a regular expression (or literal text). Skips node_modules, .git, files ignored by .gitignore, and binary files. Output: "path:line: text" (context lines use "-"). At most ${DEFAULT_LIMIT} matches by default.`,
    parameters: toolParameters(
      {
        pattern: ["string", "Regular expression (JavaScript syntax), or literal text with literal=true"],
        path: ["string", "File or folder to search (default: workspace root)"],
        glob: ["string", "Only files matching this glob, e.g. *.ts or src/**/*.tsx"],
        ignoreCase: ["boolean", "Case-insensitive search"],
        literal: ["boolean", "Treat pattern as literal text"],
        context: ["number", "Lines of context before and after each match"],
        limit: ["number", `Maximum matches (default ${DEFAULT_LIMIT})`],
      },
      ["pattern"],
    ),
    mutates: false,
    promptSnippet: "Search file contents for patterns (respects .gitignore)",
    execute: guarded("grep", async (args, ctx) => {
      const pattern = reqString(args, "pattern");
      const p = optString(args, "path") ?? ".";
      const glob = optString(args, "glob");
      const ignoreCase = optBool(args, "ignoreCase") ?? false;
      const literal = optBool(args, "literal") ?? false;
      const context = Math.min(optInt(args, "context", 0) ?? 0, 20);
      const limit = optInt(args, "limit", 1) ?? DEFAULT_LIMIT;
      let re: RegExp;
      try {
        re = new RegExp(literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern, ignoreCase ? "i" : "");
      } catch (e) {
        return textResult(
          `Invalid regular expression "${pattern}": ${errorText(e)}. Use literal=true to search for the text as-is.`,
          true,
        );
      }
      const compiledGlob = glob ? globToRegExp(glob) : undefined;
      const start = await resolveInWorkspace(cwd, p);
      const st = await fs.stat(start.real).catch(() => undefined);
      if (!st) return textResult(`Path not found: ${p}`, true);
      const rel = (abs: string): string => displayPath(cwd, abs);
      const files: AsyncIterable<WalkEntry> | WalkEntry[] = st.isDirectory()
        ? walk(start, rel, { signal: ctx.signal, gitignoreRoot: cwd })
        : [{ abs: start.abs, real: start.real, rel: rel(start.abs), isFile: true, isDir: false, isSymlink: false }];
      const out: string[] = [];
      let matches = 0;
      let outBytes = 0;
      let limited = false;
      for await (const f of files) {
        if (ctx.signal?.aborted) return textResult("grep: aborted.", true);
        if (!f.isFile) continue; // symlinks are skipped: they could point outside the workspace
        if (compiledGlob && !globMatch(compiledGlob, f.rel)) continue;
        let buf: Buffer;
        try {
          // Opened only while still a regular file inside the workspace (a folder swapped for a link is refused).
          const handle = await openFileInside(f.real, start.realRoot);
          try {
            const fst = await handle.stat();
            if (!fst.isFile() || fst.size > MAX_FILE_BYTES) continue;
            buf = await handle.readFile();
          } finally {
            await handle.close();
          }
        } catch {
          continue;
        }
        if (buf.subarray(0, 8192).includes(0)) continue;
        const lines = buf.toString("utf8").split("\n");
        let lastPrinted = -1;
        for (let i = 0; i < lines.length; i++) {
          if (!re.test(lines[i])) continue;
          if (matches >= limit) {
            limited = true;
            break;
          }
          matches++;
          const from = Math.max(lastPrinted + 1, i - context);
          if (context > 0 && lastPrinted >= 0 && from > lastPrinted + 1) out.push("--");
          for (let j = from; j <= Math.min(lines.length - 1, i + context); j++) {
            if (j <= lastPrinted) continue;
            const sep = j === i || re.test(lines[j]) ? ":" : "-";
            const line = `${f.rel}${sep}${j + 1}${sep} ${clip(lines[j].replace(/\r$/, ""))}`;
            out.push(line);
            outBytes += line.length + 1;
            lastPrinted = j;
          }
          // Matches inside the context window already printed count as matches too.
          i = Math.max(i, lastPrinted - context);
        }
        if (limited || outBytes > MAX_BYTES) break;
      }
      if (!out.length) return textResult("No matches found.", false, { matches: 0 });
      const t = truncateHead(out.join("\n"));
      let text = t.text;
      if (limited) text += `\n\n[Stopped at ${limit} matches. Use limit, path or glob to narrow the search.]`;
      else if (t.truncated || outBytes > MAX_BYTES)
        text += `\n\n[Output truncated at ${MAX_BYTES / 1024}KB. Narrow the search.]`;
      return textResult(text, false, { matches, limited });
    }),
  };
}
