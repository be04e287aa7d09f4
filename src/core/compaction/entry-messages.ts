/** The message a session entry contributes to the model's context (mirrors buildSessionContext). */
import type { AgentMessage } from "../messages.js";
import type { SessionEntry } from "../session/types.js";

function time(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

/**
 * `message` → its message, `custom_message` → a custom message, `branch_summary` → a branch summary
 * message; compactions and bookkeeping entries (labels, custom state, model changes) → undefined.
 */
export function entryToMessage(entry: SessionEntry): AgentMessage | undefined {
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
        timestamp: time(entry.timestamp),
      };
    case "branch_summary":
      return { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: time(entry.timestamp) };
    default:
      return undefined;
  }
}

/** The messages of `entries`, in order. */
export function entriesToMessages(entries: readonly SessionEntry[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (const e of entries) {
    const m = entryToMessage(e);
    if (m) out.push(m);
  }
  return out;
}
