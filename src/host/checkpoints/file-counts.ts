/**
 * The badge of tree rows whose tool calls changed files: the count comes from the checkpoint entry hanging off
 * the row (docs/checkpoints.md), taken after those tool calls ran. Checkpoints taken when a prompt starts are
 * left out: they hold the user's own edits between turns, not the row's. Pure: no `vscode` import.
 */
import { CHECKPOINT_ENTRY_TYPE, checkpointDataOf } from "../../core/checkpoints/session-link.js";
import type { SessionEntry } from "../../core/session/types.js";

/** What the counts read of an entry's envelope (a custom entry's preview is its customType). */
export interface CountedEnvelope {
  id: string;
  type: string;
  preview: string;
}

/** The row a checkpoint entry gives a badge to, and the count; undefined for any other entry. */
export function badgeOf(
  env: CountedEnvelope,
  getEntry: (id: string) => SessionEntry | undefined,
): { rowId: string; count: number } | undefined {
  // Only checkpoint entries are loaded: their envelopes already say what they are.
  if (env.type !== "custom" || env.preview !== CHECKPOINT_ENTRY_TYPE) return undefined;
  const entry = getEntry(env.id);
  const data = checkpointDataOf(entry);
  if (!entry?.parentId || !data || data.moment === "prompt-start") return undefined;
  const count = data.folders.reduce((sum, f) => sum + f.changed, 0);
  return count > 0 ? { rowId: entry.parentId, count } : undefined;
}

/** Entry id → files its tool calls changed, for every row with a badge (the newest checkpoint entry wins). */
export function changedFileCounts(
  envelopes: readonly CountedEnvelope[],
  getEntry: (id: string) => SessionEntry | undefined,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const env of envelopes) {
    const badge = badgeOf(env, getEntry);
    if (badge) counts.set(badge.rowId, badge.count);
  }
  return counts;
}
