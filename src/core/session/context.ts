/**
 * What the model sees from a leaf (pi's buildSessionContext). Only the latest compaction on the path
 * counts: its summary, then the entries from firstKeptEntryId up to it, then everything after it.
 * Bodies are loaded only for the entries that contribute messages.
 */
import type { AgentMessage } from "../messages.js";
import type { EntryMeta } from "./entry-record.js";
import { metaOf } from "./entry-record.js";
import type { SessionContext, SessionEntry } from "./types.js";

/** What context building needs to know about a path entry without its body. */
export interface PathItem {
  id: string;
  type: string;
  meta: EntryMeta;
}

function millis(timestamp: string): number {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? 0 : t;
}

/** The message an entry contributes, if any. */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      return entry.message;
    case "custom_message":
      return {
        role: "custom",
        customType: entry.customType,
        content: entry.content,
        display: entry.display,
        details: entry.details,
        timestamp: millis(entry.timestamp),
      };
    case "branch_summary":
      return entry.summary
        ? { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: millis(entry.timestamp) }
        : undefined;
    default:
      return undefined;
  }
}

/** Types whose entries can contribute a message (the others are never loaded for the context). */
const MESSAGE_TYPES = new Set(["message", "custom_message", "branch_summary"]);

/** The thinking level and model in force at the end of a root-first path: the last ones named on it. */
export function settingsOf(path: readonly PathItem[]): Omit<SessionContext, "messages"> {
  let thinkingLevel = "off";
  let model: SessionContext["model"];
  for (const item of path) {
    if (item.type === "thinking_level_change") thinkingLevel = item.meta.thinkingLevel ?? thinkingLevel;
  }
  // Walk back from the leaf: `meta` may be read on demand (a large line's meta is filled when first asked
  // for), so ask as few entries as possible.
  for (let i = path.length - 1; i >= 0 && !model; i--) {
    const m = path[i].meta.model;
    if (m) model = { ...m };
  }
  return model ? { thinkingLevel, model } : { thinkingLevel };
}

/** Build the context of a root-first path, loading bodies through `load`. */
export function buildContext(
  path: readonly PathItem[],
  load: (item: PathItem) => SessionEntry | undefined,
): SessionContext {
  const { thinkingLevel, model } = settingsOf(path);
  let compactionIdx = -1;
  for (let i = 0; i < path.length; i++) if (path[i].type === "compaction") compactionIdx = i;
  const messages: AgentMessage[] = [];
  const add = (item: PathItem): void => {
    if (!MESSAGE_TYPES.has(item.type)) return;
    const entry = load(item);
    const m = entry && messageOfEntry(entry);
    if (m) messages.push(m);
  };
  if (compactionIdx >= 0) {
    const c = load(path[compactionIdx]);
    if (c?.type === "compaction") {
      messages.push({
        role: "compactionSummary",
        summary: c.summary,
        tokensBefore: c.tokensBefore,
        timestamp: millis(c.timestamp),
      });
      let kept = false;
      for (let i = 0; i < compactionIdx; i++) {
        if (path[i].id === c.firstKeptEntryId) kept = true;
        if (kept) add(path[i]);
      }
    }
    for (let i = compactionIdx + 1; i < path.length; i++) add(path[i]);
  } else {
    for (const item of path) add(item);
  }
  return model ? { messages, thinkingLevel, model } : { messages, thinkingLevel };
}

/** buildContext for a path of whole entries (root first). */
export function buildContextFromEntries(path: readonly SessionEntry[]): SessionContext {
  const items = path.map((entry) => ({ id: entry.id, type: entry.type, meta: metaOf(entry), entry }));
  return buildContext(items, (item) => (item as (typeof items)[number]).entry);
}
