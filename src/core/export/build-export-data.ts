/** Builds the JSON an exported page embeds from a session (whole tree or one root→leaf path). */
import { treeRowOf, type TreeRow } from "../rows/tree-row.js";
import { envelopeOf } from "../session/preview.js";
import { usageOfEntries } from "../session/session-stats.js";
import { chainEntries } from "./jsonl-export.js";
import { CURRENT_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../session/types.js";
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportData, type ExportEntry } from "./export-data.js";
import { DEFAULT_TRUNCATE_LIMIT, shrinkEntry } from "./shrink-entry.js";

/**
 * What the export reads from a session. SessionManager satisfies it; so does any read-only view
 * (an opened Claude Code transcript, a test double built from entries).
 */
export interface ExportSource {
  getSessionId(): string;
  getCwd(): string;
  getLeafId(): string | null;
  /** All entries, file order. */
  getEntries(): readonly SessionEntry[];
  /** Root→entry (default: the leaf). */
  getPath(fromId?: string): readonly SessionEntry[];
  getLabel(id: string): string | undefined;
  getSessionName(): string | undefined;
  /** The file's header line (SessionManager has it; a source without one gets a header made of its id and cwd). */
  getHeader?(): SessionHeader;
  /** Entries of archived branches (SessionManager.getArchivedIds): a whole-tree export leaves them out. */
  getArchivedIds?(): ReadonlySet<string>;
}

/** Options shared by the export functions. */
export interface ExportOptions {
  /** Leaf to show first (default: the session's leaf). With branchOnly, the end of the exported path. */
  leafId?: string;
  /** Export only root→leaf. */
  branchOnly?: boolean;
  /** Page title (default: the session name, else the first user message, else the session id). */
  title?: string;
  /** Longest text kept per field, in characters (default 20,000). */
  truncateLimit?: number;
  /**
   * The system prompt the exporting agent would send now. Kept in the page only when the exported entries record
   * none (sessions written before prompts were recorded), as pi's export falls back to its agent's prompt.
   */
  currentSystemPrompt?: string;
}

/** Whether any of `entries` records a system prompt (a `system` message, or a compaction's kept one). */
function recordsSystemPrompt(entries: readonly SessionEntry[]): boolean {
  return entries.some(
    (e) =>
      (e.type === "message" && e.message?.role === "system") ||
      (e.type === "compaction" && e.systemMessage !== undefined),
  );
}

function defaultTitle(source: ExportSource, entries: readonly SessionEntry[]): string {
  const name = source.getSessionName();
  if (name && name.trim() !== "") return name.trim();
  for (const e of entries) {
    if (e.type === "message" && e.message?.role === "user") {
      const preview = envelopeOf(e).preview;
      if (preview !== "") return preview.length > 80 ? preview.slice(0, 79) + "…" : preview;
    }
  }
  return `Session ${source.getSessionId()}`;
}

/** Build the page data. Throws when `leafId` names no entry. */
export function buildExportData(source: ExportSource, options: ExportOptions = {}, now: Date = new Date()): ExportData {
  const all = source.getEntries();
  const ids = new Set(all.map((e) => e.id));
  if (options.leafId !== undefined && !ids.has(options.leafId)) {
    throw new Error(`Cannot export: entry ${options.leafId} is not in this session.`);
  }
  const leafId = options.leafId ?? source.getLeafId();
  const branchOnly = options.branchOnly === true;
  let selected: readonly SessionEntry[] = all;
  if (branchOnly) selected = leafId === null ? [] : source.getPath(leafId);
  else {
    // Archived branches are hidden from the page as they are from the tree (the one the leaf is in excepted).
    const archived = source.getArchivedIds?.() ?? new Set<string>();
    const onPath = new Set(leafId === null ? [] : source.getPath(leafId).map((e) => e.id));
    if (archived.size > 0) selected = all.filter((e) => !archived.has(e.id) || onPath.has(e.id));
  }
  const limit = options.truncateLimit ?? DEFAULT_TRUNCATE_LIMIT;
  const nodes: TreeRow[] = [];
  const entries: ExportEntry[] = [];
  let truncatedCount = 0;
  // In a branch export the path's labels show on their nodes; label entries elsewhere would be noise. pi's label
  // entries sit in the chain (pi moves the leaf onto them): left out, each entry of the branch hangs under the one
  // before it, as pi's branch export to JSONL chains them, so the path stays whole.
  const shown = branchOnly ? chainEntries(selected.filter((e) => e.type !== "label")) : selected;
  for (const e of shown) {
    const orphan = e.parentId !== null && !ids.has(e.parentId);
    nodes.push(treeRowOf({ ...envelopeOf(e), orphan }, source.getLabel(e.id)));
    const shrunk = shrinkEntry(e, limit);
    truncatedCount += shrunk.truncated;
    entries.push(shrunk.entry);
  }
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    title: options.title?.trim() || defaultTitle(source, selected),
    sessionId: source.getSessionId(),
    cwd: source.getCwd(),
    exportedAt: now.toISOString(),
    leafId,
    branchOnly,
    nodes,
    entries,
    truncatedCount,
    truncateLimit: limit,
    header: source.getHeader?.() ?? {
      type: "session",
      version: CURRENT_SESSION_VERSION,
      id: source.getSessionId(),
      timestamp: all[0]?.timestamp ?? now.toISOString(),
      cwd: source.getCwd(),
    },
    usage: usageOfEntries(selected),
    ...(options.currentSystemPrompt && !recordsSystemPrompt(selected)
      ? { currentSystemPrompt: options.currentSystemPrompt }
      : {}),
  };
}
