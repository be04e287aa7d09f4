/**
 * What the model sees from a leaf, as pi 1.5.2 builds it (buildSessionContext):
 * - Only the latest compaction on the path counts: its recorded system prompt (`systemMessage`, when there is
 *   one) and its summary, then the entries from firstKeptEntryId up to it (not their system messages, which the
 *   recorded prompt replaces; none when firstKeptEntryId is the compaction's own id), then everything after it.
 * - `context_edit` entries among those apply to their target: the latest edit of a target wins; `null` drops the
 *   target's messages, a replacement swaps their content.
 * - Messages whose content is null or missing are repaired (repairMessage).
 * Bodies are loaded only for the entries that contribute messages or edits.
 */
import { repairMessage, type AgentMessage } from "../messages.js";
import { metaOf, type EntryMeta } from "./entry-meta.js";
import type { CompactionEntry, ContextEditEntry, SessionContext, SessionEntry } from "./types.js";

/** What context building needs to know about a path entry without its body. */
export interface PathItem {
  id: string;
  type: string;
  /** `message` entries: the role. */
  role?: string;
  meta: EntryMeta;
}

function millis(timestamp: string): number {
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? 0 : t;
}

/**
 * The message an entry contributes, if any: `message` (repaired), `custom_message`, `branch_summary`. A compaction
 * contributes its summary only as the latest one on a path (buildContext), so it gives none here.
 */
