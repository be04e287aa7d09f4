/**
 * The system prompt in force at any entry of a session (Agent: Show System Prompt): the `system` messages on the
 * path replayed, as context building replays them — from the latest compaction on, that compaction's recorded
 * prompt stands for every system message before it. Only those entries' bodies are read.
 */
import {
  currentSystemMessage,
  repairMessage,
  systemPromptText,
  type AgentMessage,
  type SystemMessage,
} from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";

/** The replayed system message at `entryId` (default: the leaf); undefined when none is recorded on its path. */
export function systemMessageAt(sm: SessionManager, entryId?: string | null): SystemMessage | undefined {
  const path = sm.getPathEnvelopes(entryId);
  const messages: AgentMessage[] = [];
  let start = 0;
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i].type !== "compaction") continue;
    const c = sm.getEntry(path[i].id);
    if (c?.type === "compaction" && c.systemMessage) messages.push(c.systemMessage);
    start = i + 1;
    break;
  }
  for (let i = start; i < path.length; i++) {
    const env = path[i];
    if (env.type !== "message" || env.role !== "system") continue;
    const e = sm.getEntry(env.id);
    if (e?.type === "message") messages.push(repairMessage(e.message));
  }
  return currentSystemMessage(messages);
}

/** The prompt at `entryId` as one text ("" when none is recorded on its path). */
export function systemPromptAt(sm: SessionManager, entryId?: string | null): string {
  const m = systemMessageAt(sm, entryId);
  return m ? systemPromptText(m) : "";
}
