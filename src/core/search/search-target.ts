/** Searching one target, whatever its format: the unit of work a search hands to a worker. */
import { searchClaudeTranscript } from "./claude-file-search.js";
import { searchPiFile } from "./pi-file-search.js";
import type { SearchQuery } from "./search-query.js";
import type { SearchStats, SearchTarget, SessionSearchHit } from "./types.js";

/**
 * Search one target, reporting hits as its file is done and adding to `stats` as it reads (so an aborted
 * search still counts what it read). A file that fails to read part-way is counted as skipped (hits
 * reported before stay reported). Resolves false when the signal aborted it.
 */
export async function searchTarget(
  target: SearchTarget,
  query: SearchQuery,
  onHit: (hit: SessionSearchHit) => void,
  stats: SearchStats,
  signal?: AbortSignal,
): Promise<boolean> {
  const ctx = { query, onHit, stats, signal };
  try {
    if (target.format === "claude") await searchClaudeTranscript(target, ctx);
    else await searchPiFile(target, ctx);
  } catch {
    if (signal?.aborted) return false;
    stats.skippedFiles++;
  }
  return true;
}
