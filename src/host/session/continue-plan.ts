/**
 * "Continue in a New Session" decisions and read-only notices, kept free of `vscode` so they are unit
 * tested: what the command does for the open session, why the chat cannot send, and whether a file is
 * a Claude Code transcript rather than a pi session.
 */
import { claudeTranscriptPathOf } from "../../core/import/claude-session.js";
import type { SessionHeader } from "../../core/session/types.js";

/** What "Continue in a New Session" does for the current session. */
export type ContinuePlan =
  | { kind: "none"; message: string }
  | { kind: "writable"; message: string }
  | { kind: "claude"; transcriptPath: string; leaf: string }
  | { kind: "branch"; leafId: string | null };

/** The parts of a SessionManager the decision reads. */
export interface ContinueSource {
  isReadOnly(): boolean;
  getHeader(): SessionHeader;
  getLeafId(): string | null;
}

/** Decide what to do; `kind: "none" | "writable"` carry the message to show instead. */
export function planContinue(sm: ContinueSource | undefined): ContinuePlan {
  if (!sm) return { kind: "none", message: "No session is open." };
  if (!sm.isReadOnly()) return { kind: "writable", message: "This session is already writable." };
  const transcriptPath = claudeTranscriptPathOf(sm);
  const leaf = sm.getLeafId();
  if (transcriptPath) {
    if (leaf === null)
      return { kind: "none", message: "This Claude Code transcript has no messages to continue from." };
    return { kind: "claude", transcriptPath, leaf };
  }
  return { kind: "branch", leafId: leaf };
}

/**
 * Why a read-only session is read-only: the file was locked by another writer, this window's lock was taken
 * over since, the file (or its folder) was deleted while open, or the file is kept untouched.
 */
export type ReadOnlyCause = "locked" | "lockLost" | "fileGone" | "pi" | "claude";

const CONTINUE_HINT = "Run “Agent: Continue in a New Session” to keep working from the selected entry.";

/** The chat's notice for a read-only session (shown where "no model" notices go). */
export function readOnlyReason(cause: ReadOnlyCause): string {
  switch (cause) {
    case "claude":
      return `This is a Claude Code transcript, shown read-only. ${CONTINUE_HINT}`;
    case "pi":
      return `This pi session is shown read-only so pi's file is never rewritten behind its back. ${CONTINUE_HINT}`;
    case "locked":
      return (
        "This session is open read-only because another process (pi or another window) is writing it. " + CONTINUE_HINT
      );
    case "lockLost":
      return (
        "Another window or process took this session over, so this window stopped writing to it: it is read-only " +
        "now. Open it again (“Agent: Open Session…”) to see what was written since. " +
        CONTINUE_HINT
      );
    case "fileGone":
      return (
        "This session's file (or its folder) was deleted while it was open, so nothing more is written: it is " +
        "read-only now. Everything shown is kept in this window; “Save Again” in the notification writes it back " +
        "where it was. " +
        CONTINUE_HINT
      );
    default: {
      const never: never = cause;
      return never;
    }
  }
}

/** How many leading lines {@link looksLikeClaudeTranscript} inspects. */
const SNIFF_LINES = 20;

/**
 * True when the start of a JSONL file reads as a Claude Code transcript: a line with `uuid` and
 * `parentUuid` before any pi `"type":"session"` header. Summary lines (no uuid) and damaged lines are
 * skipped; a file with neither kind of line is not a transcript.
 */
export function looksLikeClaudeTranscript(head: string): boolean {
  const lines = head.split("\n").slice(0, SNIFF_LINES);
  for (const line of lines) {
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v !== "object" || v === null || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    if (o.type === "session") return false;
    if (typeof o.uuid === "string" && "parentUuid" in o) return true;
  }
  return false;
}
