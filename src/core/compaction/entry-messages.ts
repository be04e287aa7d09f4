/** The messages session entries contribute to the model's context (the store's rules, one source of truth). */
import type { AgentMessage } from "../messages.js";
import { applyContextEdit, contextEditsOf, messageOfEntry } from "../session/context.js";
import type { SessionEntry } from "../session/types.js";

/**
 * `message` → its message, `custom_message` → a custom message, `branch_summary` → a branch summary
 * message; compactions and bookkeeping entries (labels, custom state, model changes) → undefined.
 */
export const entryToMessage: (entry: SessionEntry) => AgentMessage | undefined = messageOfEntry;

/**
 * The messages of `entries`, in order, with the `context_edit` entries among them applied (as pi 1.5 does when
 * it summarizes a branch: text a user removed from the context is not summarized either).
 */
export function entriesToMessages(entries: readonly SessionEntry[]): AgentMessage[] {
  const edits = contextEditsOf(entries);
  const out: AgentMessage[] = [];
  for (const e of entries) {
    const m = messageOfEntry(e);
    if (m) out.push(...applyContextEdit([m], edits.get(e.id)));
  }
  return out;
}
