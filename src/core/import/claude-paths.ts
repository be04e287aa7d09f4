/** Where Claude Code keeps transcripts, and a cheap listing of them for a workspace. */
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { blocksOf } from "./claude-blocks.js";
import { parseClaudeLine } from "./claude-parse.js";
import { subagentIdOfFileName } from "./claude-subagent-files.js";

/** One transcript in a listing. Mirrors the store's SessionInfo where the fields mean the same. */
export interface ClaudeTranscriptInfo {
  path: string;
  /** Claude Code session id (the file name without .jsonl). */
  id: string;
  cwd: string;
  /** Title from a summary line, if the transcript has one. */
  name?: string;
  firstMessage: string;
  /** User and assistant lines (split assistant replies count once per line). */
  messageCount: number;
  created: Date;
  modified: Date;
  sizeBytes: number;
}

/** Claude Code's configuration folder (`CLAUDE_CONFIG_DIR` or `~/.claude`). */
export function getClaudeDir(): string {
  const env = process.env.CLAUDE_CONFIG_DIR;
  return env && env.trim() !== "" ? env : join(homedir(), ".claude");
}

/**
 * Folder names Claude Code has used for a cwd: current versions replace every non-alphanumeric character
 * with "-", older ones only "/" and ".". Both are tried.
 */
export function claudeProjectDirNames(cwd: string): string[] {
  const names = [cwd.replace(/[^a-zA-Z0-9]/g, "-"), cwd.replace(/[/\\.:]/g, "-")];
  return [...new Set(names)];
}

/** `<claudeDir>/projects/<dir for cwd>` candidates. */
export function claudeProjectDirs(cwd: string, claudeDir: string = getClaudeDir()): string[] {
  return claudeProjectDirNames(cwd).map((n) => join(claudeDir, "projects", n));
}

const FIRST_MESSAGE_CHARS = 200;
/** The line's own uuid (Claude Code writes it as a top-level field; nested objects use other names). */
const UUID_FIELD = /"uuid":"([^"]+)"/;

/** First user text, last summary and line counts, read by streaming the file. */
async function scanTranscript(
  path: string,
): Promise<{ firstMessage: string; name?: string; count: number; sidechains: number; cwd?: string; created?: Date }> {
  let firstMessage = "";
  let name: string | undefined;
  let cwd: string | undefined;
  let created: Date | undefined;
  let count = 0;
  let sidechains = 0;
  const uuids = new Set<string>();
  const summaries: { leafUuid: string; summary: string }[] = [];
  const rl = createInterface({ input: createReadStream(path, { encoding: "utf8" }), crlfDelay: Infinity });
  for await (const line of rl) {
    // Cheap checks first: most lines are large and only a few need parsing.
    const isUser = line.includes('"type":"user"');
    const isAssistant = line.includes('"type":"assistant"');
    const isSummary = line.includes('"type":"summary"');
    if (isUser || isAssistant) count++;
    if ((isUser || isAssistant) && line.includes('"isSidechain":true')) sidechains++;
    const uuid = UUID_FIELD.exec(line);
    if (uuid) uuids.add(uuid[1]);
    const needParse = isSummary || (isUser && firstMessage === "") || cwd === undefined;
    if (!needParse) continue;
    const parsed = parseClaudeLine(line);
    if (typeof parsed === "string") continue;
    if (cwd === undefined && typeof parsed.cwd === "string") cwd = parsed.cwd;
    if (created === undefined && typeof parsed.timestamp === "string" && !Number.isNaN(Date.parse(parsed.timestamp)))
      created = new Date(parsed.timestamp);
    if (parsed.type === "summary" && typeof parsed.summary === "string" && typeof parsed.leafUuid === "string")
      summaries.push({ leafUuid: parsed.leafUuid, summary: parsed.summary });
    if (parsed.type === "user" && firstMessage === "" && !parsed.isMeta && !parsed.isSidechain) {
      const text = blocksOf(parsed.message?.content)
        .filter((b) => b.type === "text" && typeof b.text === "string")
        .map((b) => b.text)
        .join(" ")
        .replace(/\s+/g, " ")
        .trim();
      firstMessage = text.slice(0, FIRST_MESSAGE_CHARS);
    }
  }
  // Summaries of other sessions are copied into new files; the title is the last one about this file.
  for (const s of summaries) if (uuids.has(s.leafUuid)) name = s.summary;
  return { firstMessage, name, count, sidechains, cwd, created };
}

/** Claude Code transcripts of a workspace, newest first. A missing folder gives an empty list. */
export async function listClaudeTranscripts(cwd: string, claudeDir?: string): Promise<ClaudeTranscriptInfo[]> {
  const out: ClaudeTranscriptInfo[] = [];
  for (const dir of claudeProjectDirs(cwd, claudeDir)) {
    let names: string[];
    try {
      names = await readdir(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") continue;
      throw err;
    }
    for (const file of names) {
      // Subagent transcripts are part of their session, not sessions: newer versions keep them in
      // `<session>/subagents/` (not listed by this readdir), older ones wrote `agent-<id>.jsonl` here.
      if (!file.endsWith(".jsonl") || subagentIdOfFileName(file) !== undefined) continue;
      const path = join(dir, file);
      const st = await stat(path);
      if (!st.isFile()) continue;
      const scan = await scanTranscript(path);
      // A file of nothing but sidechain messages is a subagent's, whatever its name.
      if (scan.count === 0 || scan.sidechains === scan.count) continue;
      out.push({
        path,
        id: file.slice(0, -".jsonl".length),
        cwd: scan.cwd ?? cwd,
        name: scan.name,
        firstMessage: scan.firstMessage,
        messageCount: scan.count,
        created: scan.created ?? st.birthtime,
        modified: st.mtime,
        sizeBytes: st.size,
      });
    }
  }
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}
