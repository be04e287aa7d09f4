/** Listing the sessions of a folder (SessionManager.list, findMostRecent). */
import * as fs from "node:fs";
import * as path from "node:path";
import { errorText } from "../error-text.js";
import { activityOf } from "./entry-line.js";
import { migrateText } from "./migrate.js";
import { cwdMatches } from "./paths.js";
import { normalizePreview, textOfContent } from "./preview.js";
import { scanSessionFile } from "./session-scan.js";
import type { ListSessionsOptions, SessionInfo, SkippedSessionFile } from "./types.js";

/** `modified` as pi reports it: the newest activity, else the header's time, else the file's. */
function modifiedOf(activity: number | undefined, headerTimestamp: unknown, stat: fs.Stats): Date {
  if (activity !== undefined && activity > 0) return new Date(activity);
  const header = typeof headerTimestamp === "string" ? Date.parse(headerTimestamp) : NaN;
  return Number.isNaN(header) ? stat.mtime : new Date(header);
}

/** Why a file without a session header is not a session, as the user is told. */
function noHeaderReason(stat: fs.Stats, headerError: string | undefined): string {
  if (stat.size === 0) return "the file is empty";
  return headerError ?? "line 1 is not a session header";
}

function infoOf(file: string, stat: fs.Stats): SessionInfo | string {
  const head = scanSessionFile(file, { headerOnly: true });
  if (!head.header) return noHeaderReason(stat, head.headerError);
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

/**
 * What listing learned of each file, kept while the file is unchanged: the same file (device and inode), size,
 * modification and change times. A listing reads every session whole (the message count, the name and the newest
 * activity can be anywhere in it), so a folder of a few hundred sessions and a gigabyte took seconds each time
 * Open Session… was shown; unchanged files now cost a `stat`. Bounded: the oldest entries go first.
 */
const infoCache = new Map<string, { signature: string; info: SessionInfo | string }>();
const INFO_CACHE_LIMIT = 4096;

function signatureOf(stat: fs.Stats): string {
  return `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}`;
}

/** infoOf, from the cache while the file is unchanged. A copy is returned: callers may spread or change it. */
function cachedInfoOf(file: string, stat: fs.Stats): SessionInfo | string {
  const signature = signatureOf(stat);
  const hit = infoCache.get(file);
  if (hit?.signature === signature) return typeof hit.info === "string" ? hit.info : { ...hit.info };
  const info = infoOf(file, stat);
  infoCache.delete(file);
  infoCache.set(file, { signature, info });
  if (infoCache.size > INFO_CACHE_LIMIT) infoCache.delete(infoCache.keys().next().value as string);
  return typeof info === "string" ? info : { ...info };
}

/** Lets the event loop run between files, so a long listing never holds the extension host for more than one file. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** `*.jsonl` files of `dir` with their stats; a missing folder has none. Others named so go to `skipped`. */
async function sessionFiles(dir: string, skipped?: SkippedSessionFile[]): Promise<{ file: string; stat: fs.Stats }[]> {
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
      else
        skipped?.push({ path: file, reason: stat.isDirectory() ? "it is a folder, not a file" : "it is not a file" });
    } catch {
      // vanished meanwhile: not listed
    }
  }
  return out;
}

/**
 * Sessions (`*.jsonl` with a session header) in `dir`, newest `modified` first; with `cwd`, only those whose header
 * names that folder (paths.ts cwdFilterOf). A missing folder lists nothing. A damaged file never fails the listing:
 * a torn last line is listed (its whole lines counted); a file that is no session (empty, no header, a folder,
 * unreadable) is left out and, with `opts.skipped`, reported there with its reason. Sessions of another `cwd` are
 * not "skipped": they belong elsewhere. Unchanged files are not read again (cachedInfoOf); the event loop runs between
 * files.
 */
export async function listSessions(dir: string, cwd?: string, opts: ListSessionsOptions = {}): Promise<SessionInfo[]> {
  const out: SessionInfo[] = [];
  for (const { file, stat } of await sessionFiles(dir, opts.skipped)) {
    await nextTurn();
    try {
      const header = cwd === undefined ? undefined : scanSessionFile(file, { headerOnly: true }).header;
      if (header && !cwdMatches(header.cwd, cwd)) continue;
      const info = cachedInfoOf(file, stat);
      if (typeof info === "string") opts.skipped?.push({ path: file, reason: info });
      else out.push(info);
    } catch (e) {
      opts.skipped?.push({ path: file, reason: `it cannot be read (${errorText(e)})` });
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
