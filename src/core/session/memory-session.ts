/**
 * The bytes of a session held in memory from entries a caller has (pi 1.6's `SessionManager.inMemory(cwd, options,
 * entries)`): the entries' own header when they bring one (migrated from v1/v2 as a file would be), else `header`
 * before them, as pi does.
 */
import { migrateText } from "./migrate.js";
import { scanSessionBytes, type ScanResult } from "./session-scan.js";
import { CURRENT_SESSION_VERSION, type FileEntry, type LoadIssue, type SessionHeader } from "./types.js";

/** What a session made of given entries starts with. */
export interface MemorySession {
  header: SessionHeader;
  /** Its lines, joined by newlines (no final one). */
  text: string;
  scan: ScanResult;
  issues: LoadIssue[];
}

/** The session `entries` make (see the file comment); lines that are no entry become load issues. */
export function memorySession(header: SessionHeader, entries: readonly FileEntry[]): MemorySession {
  const own = entries.find((e): e is SessionHeader => e.type === "session");
  let lines = own
    ? [own, ...entries.filter((e) => e !== own)].map((e) => JSON.stringify(e))
    : [header, ...entries].map((e) => JSON.stringify(e));
  let sessionHeader = own ?? header;
  let migrated: LoadIssue[] = [];
  if (own && (own.version ?? 1) < CURRENT_SESSION_VERSION) {
    const mig = migrateText("(in memory)", lines.join("\n") + "\n");
    lines = mig.lines;
    sessionHeader = mig.header;
    migrated = mig.migrationOnly;
  }
  const text = lines.join("\n");
  const scan = scanSessionBytes(Buffer.from(text + "\n"), { strict: true });
  return { header: scan.header ?? sessionHeader, text, scan, issues: [...migrated, ...scan.issues] };
}
