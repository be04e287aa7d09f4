/**
 * pi's `/export <file>.jsonl`: the current branch as a session file of its own — a fresh header (same id and
 * working directory, the current format version, the time of the export) and the path's entries, root first, each
 * re-parented on the one before it (so labels and summaries of other branches that sat in between are dropped).
 */
import type { SessionEntry, SessionHeader } from "../session/types.js";
import { CURRENT_SESSION_VERSION } from "../session/types.js";

/** What the JSONL export reads from a session. SessionManager satisfies it. */
export interface JsonlExportSource {
  getSessionId(): string;
  getCwd(): string;
  /** Root→leaf. */
  getPath(): readonly SessionEntry[];
}

/**
 * The entries of a path, each re-parented on the one before it (the first on none): what a branch written on its own
 * needs when entries between them were left out. An entry already hanging there is passed as it is.
 */
export function chainEntries(path: readonly SessionEntry[]): SessionEntry[] {
  let parentId: string | null = null;
  return path.map((entry) => {
    const chained = entry.parentId === parentId ? entry : { ...entry, parentId };
    parentId = entry.id;
    return chained;
  });
}

/** The branch as JSONL text (one line per entry, a trailing newline), as pi's serializeSessionBranch writes it. */
export function serializeBranchJsonl(source: JsonlExportSource, now: Date = new Date()): string {
  const header: SessionHeader = {
    type: "session",
    version: CURRENT_SESSION_VERSION,
    id: source.getSessionId(),
    timestamp: now.toISOString(),
    cwd: source.getCwd(),
  };
  const lines: object[] = [header, ...chainEntries(source.getPath())];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}
