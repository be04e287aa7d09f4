/** Where pi keeps sessions, and how it names them. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

/** pi's agent folder: $PI_CODING_AGENT_DIR, else ~/.pi/agent. */
export function getAgentDir(): string {
  const fromEnv = process.env.PI_CODING_AGENT_DIR;
  return fromEnv && fromEnv.trim() !== "" ? fromEnv : path.join(os.homedir(), ".pi", "agent");
}

/** `<agentDir>/sessions/--<cwd without leading slash, / \ : turned into ->--` (pi's folder for a cwd). */
export function defaultSessionDir(cwd: string, agentDir: string = getAgentDir()): string {
  const safe = cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-");
  return path.join(agentDir, "sessions", `--${safe}--`);
}

/** `<ISO timestamp with : and . turned into ->_<sessionId>.jsonl` */
export function sessionFileName(timestamp: string, sessionId: string): string {
  return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

/** True when two folder paths name the same place (resolved; case-folded on Windows, as pi compares them). */
export function samePath(a: string, b: string): boolean {
  const key = (p: string): string => (process.platform === "win32" ? path.resolve(p).toLowerCase() : path.resolve(p));
  return key(a) === key(b);
}

/**
 * The cwd the sessions of `sessionDir` must have to be `cwd`'s, as pi scopes its current-folder listings (since
 * 0.77): a folder of the caller's (`agentTree.sessionDirectory`, pi's `--session-dir`) may hold the sessions of
 * several projects, so only those whose header names `cwd` are `cwd`'s; pi's own folder for `cwd` is `cwd`'s
 * already, whatever its headers say (undefined: no filter).
 */
export function cwdFilterOf(cwd: string, sessionDir: string | undefined): string | undefined {
  if (sessionDir === undefined || samePath(sessionDir, defaultSessionDir(cwd))) return undefined;
  return path.resolve(cwd);
}

/**
 * True when a header's cwd is `cwd` (no filter: always). Also when both resolve to one folder through symlinks
 * (a workspace opened as /tmp/w whose sessions say /private/tmp/w).
 */
export function cwdMatches(headerCwd: unknown, cwd: string | undefined): boolean {
  if (cwd === undefined) return true;
  if (typeof headerCwd !== "string" || headerCwd === "") return false;
  return samePath(headerCwd, cwd) || samePath(realFolder(headerCwd), realFolder(cwd));
}

function realFolder(p: string): string {
  try {
    return fs.realpathSync.native(p);
  } catch {
    return p;
  }
}
