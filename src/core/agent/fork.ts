/**
 * AgentSession.fork (pi's /fork): copy the path up to an entry into a new session file. Forking at a
 * user message copies up to its parent and returns the message's text for the editor, so the user
 * can resend it (edited) in the new session.
 */
import type { HookRunner } from "../hooks/hook-runner.js";
import type { SessionManager } from "../session/session-manager.js";
import { selectionTarget } from "./navigate-tree.js";

/** Result of fork(). The current session is unchanged; the host opens `newSessionFile`. */
export interface ForkResult {
  cancelled: boolean;
  newSessionFile?: string;
  editorText?: string;
}

/** Implementation of AgentSession.fork. */
export async function forkSession(sm: SessionManager, hooks: HookRunner, entryId: string): Promise<ForkResult> {
  const entry = sm.getEntry(entryId);
  if (!entry) throw new Error(`Cannot fork: no entry with id "${entryId}" in this session`);
  const before = await hooks.emitBefore("session_before_fork", { type: "session_before_fork", entryId });
  if (before?.cancel) return { cancelled: true };

  const { newLeafId, editorText } = selectionTarget(entry);
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
