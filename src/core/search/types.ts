/** What a search over every session of a workspace finds, and how it reports on itself. */
import type { SessionSource } from "../import/session-sources.js";
import type { EntryKind } from "../session/entry-kinds.js";

/** A line of an entry's text around the match. */
export interface SearchSnippet {
  /** One line (whitespace collapsed), "…" where the text was cut. */
  text: string;
  /** [start, end) offsets into `text` of every occurrence of a query word, sorted, merged; for highlighting. */
  ranges: [number, number][];
}

/**
 * Which branch an entry is on. The branch of an entry is its path from the root; it is named by the label
 * nearest to the entry on that path (the entry's own first), else by its first user message: the first
 * user message after the nearest fork above the entry (an ancestor with two or more children other than
 * labels and leaf markers), or the root when there is no fork; when that stretch has no user message, the
 * last user message before it.
 */
export interface SearchBranch {
  /** The nearest label on the path. */
  label?: string;
  /** Id of the user message that names the branch (see above). */
  firstUserMessageId?: string;
  /** That message's text, one line, at most 200 characters. */
  firstUserMessage?: string;
  /** The entry is on the path to the session's current leaf (else on an abandoned branch). */
  active: boolean;
}

/** One matching entry. */
export interface SessionSearchHit {
  /** The session file; for Claude Code, the transcript. */
  path: string;
  source: SessionSource;
  /** The session's name, else the first user message on the entry's path ("" when it has none). */
  sessionTitle: string;
  /** Id of the entry in the session as the extension opens it (Claude Code: the converted tree's id). */
  entryId: string;
  kind: EntryKind;
  /** The entry's timestamp (ISO). */
  timestamp: string;
  /** The entry's own label, if any. */
  label?: string;
  snippet: SearchSnippet;
  branch: SearchBranch;
}

/** Counts of one search (or of one file of it). */
export interface SearchStats {
  /** Session files read (Claude Code subagent files included). */
  files: number;
  /** Bytes read by the scan. */
  bytes: number;
  /** Lines decoded because they held the anchor. */
  candidateLines: number;
  /** Candidate lines that were not valid JSON (skipped; a torn last line counts here too). */
  corruptLines: number;
  /** Files that could not be read or are not sessions (skipped). */
  skippedFiles: number;
  /** Hits reported to the caller. */
  hits: number;
}

/** A session file (with, for Claude Code, its subagents' files) to search. */
export interface SearchTarget {
  source: SessionSource;
  /** "pi": a pi v3 session file (or an older version); "claude": a Claude Code transcript. */
  format: "pi" | "claude";
  /** The session file or transcript. */
  path: string;
  /** Every file the scan reads for it: `path` first, then Claude Code subagent files. */
  files: string[];
  /** Bytes of all its files. */
  bytes: number;
  /** Last modification (ms since the epoch): the newest are searched first. */
  mtimeMs: number;
}

/** Zeroed counts. */
export function emptyStats(): SearchStats {
  return { files: 0, bytes: 0, candidateLines: 0, corruptLines: 0, skippedFiles: 0, hits: 0 };
}

/** Adds `b` into `a`. */
export function addStats(a: SearchStats, b: SearchStats): void {
  a.files += b.files;
  a.bytes += b.bytes;
  a.candidateLines += b.candidateLines;
  a.corruptLines += b.corruptLines;
  a.skippedFiles += b.skippedFiles;
  a.hits += b.hits;
}
