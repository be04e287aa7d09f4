/**
 * Claude Code transcripts as sessions: opened read-only as a tree, or one path continued as a new session of
 * this project's (pi v3) format.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { mkdir, readdir, stat, unlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import type { AgentMessage, AssistantMessage, ToolResultMessage } from "../messages.js";
import { SessionManager } from "../session/session-manager.js";
import { CURRENT_SESSION_VERSION, LEAF_MARKER_TYPE, type SessionEntry, type SessionHeader } from "../session/types.js";
import { convertClaudeRecords, type ConvertedTranscript } from "./claude-convert.js";
import { parseClaudeFile } from "./claude-parse.js";
import { readClaudeSubagents } from "./claude-subagent-files.js";
import type { ClaudeParseIssue } from "./claude-types.js";

/** Custom entry type recording where an imported session came from. */
export const IMPORT_CUSTOM_TYPE = "agent-tree/import";
/** Imported views older than this are removed from the temporary folder. */
const STALE_IMPORT_MS = 24 * 60 * 60 * 1000;

/** Options of {@link importClaudeTranscript}. */
export interface OpenClaudeOptions {
  /** Where the converted view is written (default `<os tmp>/agent-tree-imports`). */
  tempDir?: string;
}

/** An opened transcript and what the conversion found. */
export interface ImportedTranscript {
  /** Read-only session over the converted tree; its leaf is where Claude Code would resume. */
  session: SessionManager;
  /** Lines skipped or repaired (1-based line numbers of the transcript, or of the subagent file in `file`). */
  issues: ClaudeParseIssue[];
  title?: string;
  /** Claude uuid → entry id in `session` (ids are stable across conversions of the same file). */
  idByUuid: ReadonlyMap<string, string | null>;
}

/**
 * A transcript and its subagents' files converted into session entries (the ids openClaudeTranscript's view
 * has). Throws when the file cannot be read or holds no message.
 */
export async function readTranscript(path: string, mapTools: boolean): Promise<ConvertedTranscript> {
  let parsed;
  try {
    parsed = await parseClaudeFile(path);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    throw new Error(
      `Cannot read Claude Code transcript ${path}: ${e.code === "ENOENT" ? "file not found" : e.message}`,
    );
  }
  // Subagents' own files (in its folder, or beside it with its session id); none is the usual case.
  const subagents = await readClaudeSubagents(path);
  const converted = convertClaudeRecords(parsed.records, parsed.issues, { mapTools, subagents });
  if (converted.entries.length === 0) {
    const first = converted.issues[0];
    throw new Error(
      `No Claude Code messages in ${path}` +
        (first ? ` (line ${first.line}: ${first.reason})` : " (the file is empty)"),
    );
  }
  return converted;
}

/** Best effort: old imported views are only a cache. */
async function removeStale(dir: string): Promise<void> {
  const now = Date.now();
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (!name.startsWith("claude-") || !name.endsWith(".jsonl")) continue;
    const p = join(dir, name);
    const st = await stat(p).catch(() => undefined);
    if (st && now - st.mtimeMs > STALE_IMPORT_MS) await unlink(p).catch(() => undefined);
  }
}

/**
 * Open a transcript as a read-only tree. The converted entries are written as a v3 file in a temporary folder
 * and opened with `readOnly: true`, so ids, parents and timestamps are exactly the converted ones (appending
 * them to an in-memory session would restamp them and add leaf markers for every branch).
 */
export async function importClaudeTranscript(path: string, opts: OpenClaudeOptions = {}): Promise<ImportedTranscript> {
  const t = await readTranscript(path, false);
  const dir = opts.tempDir ?? join(tmpdir(), "agent-tree-imports");
  await mkdir(dir, { recursive: true });
  await removeStale(dir);
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: t.sessionId ?? randomUUID(),
    timestamp: t.entries[0]?.timestamp ?? new Date().toISOString(),
    cwd: t.cwd ?? "",
    importedFrom: { source: "claude-code", path },
  };
  const lines = [JSON.stringify(header), ...t.entries.map((e) => JSON.stringify(e))];
  if (t.title !== undefined && t.leafId !== null) {
    lines.push(
      JSON.stringify({
        type: "session_info",
        id: "title000",
        parentId: t.leafId,
        timestamp: t.entries[t.entries.length - 1].timestamp,
        name: t.title,
      }),
    );
  }
  // The store resumes at the target of a trailing leaf marker: Claude Code's resume point, not the last label.
  lines.push(
    JSON.stringify({
      type: "custom",
      id: "leaf0000",
      parentId: t.leafId,
      timestamp: t.entries[t.entries.length - 1].timestamp,
      customType: LEAF_MARKER_TYPE,
      data: { targetId: t.leafId },
    }),
  );
  const file = join(dir, `claude-${basename(path, ".jsonl")}-${randomBytes(4).toString("hex")}.jsonl`);
  await writeFile(file, lines.join("\n") + "\n", "utf8");
  const session = await SessionManager.open(file, { readOnly: true });
  return { session, issues: t.issues, title: t.title, idByUuid: t.idByUuid };
}

