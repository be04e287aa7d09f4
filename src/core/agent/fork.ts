/**
 * AgentSession.fork (pi's /fork): copy the path up to an entry into a new session file. Forking at a
 * user message copies up to its parent and returns the message's text for the editor, so the user
 * can resend it (edited) in the new session.
 */
import type { HookRunner } from "../hooks/hook-runner.js";
import type { SessionManager } from "../session/session-manager.js";
import { selectionTarget } from "./navigate-tree.js";

/**
 * Where a fork ends, as pi's runtime fork takes it: "before" (pi's /fork, the default) ends before a user message
 * and hands its text to the editor; "at" (pi's /clone) ends at the entry itself.
 */
export type ForkPosition = "before" | "at";

/** Result of fork(). The current session is unchanged; the host opens `newSessionFile`. */
export interface ForkResult {
  cancelled: boolean;
  newSessionFile?: string;
  editorText?: string;
}

/** Implementation of AgentSession.fork. */
export async function forkSession(
  sm: SessionManager,
  hooks: HookRunner,
  entryId: string,
  position: ForkPosition = "before",
): Promise<ForkResult> {
  const entry = sm.getEntry(entryId);
  if (!entry) throw new Error(`Cannot fork: no entry with id "${entryId}" in this session`);
  const before = await hooks.emitBefore("session_before_fork", { type: "session_before_fork", entryId, position });
  if (before?.cancel) return { cancelled: true };

  // "at" (pi's /clone) keeps the entry itself, a user message too; "before" goes back to before a user message.
  const { newLeafId, editorText } =
    position === "at" ? { newLeafId: entry.id, editorText: undefined } : selectionTarget(entry);
  // Forking at the root user message gives a session with only a header (newLeafId null). An in-memory
  // session becomes the fork itself, as in pi (no file: newSessionFile stays undefined).
  const newSessionFile = await sm.createBranchedSession(newLeafId);
  await hooks.emit("session_fork", {
    type: "session_fork",
    previousSessionFile: sm.getSessionFile(),
    newSessionFile,
  });
  const result: ForkResult = { cancelled: false };
  if (newSessionFile !== undefined) result.newSessionFile = newSessionFile;
  if (editorText !== undefined) result.editorText = editorText;
  return result;
}
