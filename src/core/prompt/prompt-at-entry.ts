/**
 * The system prompt in force at any entry of a session (Agent: Show System Prompt): the `system` messages on the
 * path replayed, as context building replays them — from the latest compaction on, that compaction's recorded
 * prompt stands for every system message before it. Only those entries' bodies are read. The exported page replays
 * the path it shows with the same code (systemMessageOfPath).
 */
import {
  currentSystemMessage,
  repairMessage,
  systemPromptText,
  type AgentMessage,
  type SystemMessage,
} from "../messages.js";
import type { SessionManager } from "../session/session-manager.js";
import type { SessionEntry } from "../session/types.js";

/**
 * The replay over a path of any items (envelopes, whole entries): `kind` says which are compactions and system
 * messages, `body` gives the whole entry of those (only theirs are read).
 */
function replay<T>(
  path: readonly T[],
  kind: (item: T) => "compaction" | "system" | undefined,
  body: (item: T) => SessionEntry | undefined,
): SystemMessage | undefined {
  const messages: AgentMessage[] = [];
  let start = 0;
  for (let i = path.length - 1; i >= 0; i--) {
    if (kind(path[i]) !== "compaction") continue;
    const c = body(path[i]);
    if (c?.type === "compaction" && c.systemMessage) messages.push(c.systemMessage);
    start = i + 1;
    break;
  }
  for (let i = start; i < path.length; i++) {
    if (kind(path[i]) !== "system") continue;
    const e = body(path[i]);
    if (e?.type === "message") messages.push(repairMessage(e.message));
  }
  return currentSystemMessage(messages);
}

/** The replayed system message at `entryId` (default: the leaf); undefined when none is recorded on its path. */
export function systemMessageAt(sm: SessionManager, entryId?: string | null): SystemMessage | undefined {
  return replay(
    sm.getPathEnvelopes(entryId),
    (env) =>
      env.type === "compaction" ? "compaction" : env.type === "message" && env.role === "system" ? "system" : undefined,
    (env) => sm.getEntry(env.id),
  );
}

/** The replayed system message at the end of a root→entry path of whole entries (the exported page's). */
export function systemMessageOfPath(path: readonly SessionEntry[]): SystemMessage | undefined {
  return replay(
    path,
    (e) =>
      e.type === "compaction"
        ? "compaction"
        : e.type === "message" && e.message.role === "system"
          ? "system"
          : undefined,
    (e) => e,
  );
}

/** The prompt at `entryId` as one text ("" when none is recorded on its path). */
export function systemPromptAt(sm: SessionManager, entryId?: string | null): string {
  const m = systemMessageAt(sm, entryId);
  return m ? systemPromptText(m) : "";
}