/** Open a Claude Code transcript as an in-memory-like read-only session (see {@link importClaudeTranscript}). */
export async function openClaudeTranscript(path: string, opts: OpenClaudeOptions = {}): Promise<SessionManager> {
  return (await importClaudeTranscript(path, opts)).session;
}

/**
 * The transcript a session opened by {@link openClaudeTranscript} shows (from its header), or undefined for any
 * other session: the host uses it to offer "Continue in a New Session".
 */
export function claudeTranscriptPathOf(session: { getHeader(): SessionHeader }): string | undefined {
  const from = session.getHeader().importedFrom;
  if (typeof from !== "object" || from === null) return undefined;
  const f = from as { source?: unknown; path?: unknown };
  return f.source === "claude-code" && typeof f.path === "string" ? f.path : undefined;
}

/** Root→leaf of converted entries. */
function pathTo(entries: readonly SessionEntry[], leafId: string): SessionEntry[] {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out: SessionEntry[] = [];
  for (
    let cur = byId.get(leafId);
    cur && out.length <= entries.length;
    cur = cur.parentId ? byId.get(cur.parentId) : undefined
  )
    out.push(cur);
  return out.reverse();
}

function missingResult(id: string, name: string): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: id,
    toolName: name,
    content: [{ type: "text", text: "No result was recorded for this tool call in the Claude Code transcript." }],
    isError: true,
    timestamp: Date.now(),
  };
}

/**
 * Write the path root→`leaf` of a transcript as a new session (pi v3, tools renamed to pi's) in `sessionDir`
 * and return its file path. `leaf` is a Claude uuid or an entry id of {@link openClaudeTranscript}'s session.
 * Tool calls left without a result get an error result, so the continued session is valid for every provider.
 */
export async function convertClaudePathToSession(
  transcriptPath: string,
  leaf: string,
  cwd: string,
  sessionDir?: string,
): Promise<string> {
  const t = await readTranscript(transcriptPath, true);
  const leafId = t.idByUuid.get(leaf) ?? (t.entries.some((e) => e.id === leaf) ? leaf : undefined);
  if (!leafId) throw new Error(`Cannot continue: ${leaf} is not an entry of ${transcriptPath}.`);
  const path = pathTo(t.entries, leafId);
  const labels = new Map<string, string>();
  for (const e of t.entries) if (e.type === "label" && e.label) labels.set(e.targetId, e.label);

  const sm = await SessionManager.create(cwd, sessionDir);
  try {
    sm.appendCustomEntry(IMPORT_CUSTOM_TYPE, {
      source: "claude-code",
      transcriptPath,
      leaf,
      claudeSessionId: t.sessionId,
    });
    if (t.title) sm.appendSessionInfo(t.title);
    let pending = new Map<string, string>();
    const flushPending = (): void => {
      for (const [id, name] of pending) sm.appendMessage(missingResult(id, name));
      pending = new Map();
    };
    for (const e of path) {
      const m: AgentMessage | undefined = e.type === "message" ? e.message : undefined;
      if (m?.role === "toolResult") pending.delete(m.toolCallId);
      else flushPending();
      let newId: string | undefined;
      if (e.type === "message") {
        newId = sm.appendMessage(e.message);
        if (e.message.role === "assistant") {
          for (const c of (e.message as AssistantMessage).content) if (c.type === "toolCall") pending.set(c.id, c.name);
        }
      } else if (e.type === "custom_message") {
        newId = sm.appendCustomMessageEntry(e.customType, e.content, e.display, e.details);
      } else if (e.type === "compaction") {
        // Claude Code keeps nothing from before a compaction: the new one names itself, as pi 1.5 writes it.
        const keptFrom = e.firstKeptEntryId === e.id ? undefined : e.firstKeptEntryId;
        newId = sm.appendCompaction(e.summary, keptFrom, e.tokensBefore, { source: "claude-code" });
      }
      const label = labels.get(e.id);
      if (newId && label) sm.appendLabelChange(newId, label);
    }
    flushPending();
    const file = sm.getSessionFile();
    if (!file) throw new Error("Cannot continue: the new session has no file.");
    return file;
  } finally {
    await sm.close();
  }
}
