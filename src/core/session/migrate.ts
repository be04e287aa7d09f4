/**
 * Migration of version 1 and 2 session files to version 3 (what pi does on load, done here once, on disk).
 * v1 → v2: every entry gets an id, parentId chains to the previous entry, compaction `firstKeptEntryIndex`
 * (an index into the file's lines, header = 0) becomes `firstKeptEntryId`. v2 → v3: message role
 * `hookMessage` → `custom`. Lines that are not entries are kept verbatim (and reported); a torn final line is
 * dropped from the new file (the original, kept as `<file>.v<N>.bak`, still has it). A line nested too deeply
 * to be written back (JSON.stringify recurses) is kept verbatim and reported, like any line that is not an entry.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { newEntryId } from "./ids.js";
import { entryShapeError } from "./entry-record.js";
import { SessionFormatError } from "./errors.js";
import { pidAlive } from "./processes.js";
import { CURRENT_SESSION_VERSION, type LoadIssue, type SessionHeader } from "./types.js";

/** Result of migrateText. */
export interface MigrationResult {
  fromVersion: number;
  header: SessionHeader;
  /** The v3 file's lines (no newlines). */
  lines: string[];
  issues: LoadIssue[];
}

type Obj = Record<string, unknown>;

/** Start of the reason of a line that could not be migrated because of its nesting. */
export const NESTED_TOO_DEEPLY = "nested too deeply to migrate";

/** Lines up to this length nest at most half as deep, which JSON.stringify always manages. */
const SURELY_SERIALIZABLE_CHARS = 1000;

/** False when `v` is nested too deeply for JSON.stringify (which recurses, unlike JSON.parse). */
function serializable(v: unknown): boolean {
  try {
    JSON.stringify(v);
    return true;
  } catch (e) {
    if (e instanceof RangeError) return false;
    throw e;
  }
}

function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Put the envelope keys first, in pi's order, keeping every other field. */
function withEnvelopeFirst(e: Obj): Obj {
  const { type, id, parentId, timestamp, ...rest } = e;
  return { type, id, parentId, timestamp, ...rest };
}

