/** The messages session entries contribute to the model's context (the store's rules, one source of truth). */
import type { AgentMessage } from "../messages.js";
import { messageOfEntry } from "../session/context.js";
import type { SessionEntry } from "../session/types.js";

/**
 * `message` → its message, `custom_message` → a custom message, `branch_summary` → a branch summary
 * message; compactions and bookkeeping entries (labels, custom state, model changes) → undefined.
 */
export const entryToMessage: (entry: SessionEntry) => AgentMessage | undefined = messageOfEntry;

/** The messages of `entries`, in order. */
export function entriesToMessages(entries: readonly SessionEntry[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (const e of entries) {
    const m = messageOfEntry(e);
    if (m) out.push(m);
  }
  return out;
}
