/** Listing the sessions of a folder (SessionManager.list, findMostRecent). */
import * as fs from "node:fs";
import * as path from "node:path";
import { activityOf } from "./entry-line.js";
import { migrateText } from "./migrate.js";
import { cwdMatches } from "./paths.js";
import { normalizePreview, textOfContent } from "./preview.js";
import { scanSessionFile } from "./session-scan.js";
import type { SessionInfo } from "./types.js";

/** `modified` as pi reports it: the newest activity, else the header's time, else the file's. */
function modifiedOf(activity: number | undefined, headerTimestamp: unknown, stat: fs.Stats): Date {
  if (activity !== undefined && activity > 0) return new Date(activity);
  const header = typeof headerTimestamp === "string" ? Date.parse(headerTimestamp) : NaN;
  return Number.isNaN(header) ? stat.mtime : new Date(header);
}

function infoOf(file: string, stat: fs.Stats): SessionInfo | undefined {
  const head = scanSessionFile(file, { headerOnly: true });
  if (!head.header) return undefined;
  const h = head.header;
  const base = {
    path: file,
    id: h.id,
    cwd: typeof h.cwd === "string" ? h.cwd : "",
    parentSessionPath: typeof h.parentSession === "string" ? h.parentSession : undefined,
    created: new Date(Number.isNaN(Date.parse(h.timestamp)) ? stat.birthtime : h.timestamp),
    sizeBytes: stat.size,
  };
  let name: string | undefined;
  let messageCount = 0;
  let firstMessage = "";
  let activity: number | undefined;
  if ((h.version ?? 1) < 3) {
    // Old files are small; read them whole (they are migrated when opened, not when listed).
    const mig = migrateText(file, fs.readFileSync(file, "utf8"));
    for (const line of mig.lines.slice(1)) {
      let e: Record<string, unknown>;
      try {
        e = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (e.type === "session_info") name = typeof e.name === "string" ? e.name : undefined;
      if (e.type !== "message") continue;
      messageCount++;
      const t = activityOf(e);
      if (t !== undefined) activity = Math.max(activity ?? 0, t);
      const m = e.message as { role?: unknown; content?: unknown } | undefined;
      if (!firstMessage && m?.role === "user") firstMessage = normalizePreview(textOfContent(m.content));
    }
  } else {
    // Every envelope is read by the scan: the count, the name and the first user message are at hand.
    const scan = scanSessionFile(file);
    const { envs, metas } = scan.entries;
    let firstUser: string | undefined;
    for (let i = 0; i < scan.entries.length; i++) {
      const env = envs[i];
      if (env.type === "session_info") name = metas[i].name;
      if (env.type !== "message") continue;
      messageCount++;
      if (firstUser === undefined && env.role === "user") firstUser = env.preview;
    }
    firstMessage = firstUser ?? "";
    activity = scan.activity;
  }
  return { ...base, modified: modifiedOf(activity, h.timestamp, stat), name, messageCount, firstMessage };
}

/** `*.jsonl` files of `dir` with their stats; a missing folder has none. */
async function sessionFiles(dir: string): Promise<{ file: string; stat: fs.Stats }[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw e;
  }
  const out: { file: string; stat: fs.Stats }[] = [];
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const file = path.join(dir, name);
    try {
      const stat = await fs.promises.stat(file);
      if (stat.isFile()) out.push({ file, stat });
    } catch {
      // vanished meanwhile: not listed
    }
  }
  return out;
}

/**
 * Sessions (`*.jsonl` with a session header) in `dir`, newest `modified` first; with `cwd`, only those whose header
 * names that folder (paths.ts cwdFilterOf). A missing folder lists nothing.
 */
export async function listSessions(dir: string, cwd?: string): Promise<SessionInfo[]> {
  const out: SessionInfo[] = [];
  for (const { file, stat } of await sessionFiles(dir)) {
    try {
      if (cwd !== undefined && !cwdMatches(scanSessionFile(file, { headerOnly: true }).header?.cwd, cwd)) continue;
      const info = infoOf(file, stat);
      if (info) out.push(info);
    } catch {
      // unreadable or not a session: not listed
    }
  }
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/**
 * The session file (one with a session header) of `dir` written last, by file time as pi's `-c` picks it; with
 * `cwd`, the last of those whose header names that folder.
 */
export async function mostRecentSessionFile(dir: string, cwd?: string): Promise<string | undefined> {
  const files = (await sessionFiles(dir)).sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs);
  for (const { file } of files) {
    try {
      const header = scanSessionFile(file, { headerOnly: true }).header;
      if (header && cwdMatches(header.cwd, cwd)) return file;
    } catch {
      // unreadable: not a candidate
    }
  }
  return undefined;
}