/** Migrate the text of a v1/v2 file. Throws SessionFormatError when line 1 is not a session header. */
export function migrateText(file: string, text: string): MigrationResult {
  const raw = text.split("\n");
  const endsWithNewline = text.endsWith("\n");
  if (endsWithNewline) raw.pop();
  const issues: LoadIssue[] = [];
  let header: unknown;
  try {
    header = JSON.parse(raw[0] ?? "");
  } catch (e) {
    throw new SessionFormatError(file, 1, `line 1 is not JSON (${(e as Error).message})`);
  }
  if (!isObj(header) || header.type !== "session")
    throw new SessionFormatError(file, 1, "line 1 is not a session header");
  if ((raw[0] ?? "").length > SURELY_SERIALIZABLE_CHARS && !serializable(header))
    throw new SessionFormatError(file, 1, "the session header is nested too deeply to migrate");
  const fromVersion = typeof header.version === "number" ? header.version : 1;

  // Parsed entries by line index (header = 0); undefined for lines kept verbatim.
  const parsed: (Obj | undefined)[] = [undefined];
  for (let i = 1; i < raw.length; i++) {
    const line = raw[i];
    if (line.trim() === "") {
      parsed.push(undefined);
      continue;
    }
    try {
      const v = JSON.parse(line) as unknown;
      const shape =
        fromVersion >= 2
          ? entryShapeError(v)
          : isObj(v) && typeof v.type === "string" && v.type !== "session"
            ? undefined
            : "not an entry";
      if (shape) {
        issues.push({ line: i + 1, reason: shape });
        parsed.push(undefined);
      } else if (line.length > SURELY_SERIALIZABLE_CHARS && !serializable(v)) {
        issues.push({ line: i + 1, reason: `${NESTED_TOO_DEEPLY}; the line is kept as it is` });
        parsed.push(undefined);
      } else parsed.push(v as Obj);
    } catch (e) {
      const torn = i === raw.length - 1 && !endsWithNewline;
      issues.push({
        line: i + 1,
        reason: `${torn ? "torn last line" : "not valid JSON"}: ${(e as Error).message}`,
        torn: torn || undefined,
      });
      parsed.push(undefined);
      if (torn) raw[i] = "";
    }
  }

  if (fromVersion < 2) {
    const ids = new Set<string>();
    let prev: string | null = null;
    for (let i = 1; i < parsed.length; i++) {
      const e = parsed[i];
      if (!e) continue;
      const id = newEntryId((candidate) => ids.has(candidate));
      ids.add(id);
      e.id = id;
      e.parentId = prev;
      prev = id;
      if (e.type === "compaction" && typeof e.firstKeptEntryIndex === "number") {
        const target = parsed[e.firstKeptEntryIndex];
        if (target && typeof target.id === "string") {
          e.firstKeptEntryId = target.id;
          delete e.firstKeptEntryIndex;
        } else {
          issues.push({
            line: i + 1,
            reason: `compaction firstKeptEntryIndex ${e.firstKeptEntryIndex} names no entry; kept as is`,
          });
        }
      }
      parsed[i] = withEnvelopeFirst(e);
    }
  }
  if (fromVersion < 3) {
    for (const e of parsed) {
      if (e && e.type === "message" && isObj(e.message) && e.message.role === "hookMessage") e.message.role = "custom";
    }
  }
  const newHeader = { ...header, version: CURRENT_SESSION_VERSION } as SessionHeader;
  const lines = [JSON.stringify(newHeader)];
  for (let i = 1; i < raw.length; i++) {
    const e = parsed[i];
    if (e) lines.push(JSON.stringify(e));
    else if (raw[i] !== "") lines.push(raw[i]);
  }
  return { fromVersion, header: newHeader, lines, issues };
}

const MIGRATING = ".migrating-";

/**
 * Remove `<file>.migrating-<pid>` files that a migration killed midway left behind (their process is gone,
 * or is this one, which is not migrating `file` now). Call only while holding the file's writer lock: no
 * migration of this file can be running then. Returns the paths removed.
 */
export function removeStaleMigrationTemps(file: string): string[] {
  const dir = path.dirname(file);
  const prefix = path.basename(file) + MIGRATING;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const pid = Number(name.slice(prefix.length));
    if (!Number.isInteger(pid) || pid <= 0 || (pid !== process.pid && pidAlive(pid))) continue;
    try {
      fs.unlinkSync(path.join(dir, name));
      removed.push(path.join(dir, name));
    } catch {
      // gone already
    }
  }
  return removed;
}

/**
 * Rewrite `file` atomically with `lines`: temp file + fsync + rename. The original is first copied to
 * `<file>.v<fromVersion>.bak` and kept (pi lists only *.jsonl, so it never shows up as a session).
 * Returns the backup path.
 */
export function writeMigrated(file: string, fromVersion: number, lines: string[]): string {
  const backup = `${file}.v${fromVersion}.bak`;
  fs.copyFileSync(file, backup);
  const tmp = `${file}${MIGRATING}${process.pid}`;
  const fd = fs.openSync(tmp, "w");
  let written = false;
  try {
    fs.writeSync(fd, lines.join("\n") + "\n");
    fs.fsyncSync(fd);
    written = true;
  } finally {
    fs.closeSync(fd);
    if (!written) fs.rmSync(tmp, { force: true });
  }
  fs.renameSync(tmp, file);
  try {
    const dirFd = fs.openSync(path.dirname(file), "r");
    fs.fsyncSync(dirFd);
    fs.closeSync(dirFd);
  } catch {
    // fsync of a directory is not supported everywhere; the rename is still atomic
  }
  return backup;
}
