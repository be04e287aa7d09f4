/**
 * The JSON an exported HTML page embeds (`<script type="application/json" id="agent-tree-data">`) and its page
 * script (webview/export/main.tsx) reads. Pure types: imported by both the core and the browser bundle.
 */
import type { UsageSum } from "../session/session-stats.js";
import type { TreeRow } from "../rows/tree-row.js";
import type { SessionEntry, SessionHeader, UnknownEntry } from "../session/types.js";

/** Marks the JSON so the page can refuse anything else. */
export const EXPORT_FORMAT = "agent-tree-export";
/** Bumped when the shape changes incompatibly. */
export const EXPORT_VERSION = 1;
/** id of the data element in the page. */
export const EXPORT_DATA_ELEMENT_ID = "agent-tree-data";

/** A session entry as exported: whole, except giant tool outputs/arguments cut with a note. */
export type ExportEntry = SessionEntry | UnknownEntry;

/** Token use and cost summed over the exported entries (the session header pi's export shows). */
export type ExportUsage = UsageSum;

/** Everything the page needs. `nodes[i]` and `entries[i]` describe the same entry (file order). */
export interface ExportData {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  title: string;
  sessionId: string;
  cwd: string;
  /** ISO time of the export. */
  exportedAt: string;
  /** The session's leaf (or the chosen leaf for a branch export). */
  leafId: string | null;
  /** True when only root→leaf was exported. */
  branchOnly: boolean;
  nodes: TreeRow[];
  entries: ExportEntry[];
  /** How many texts were shortened to keep the file small. */
  truncatedCount: number;
  /** The limit used, in characters. */
  truncateLimit: number;
  /**
   * The session file's header line, as read: the page's ↓ JSONL download writes it first, then the entries
   * (absent in pages exported before it existed).
   */
  header?: SessionHeader;
  /** Sums of the exported entries' usage (absent in pages exported before it existed). */
  usage?: ExportUsage;
  /**
   * The exporting agent's system prompt at the time of the export, when the exported entries record none (the page
   * says so beside it); absent otherwise.
   */
  currentSystemPrompt?: string;
}
