/**
 * Finding and reading the files Claude Code writes subagents (Task / Agent tool) to. Two layouts exist:
 *
 * - Recent versions: `<project dir>/<session id>/subagents/agent-<agent id>.jsonl`, next to the session's
 *   transcript `<project dir>/<session id>.jsonl`; the folder says which session they belong to.
 * - Older versions: `agent-<agent id>.jsonl` directly in the project folder, beside every session's transcript.
 *   Only the lines say whose they are: each carries the parent session's `sessionId`.
 *
 * Either way the lines have the main transcript's shape, plus `isSidechain: true` and `agentId`; the first line
 * is the Task prompt (parentUuid null). Which Task call launched each is claude-subagents.ts's business.
 */
import { createReadStream } from "node:fs";
import { readdir } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { parseClaudeFile, parseClaudeLine } from "./claude-parse.js";
import type { ClaudeParseIssue, ClaudeRecord } from "./claude-types.js";
import { errorText } from "../error-text.js";

/** A subagent's own transcript, parsed; records carry `agent`, issues carry `file`. */
export interface ClaudeSubagentTranscript {
  agentId: string;
  /**
   * Path relative to the transcript's folder, used in issues: `<session id>/subagents/agent-<id>.jsonl`, or
   * `agent-<id>.jsonl` for the older layout.
   */
  file: string;
  records: ClaudeRecord[];
  issues: ClaudeParseIssue[];
}

const AGENT_FILE = /^agent-(.+)\.jsonl$/;
/**
 * How many lines of an older-layout agent file are looked at for a session id before giving up on it. The first
 * line normally decides; a few more let a corrupt or id-less first line (a summary line) not hide the file.
 */
const SESSION_ID_LINES = 16;
/** Older-layout files peeked at once: a project folder can hold thousands, each opened only for its head. */
const PEEK_CONCURRENCY = 16;

/** The agent id of a subagent file name (`agent-<id>.jsonl`), else undefined. */
export function subagentIdOfFileName(name: string): string | undefined {
  return AGENT_FILE.exec(name)?.[1];
}

/** The folder holding a transcript's subagent files (recent layout). */
export function claudeSubagentDir(transcriptPath: string): string {
  return join(dirname(transcriptPath), basename(transcriptPath, ".jsonl"), "subagents");
}

/** A subagent file found for a transcript, not read yet. */
interface FoundFile {
  agentId: string;
  name: string;
  path: string;
  /** See {@link ClaudeSubagentTranscript.file}. */
  file: string;
}

/** A folder's `agent-<id>.jsonl` names; a missing or unreadable folder has none (most transcripts have none). */
async function agentFileNames(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).filter((name) => subagentIdOfFileName(name) !== undefined).sort();
  } catch {
    return [];
  }
}

/**
 * The session id the first lines of a file name (the first parsable line carrying one, within
 * {@link SESSION_ID_LINES} lines), else undefined. Reads only that far, so large files cost little.
 */
export async function sessionIdOfFile(path: string): Promise<string | undefined> {
  const input = createReadStream(path, { encoding: "utf8" });
  const rl = createInterface({ input, crlfDelay: Infinity });
  try {
    let seen = 0;
    for await (const raw of rl) {
      const text = raw.trim();
      if (text === "") continue;
      const parsed = parseClaudeLine(text);
      if (typeof parsed !== "string" && typeof parsed.sessionId === "string") return parsed.sessionId;
      if (++seen >= SESSION_ID_LINES) break;
    }
    return undefined;
  } finally {
    rl.close();
    input.destroy();
  }
}

/** Older-layout agent files in the transcript's folder whose lines carry `sessionId`, minus `skip`'s agents. */
async function olderLayoutFiles(
  transcriptPath: string,
  sessionId: string,
  skip: ReadonlySet<string>,
): Promise<FoundFile[]> {
  const dir = dirname(transcriptPath);
  const candidates: FoundFile[] = [];
  for (const name of await agentFileNames(dir)) {
    const agentId = subagentIdOfFileName(name) as string;
    // Already read from the recent layout: the same subagent is read once.
    if (!skip.has(agentId)) candidates.push({ agentId, name, path: join(dir, name), file: name });
  }
  const out: FoundFile[] = [];
  for (let i = 0; i < candidates.length; i += PEEK_CONCURRENCY) {
    const batch = candidates.slice(i, i + PEEK_CONCURRENCY);
    // A file that cannot be read cannot be told to be this session's: it is left out, not reported.
    const ids = await Promise.all(batch.map((f) => sessionIdOfFile(f.path).catch(() => undefined)));
    batch.forEach((f, k) => {
      if (ids[k] === sessionId) out.push(f);
    });
  }
  return out;
}

/** Parse one subagent file; a file that cannot be read becomes one issue of that file. */
async function readSubagentFile(f: FoundFile): Promise<ClaudeSubagentTranscript> {
  try {
    const parsed = await parseClaudeFile(f.path);
    return {
      agentId: f.agentId,
      file: f.file,
      records: parsed.records.map((r) => ({ ...r, agent: f.agentId })),
      issues: parsed.issues.map((i) => ({ ...i, file: f.file })),
    };
  } catch (err) {
    const reason = `subagent file not readable: ${errorText(err)}`;
    return { agentId: f.agentId, file: f.file, records: [], issues: [{ line: 0, reason, file: f.file }] };
  }
}

/**
 * Parse every subagent file of a transcript, sorted by file name: those of its own subagents folder, and the
 * older layout's `agent-<id>.jsonl` files beside it whose lines carry the transcript's session id (its file
 * name). A subagent in both layouts is read from its folder only. Missing folders give an empty list.
 */
export async function readClaudeSubagents(transcriptPath: string): Promise<ClaudeSubagentTranscript[]> {
  const sessionId = basename(transcriptPath, ".jsonl");
  const dir = claudeSubagentDir(transcriptPath);
  const recent: FoundFile[] = (await agentFileNames(dir)).map((name) => ({
    agentId: subagentIdOfFileName(name) as string,
    name,
    path: join(dir, name),
    file: `${sessionId}/subagents/${name}`,
  }));
  const older = await olderLayoutFiles(transcriptPath, sessionId, new Set(recent.map((f) => f.agentId)));
  const found = [...recent, ...older].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const out: ClaudeSubagentTranscript[] = [];
  for (const f of found) out.push(await readSubagentFile(f));
  return out;
}
