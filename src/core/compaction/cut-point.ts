/**
 * Where to cut the context for compaction: at a turn boundary, so that an assistant tool call and its
 * result are never separated and the kept part never starts with a tool result.
 */
import type { SessionEntry } from "../session/types.js";
import { entryToMessage } from "./entry-messages.js";
import { estimateTokens } from "./tokens.js";

/** True when a new turn starts at this entry (something the user, or a hook for the user, said). */
export function isTurnStart(entry: SessionEntry): boolean {
  const m = entryToMessage(entry);
  if (!m) return false;
  return m.role === "user" || m.role === "custom" || m.role === "bashExecution" || m.role === "branchSummary";
}

/** An assistant reply: a valid, second-best cut (its tool results follow it, so they are kept too). */
function isAssistantStart(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message?.role === "assistant";
}

/**
 * Index of the first entry to keep, or 0 when nothing can be cut. Keeps at least `keepRecentTokens`
 * of the newest messages where a turn boundary allows it; when the only turn boundary that keeps that
 * much is the very start (one huge turn), cuts at the next turn boundary after it, and failing that at
 * the start of an assistant reply.
 */
export function findCutPoint(entries: readonly SessionEntry[], keepRecentTokens: number): number {
  let kept = 0;
  let i = entries.length - 1;
  for (; i >= 0; i--) {
    const m = entryToMessage(entries[i]);
    if (m) kept += estimateTokens(m);
    if (kept >= keepRecentTokens) break;
  }
  if (i <= 0) return 0;
  for (let j = i; j > 0; j--) if (isTurnStart(entries[j])) return j;
  for (let j = i + 1; j < entries.length; j++) if (isTurnStart(entries[j])) return j;
  for (let j = i; j > 0; j--) if (isAssistantStart(entries[j])) return j;
  for (let j = i + 1; j < entries.length; j++) if (isAssistantStart(entries[j])) return j;
  return 0;
}
