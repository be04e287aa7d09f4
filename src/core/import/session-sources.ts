/**
 * Sessions a workspace can open, from every place they live: this extension's folder (by default pi's own
 * folder for the workspace), pi's folders of other workspaces, and Claude Code's transcripts.
 */
import { readdir } from "node:fs/promises";
import { join, resolve } from "node:path";
import { SessionManager } from "../session/session-manager.js";
import { defaultSessionDir, getAgentDir } from "../session/paths.js";
import type { SessionInfoReader } from "../session/session-info-reader.js";
import type { SessionInfo, SkippedSessionFile } from "../session/types.js";
import { listClaudeTranscripts } from "./claude-paths.js";

/** One folder of pi sessions (`<agentDir>/sessions/--<cwd>--`). */
export interface PiSessionFolder {
  path: string;
  /** The folder name decoded back to a path: a guess, since pi's encoding turns "/" and "-" alike into "-". */
  cwdGuess: string;
}

/** Where a listed session comes from. */
export type SessionSource = "workspace" | "pi" | "claude";

/** A session of any source; `source: "claude"` ones open with openClaudeTranscript (read-only). */
export interface AnySessionInfo extends Omit<SessionInfo, "parentSessionPath"> {
  source: SessionSource;
  parentSessionPath?: string;
}

/** Options of {@link listAllSessions}. */
export interface ListAllOptions {
  /** The workspace's own session folder if configured elsewhere than pi's default. */
  sessionDir?: string;
  /** pi's agent folder (default `getAgentDir()`). */
  agentDir?: string;
  /** Claude Code's folder (default `CLAUDE_CONFIG_DIR` or `~/.claude`); `null` skips Claude Code. */
  claudeDir?: string | null;
  /** Receives the `*.jsonl` files of the session folders that are no session, with their reasons. */
  skipped?: SkippedSessionFile[];
  /** Reads the session files (worker threads); none: the caller's thread (ListSessionsOptions). */
  reader?: SessionInfoReader;
  /** Stops the listing: it rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** Every pi session folder (one per workspace pi was used in). A missing folder gives an empty list. */
export async function listPiSessionFolders(agentDir: string = getAgentDir()): Promise<PiSessionFolder[]> {
  const root = join(agentDir, "sessions");
  let names: string[];
  try {
    names = await readdir(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw err;
  }
  return names
    .filter((n) => n.startsWith("--") && n.endsWith("--") && n.length > 4)
    .sort()
    .map((n) => ({ path: join(root, n), cwdGuess: "/" + n.slice(2, -2).replace(/-/g, "/") }));
}

/**
 * The workspace's sessions, pi's sessions of the same workspace (when the workspace folder is elsewhere),
 * and Claude Code's transcripts of it, newest first.
 */
export async function listAllSessions(cwd: string, opts: ListAllOptions = {}): Promise<AnySessionInfo[]> {
  const piDir = defaultSessionDir(cwd, opts.agentDir);
  const ownDir = opts.sessionDir ?? piDir;
  const listOpts = { skipped: opts.skipped, reader: opts.reader, signal: opts.signal };
  const out: AnySessionInfo[] = (await SessionManager.list(cwd, ownDir, listOpts)).map((s) => ({
    ...s,
    source: "workspace",
  }));
  if (resolve(ownDir) !== resolve(piDir)) {
    for (const s of await SessionManager.list(cwd, piDir, listOpts)) out.push({ ...s, source: "pi" });
  }
  if (opts.claudeDir !== null) {
    for (const c of await listClaudeTranscripts(cwd, opts.claudeDir)) out.push({ ...c, source: "claude" });
  }
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}
