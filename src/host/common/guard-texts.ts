/**
 * What the user is told when something may not start, in one wording wherever it is said: the operations table's
 * guards (src/host/operations/operation-guards.ts), and the few places outside it that meet the same condition.
 * Pure: no `vscode` import.
 */
import type { SessionWork } from "../../core/agent/session-runs.js";

/** Said when an operation needs a session and none is open. */
export const NO_SESSION_TEXT = "No Agent session is open: open the Agent view first.";

/** Said when an operation needs the leaf idle and a reply or a command the user typed runs there. */
export const STREAMING_TEXT = "A reply or a command is running: abort it (Agent: Abort) first.";

/** "a branch switch" → "A branch switch". */
function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** Why the work the session answered `busyAt` with keeps an operation from starting. */
export function busyText(work: SessionWork): string {
  switch (work.kind) {
    case "run":
      return work.place === "leaf"
        ? STREAMING_TEXT
        : `${capitalized(work.label)} is running there: stop it (Agent: Stop Branch) or wait for it first.`;
    case "command":
      return STREAMING_TEXT;
    case "session":
    case "operation":
      return `${capitalized(work.label)} is already in progress.`;
    default: {
      const never: never = work.kind;
      return never;
    }
  }
}
