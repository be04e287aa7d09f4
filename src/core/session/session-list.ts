/** Listing the sessions of a folder (SessionManager.list, findMostRecent). */
import * as fs from "node:fs";
import * as path from "node:path";
import { migrateText } from "./migrate.js";
import { readLine, scanSessionFile } from "./scan-file.js";
import { fillEnvelopes } from "./envelope-fill.js";
import type { EntryRecord } from "./entry-record.js";
import type { EntryColumns } from "./entry-columns.js";
import { normalizePreview, textOfContent } from "./preview.js";
import type { SessionInfo } from "./types.js";

/** Bytes read from the end of a message line for its own timestamp (pi writes it among the last keys). */
const TAIL_BYTES = 256;
/**
 * The end of a `message` line in pi's layout: the message's own `"timestamp":<ms>`, then only keys with plain
 * values (stopReason, errorMessage, …), then the message and the entry close. `"timestamp":` cannot sit in a
 * string (its quotes would be escaped), and scalars after it mean it is a key of the object the closing braces
 * end: the message, since pi and this extension write `message` as the entry's last key.
 */
const MESSAGE_TAIL =
  /"timestamp":(-?\d+(?:\.\d+)?)(?:,"[A-Za-z_]+":(?:"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?|true|false|null))*\}\}$/;

/**
 * pi's activity time of a parsed `message` entry: a user or assistant message with a content key, at its own
 * numeric timestamp, else at the entry's.
 */
function activityOfEntry(entry: Record<string, unknown>): number | undefined {
  const m = entry.message as Record<string, unknown> | null | undefined;
  if (typeof m !== "object" || m === null || typeof m.role !== "string" || !("content" in m)) return undefined;
  if (m.role !== "user" && m.role !== "assistant") return undefined;
  if (typeof m.timestamp === "number") return m.timestamp;
  const t = typeof entry.timestamp === "string" ? Date.parse(entry.timestamp) : NaN;
  return Number.isNaN(t) ? undefined : t;
}

/** The activity time of the user or assistant message at column `i` (its line is read from `fd`). */
function activityAt(fd: number, entries: EntryColumns, i: number): number | undefined {
  const own = entries.full[i];
  if (own?.entry) return activityOfEntry(own.entry as unknown as Record<string, unknown>);
  const offset = entries.offsets[i];
  const size = entries.sizes[i];
  if (!own && size > TAIL_BYTES) {
    // A head-only line in pi's layout: its own timestamp is near the end.
    const tail = MESSAGE_TAIL.exec(readLine(fd, offset + size - TAIL_BYTES, TAIL_BYTES).toString("latin1"));
    if (tail) return Number(tail[1]);
  }
  try {
    const text = own?.raw ?? readLine(fd, offset, size).toString("utf8");
    return activityOfEntry(JSON.parse(text) as Record<string, unknown>);
  } catch {
    return undefined;
  }
}

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
  const active = (t: number | undefined): void => {
    if (t !== undefined) activity = Math.max(activity ?? 0, t);
  };
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
      active(activityOfEntry(e));
      const m = e.message as { role?: unknown; content?: unknown } | undefined;
      if (!firstMessage && m?.role === "user") firstMessage = normalizePreview(textOfContent(m.content));
    }
  } else {
    // From the columns: no record is made but the first user message's (its preview is read from its line).
    const { entries } = scanSessionFile(file, { headsOnly: true });
    let firstUser: EntryRecord | undefined;
    const fd = fs.openSync(file, "r");
    try {
      for (let i = 0; i < entries.length; i++) {
        const type = entries.types[i];
        if (type === "session_info") name = entries.full[i]?.meta.name;
        if (type !== "message") continue;
        messageCount++;
        const role = entries.roles[i];
        if (role === "user" || role === "assistant") active(activityAt(fd, entries, i));
        if (!firstUser && role === "user") firstUser = entries.recordAt(i);
      }
      if (firstUser?.pending) fillEnvelopes(fd, [firstUser]);
    } finally {
      fs.closeSync(fd);
    }
    firstMessage = firstUser?.env.preview ?? "";
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

/** Sessions (`*.jsonl` with a session header) in `dir`, newest `modified` first. A missing folder lists nothing. */
export async function listSessions(dir: string): Promise<SessionInfo[]> {
  const out: SessionInfo[] = [];
  for (const { file, stat } of await sessionFiles(dir)) {
    try {
      const info = infoOf(file, stat);
      if (info) out.push(info);
    } catch {
      // unreadable or not a session: not listed
    }
  }
  return out.sort((a, b) => b.modified.getTime() - a.modified.getTime());
}

/** The session file (one with a session header) of `dir` written last, by file time as pi's `-c` picks it. */
export async function mostRecentSessionFile(dir: string): Promise<string | undefined> {
  const files = (await sessionFiles(dir)).sort((a, b) => b.stat.mtimeMs - a.stat.mtimeMs);
  for (const { file } of files) {
    try {
      if (scanSessionFile(file, { headerOnly: true }).header) return file;
    } catch {
      // unreadable: not a candidate
    }
  }
  return undefined;
}
