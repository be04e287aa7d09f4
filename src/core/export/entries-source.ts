/**
 * An {@link ExportSource} over a plain list of entries (a converted Claude Code transcript, entries read by other
 * means). Labels are resolved like the store does: the last label entry for a target wins, an empty one clears.
 */
import type { SessionEntry } from "../session/types.js";
import type { ExportSource } from "./build-export-data.js";

/** What {@link createEntriesSource} needs. */
export interface EntriesSourceInit {
  sessionId: string;
  cwd: string;
  entries: readonly SessionEntry[];
  leafId: string | null;
  name?: string;
}

/** A read-only export source over entries in file order. */
export function createEntriesSource(init: EntriesSourceInit): ExportSource {
  const byId = new Map<string, SessionEntry>();
  const labels = new Map<string, string>();
  let name = init.name;
  for (const e of init.entries) {
    if (!byId.has(e.id)) byId.set(e.id, e);
    if (e.type === "label") {
      if (e.label) labels.set(e.targetId, e.label);
      else labels.delete(e.targetId);
    }
    if (init.name === undefined && e.type === "session_info" && e.name) name = e.name;
  }
  return {
    getSessionId: () => init.sessionId,
    getCwd: () => init.cwd,
    getLeafId: () => init.leafId,
    getEntries: () => init.entries,
    getLabel: (id) => labels.get(id),
    getSessionName: () => name,
    getPath(fromId?: string): SessionEntry[] {
      const out: SessionEntry[] = [];
      const seen = new Set<string>();
      let cur = fromId ?? init.leafId;
      while (cur !== null && cur !== undefined && !seen.has(cur)) {
        const e = byId.get(cur);
        if (!e) break;
        seen.add(cur);
        out.push(e);
        cur = e.parentId;
      }
      return out.reverse();
    },
  };
}
