/** Listing the sessions of a folder (SessionManager.list, findMostRecent). */
import * as fs from "node:fs";
import * as path from "node:path";
import { errorText } from "../error-text.js";
import { cwdMatches } from "./paths.js";
import { readSessionInfo, type InfoOutcome } from "./session-info.js";
import { scanSessionFile } from "./session-scan.js";
import type { ListSessionsOptions, SessionInfo, SkippedSessionFile } from "./types.js";

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

/** The cached answer for `file` while it is unchanged. A copy is returned: callers may spread or change it. */
function cachedInfo(file: string, stat: fs.Stats): SessionInfo | string | undefined {
  const hit = infoCache.get(file);
  if (hit?.signature !== signatureOf(stat)) return undefined;
  return typeof hit.info === "string" ? hit.info : { ...hit.info };
}

/** Keeps what a file read gave (an error reading it is not kept: the next listing tries again). */
function remember(file: string, stat: fs.Stats, outcome: InfoOutcome): void {
  if ("error" in outcome) return;
  infoCache.delete(file);
  infoCache.set(file, { signature: signatureOf(stat), info: outcome.info });
  if (infoCache.size > INFO_CACHE_LIMIT) infoCache.delete(infoCache.keys().next().value as string);
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
 * not "skipped": they belong elsewhere. Unchanged files are not read again (the cache above). The files are read by
 * `opts.reader` (worker threads: this thread only waits), else here, the event loop running between files. Rejects
 * with the signal's reason once `opts.signal` aborts, and reads no further.
 */
export async function listSessions(dir: string, cwd?: string, opts: ListSessionsOptions = {}): Promise<SessionInfo[]> {
  const { signal, reader } = opts;
  signal?.throwIfAborted();
  const files = await sessionFiles(dir, opts.skipped);
  // Each file's answer in the folder's order, so `skipped` is told in that order however the reads finish.
  const answers: (SessionInfo | string | undefined)[] = new Array(files.length);
  const reading = new Set<Promise<void>>();
  let failure: { reason: unknown } | undefined;
  for (let i = 0; i < files.length; i++) {
    const { file, stat } = files[i];
    await nextTurn();
    signal?.throwIfAborted();
    try {
      const header = cwd === undefined ? undefined : scanSessionFile(file, { headerOnly: true }).header;
      if (header && !cwdMatches(header.cwd, cwd)) continue;
      const cached = cachedInfo(file, stat);
      if (cached !== undefined) {
        answers[i] = cached;
        continue;
      }
      if (!reader) {
        answers[i] = answerOf(file, stat, readSessionInfo(file, stat));
        continue;
      }
    } catch (e) {
      answers[i] = cannotRead(e);
      continue;
    }
    const read: Promise<void> = reader.read(file, stat, signal).then(
      (outcome) => void (answers[i] = answerOf(file, stat, outcome)),
      (reason: unknown) => void (failure ??= { reason }),
    );
    const settled = read.finally(() => reading.delete(settled));
    reading.add(settled);
    // As many files at once as the reader has workers.
    if (reading.size >= reader.parallel) await Promise.race(reading);
    if (failure) throw failure.reason;
  }
  await Promise.all(reading);
  if (failure) throw failure.reason;
  signal?.throwIfAborted();
  const out: SessionInfo[] = [];
  answers.forEach((a, i) => {
    if (typeof a === "string") opts.skipped?.push({ path: files[i].file, reason: a });
    else if (a) out.push(a);
  });
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** A read's answer, kept in the cache: the session, or why the file is not listed. */
function answerOf(file: string, stat: fs.Stats, outcome: InfoOutcome): SessionInfo | string {
  remember(file, stat, outcome);
  if ("error" in outcome) return `it cannot be read (${outcome.error})`;
  return typeof outcome.info === "string" ? outcome.info : { ...outcome.info };
}

function cannotRead(e: unknown): string {
  return `it cannot be read (${errorText(e)})`;
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
