/**
 * Migration of version 1 and 2 session files to version 3 (what pi does on load, done here once, on disk).
 * v1 → v2: every entry gets an id, parentId chains to the previous entry, compaction `firstKeptEntryIndex`
 * (an index into the file's entries, header = 0, as pi counts them) becomes `firstKeptEntryId`. v2 → v3:
 * message role `hookMessage` → `custom`. A line holding several entries (glued-line.ts) gives them one line
 * each; lines that are not entries are kept verbatim (and reported); a torn final line is dropped from the new
 * file (the original, kept as `<file>.v<N>.bak`, still has it). A line nested too deeply to be written back
 * (JSON.stringify recurses) is kept verbatim and reported.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { newEntryId } from "./ids.js";
import { entryShapeError } from "./entry-line.js";
import { splitGluedLine } from "./glued-line.js";
import { SessionFormatError } from "./errors.js";
import { pidAlive } from "./processes.js";
import { CURRENT_SESSION_VERSION, type LoadIssue, type SessionHeader } from "./types.js";
import { errorText } from "../error-text.js";

/** Result of migrateText. */
export interface MigrationResult {
  fromVersion: number;
  header: SessionHeader;
  /** The v3 file's lines (no newlines). */
  lines: string[];
  issues: LoadIssue[];
  /** The issues a load of the v3 file cannot see again (what the migration dropped, split or could not convert). */
  migrationOnly: LoadIssue[];
}

type Obj = Record<string, unknown>;

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
    throw new SessionFormatError(file, 1, `line 1 is not JSON (${errorText(e)})`);
  }
  if (!isObj(header) || header.type !== "session")
    throw new SessionFormatError(file, 1, "line 1 is not a session header");
  if ((raw[0] ?? "").length > SURELY_SERIALIZABLE_CHARS && !serializable(header))
    throw new SessionFormatError(file, 1, "the session header is nested too deeply to migrate");
  const fromVersion = typeof header.version === "number" ? header.version : 1;

  const shapeError = (v: unknown): string | undefined =>
    fromVersion >= 2
      ? entryShapeError(v)
      : isObj(v) && typeof v.type === "string" && v.type !== "session"
        ? undefined
        : "not an entry";
  const migrationOnly: LoadIssue[] = [];
  // The new file's lines in order: an entry (with the 1-based line it came from) or a line kept verbatim.
  const out: ({ entry: Obj; line: number } | string)[] = [];
  for (let i = 1; i < raw.length; i++) {
    const line = raw[i];
    if (line.trim() === "") continue;
    try {
      const v = JSON.parse(line) as unknown;
      const shape = shapeError(v);
      if (shape) {
        issues.push({ line: i + 1, reason: shape });
        out.push(line);
      } else if (line.length > SURELY_SERIALIZABLE_CHARS && !serializable(v)) {
        const issue = { line: i + 1, reason: "nested too deeply to migrate; the line is kept as it is" };
        issues.push(issue);
        migrationOnly.push(issue);
        out.push(line);
      } else out.push({ entry: v as Obj, line: i + 1 });
    } catch (e) {
      const torn = i === raw.length - 1 && !endsWithNewline;
      const glued = splitGluedLine(line, (v) => !shapeError(v), torn);
      if (glued) {
        const issue = {
          line: i + 1,
          reason: `${glued.pieces.length} entries on one line${glued.skipped > 0 ? " after a torn entry" : ""}${glued.tornTail === undefined ? "" : ", then a torn entry"} (a writer appended to a line that had no newline): each now has a line of its own`,
        };
        issues.push(issue);
        migrationOnly.push(issue);
        if (glued.skipped > 0) out.push(line.slice(0, glued.skipped));
        for (const piece of glued.pieces) out.push({ entry: piece.value as Obj, line: i + 1 });
        continue;
      }
      const issue: LoadIssue = {
        line: i + 1,
        reason: `${torn ? "torn last line" : "not valid JSON"}: ${errorText(e)}`,
        torn: torn || undefined,
      };
      issues.push(issue);
      if (torn) migrationOnly.push(issue);
      else out.push(line);
    }
  }
  // Entries as pi counts them for firstKeptEntryIndex: the header is 0, then every entry in order.
  const entries = out.filter((o): o is { entry: Obj; line: number } => typeof o !== "string");

  if (fromVersion < 2) {
    const ids = new Set<string>();
    let prev: string | null = null;
    for (const item of entries) {
      const e = item.entry;
      const id = newEntryId((candidate) => ids.has(candidate));
      ids.add(id);
      e.id = id;
      e.parentId = prev;
      prev = id;
    }
    for (const item of entries) {
      const e = item.entry;
      if (e.type === "compaction" && typeof e.firstKeptEntryIndex === "number") {
        const target = e.firstKeptEntryIndex >= 1 ? entries[e.firstKeptEntryIndex - 1]?.entry : undefined;
        if (target) {
          e.firstKeptEntryId = target.id;
          delete e.firstKeptEntryIndex;
        } else {
          const issue = {
            line: item.line,
            reason: `compaction firstKeptEntryIndex ${e.firstKeptEntryIndex} names no entry; kept as is`,
          };
          issues.push(issue);
          migrationOnly.push(issue);
        }
      }
      item.entry = withEnvelopeFirst(e);
    }
  }
  if (fromVersion < 3) {
    for (const { entry: e } of entries) {
      if (e.type === "message" && isObj(e.message) && e.message.role === "hookMessage") e.message.role = "custom";
    }
  }
  const newHeader = { ...header, version: CURRENT_SESSION_VERSION } as SessionHeader;
  const lines = [JSON.stringify(newHeader), ...out.map((o) => (typeof o === "string" ? o : JSON.stringify(o.entry)))];
  return { fromVersion, header: newHeader, lines, issues, migrationOnly };
}

const MIGRATING = ".migrating-";
/** The temp file of an atomic rewrite that deletes a branch (SessionFile.rewrite). */
const REWRITING = ".rewriting-";

/** Where this process writes the new bytes of `file` before renaming them over it (a branch deletion). */
export function rewriteTempPath(file: string): string {
  return `${file}${REWRITING}${process.pid}`;
}

/**
 * Remove `<file>.migrating-<pid>` and `<file>.rewriting-<pid>` files that a migration or branch deletion killed
 * midway left behind (their process is gone, or is this one, which is not rewriting `file` now). Call only
 * while holding the file's writer lock: no rewrite of this file can be running then. Returns the paths removed.
 */
export function removeStaleMigrationTemps(file: string): string[] {
  const dir = path.dirname(file);
  const prefixes = [MIGRATING, REWRITING].map((infix) => path.basename(file) + infix);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names) {
    const prefix = prefixes.find((p) => name.startsWith(p));
    if (prefix === undefined) continue;
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
  syncFolder(path.dirname(file));
  return backup;
}

/** Make a rename in `dir` durable (best effort: fsync of a folder is not supported everywhere). */
export function syncFolder(dir: string): void {
  try {
    const dirFd = fs.openSync(dir, "r");
    try {
      fs.fsyncSync(dirFd);
    } finally {
      fs.closeSync(dirFd);
    }
  } catch {
    // not supported here; the rename is still atomic
  }
}