export function messageOfEntry(entry: SessionEntry): AgentMessage | undefined {
  switch (entry.type) {
    case "message":
      // A line whose `message` is null or not an object is a load issue (session-scan.ts), not a message.
      return typeof entry.message === "object" && entry.message !== null ? repairMessage(entry.message) : undefined;
    case "custom_message":
      return {
        role: "custom",
        customType: entry.customType,
        content: entry.content ?? [],
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

/** The messages of the compaction a context starts from: its recorded system prompt, then its summary. */
function compactionMessages(c: CompactionEntry): AgentMessage[] {
  const summary: AgentMessage = {
    role: "compactionSummary",
    summary: c.summary,
    tokensBefore: c.tokensBefore,
    timestamp: millis(c.timestamp),
  };
  return c.systemMessage ? [c.systemMessage, summary] : [summary];
}

/** `messages` of one entry with a context edit applied (pi 1.5 projectContextEntry). */
export function applyContextEdit(messages: AgentMessage[], edit: ContextEditEntry | undefined): AgentMessage[] {
  if (!edit) return messages;
  const replacement = edit.replacement;
  if (replacement === null) return [];
  return messages.map((m): AgentMessage => {
    if (m.role === "assistant" || m.role === "toolResult") {
      const content =
        typeof replacement.content === "string"
          ? [{ type: "text" as const, text: replacement.content }]
          : replacement.content;
      return { ...m, content } as AgentMessage;
    }
    if (m.role === "user" || m.role === "custom") return { ...m, content: replacement.content };
    return m;
  });
}

/** Latest context edit per target among `entries` (file order: later wins). */
export function contextEditsOf(entries: readonly SessionEntry[]): Map<string, ContextEditEntry> {
  const edits = new Map<string, ContextEditEntry>();
  for (const e of entries) if (e.type === "context_edit") edits.set(e.targetId, e);
  return edits;
}

/** Types whose entries can contribute messages or edits (the others are never loaded for the context). */
const LOADED_TYPES = new Set(["message", "custom_message", "branch_summary", "context_edit"]);

/** True for the entry types whose bodies building a context reads (compactions, and what LOADED_TYPES names). */
export function contextReads(type: string): boolean {
  return type === "compaction" || LOADED_TYPES.has(type);
}

/** True for an entry that sets the thinking level: a thinking_level_change naming one. */
export function setsThinkingLevel(type: string, meta: EntryMeta): boolean {
  return type === "thinking_level_change" && meta.thinkingLevel !== undefined;
}

/** True for an entry that names the model in force (model_change, or an assistant message's provider/model). */
export function setsModel(meta: EntryMeta): boolean {
  return meta.model !== undefined;
}

/**
 * The thinking level and model in force at the end of a root-first path: the last ones named on it ("off" without
 * a level). SessionManager.getLeafSettings answers the same from its index.
 */
export function settingsOf(path: readonly PathItem[]): Omit<SessionContext, "messages"> {
  let thinkingLevel: string | undefined;
  let model: SessionContext["model"];
  // Walk back from the leaf: `meta` may be read on demand (a large line's meta is filled when first asked
  // for), so ask as few entries as possible.
  for (let i = path.length - 1; i >= 0 && (!model || thinkingLevel === undefined); i--) {
    const { type, meta } = path[i];
    if (thinkingLevel === undefined && setsThinkingLevel(type, meta)) thinkingLevel = meta.thinkingLevel;
    if (!model && setsModel(meta)) model = { ...(meta.model as NonNullable<EntryMeta["model"]>) };
  }
  return settingsFrom(thinkingLevel, model);
}

/** The settings of a context from the level and model found (the level "off" when none was). */
export function settingsFrom(
  thinkingLevel: string | undefined,
  model: SessionContext["model"],
): Omit<SessionContext, "messages"> {
  return model ? { thinkingLevel: thinkingLevel ?? "off", model } : { thinkingLevel: thinkingLevel ?? "off" };
}

/** Build the context of a root-first path, loading bodies through `load`. */
export function buildContext(
  path: readonly PathItem[],
  load: (item: PathItem) => SessionEntry | undefined,
): SessionContext {
  const { thinkingLevel, model } = settingsOf(path);
  let compactionIdx = -1;
  for (let i = 0; i < path.length; i++) if (path[i].type === "compaction") compactionIdx = i;

  // The entries the context is made of, and the compaction it starts from.
  let items: readonly PathItem[] = path;
  let compaction: CompactionEntry | undefined;
  if (compactionIdx >= 0) {
    const c = load(path[compactionIdx]);
    if (c?.type === "compaction") {
      compaction = c;
      const kept: PathItem[] = [];
      let keep = false;
      for (let i = 0; i < compactionIdx; i++) {
        if (path[i].id === c.firstKeptEntryId) keep = true;
        // The compaction's recorded prompt stands for the system messages it kept.
        if (keep && !(path[i].type === "message" && path[i].role === "system")) kept.push(path[i]);
      }
      items = [...kept, ...path.slice(compactionIdx + 1)];
    } else {
      items = path.slice(compactionIdx + 1);
    }
  }
  // The bodies by index in `items` (undefined: not read). Indexed loops, no map per item and no array per message:
  // a 10k-level path builds its context once after open, in code not optimised yet.
  const bodies: (SessionEntry | undefined)[] = new Array<SessionEntry | undefined>(items.length);
  let editEntries: SessionEntry[] | undefined;
  for (let i = 0; i < items.length; i++) {
    if (!LOADED_TYPES.has(items[i].type)) continue;
    const entry = load(items[i]);
    bodies[i] = entry;
    if (entry?.type === "context_edit") (editEntries ??= []).push(entry);
  }
  const edits = editEntries ? contextEditsOf(editEntries) : undefined;
  const messages: AgentMessage[] = compaction
    ? applyContextEdit(compactionMessages(compaction), edits?.get(compaction.id))
    : [];
  for (let i = 0; i < items.length; i++) {
    const entry = bodies[i];
    const m = entry && messageOfEntry(entry);
    if (!m) continue;
    const edit = edits?.get(items[i].id);
    if (edit) messages.push(...applyContextEdit([m], edit));
    else messages.push(m);
  }
  return model ? { messages, thinkingLevel, model } : { messages, thinkingLevel };
}

/** buildContext for a path of whole entries (root first). */
export function buildContextFromEntries(path: readonly SessionEntry[]): SessionContext {
  const items = path.map((entry) => ({
    id: entry.id,
    type: entry.type,
    role: entry.type === "message" ? (entry.message as { role?: string } | undefined)?.role : undefined,
    meta: metaOf(entry),
    entry,
  }));
  return buildContext(items, (item) => (item as (typeof items)[number]).entry);
}
