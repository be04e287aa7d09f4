/**
 * What the editor asks when a session's writer lock is held: the message and the choices, by why the lock
 * stops this window (see SessionLockedError.condition). Kept free of `vscode` so it is unit tested.
 */
import type { LockHolderInfo, LockLossReason, SessionLockedError } from "../../core/session/errors.js";

/** The choices of the dialog; "Take Over" only for a lock that can be taken over. */
export type LockChoice = "Take Over" | "Open Read-Only" | "New Session";

/** The dialog for a locked session. */
export interface LockedDialog {
  message: string;
  choices: LockChoice[];
}

function holderText(holder: LockHolderInfo | undefined): string {
  if (!holder) return "another process";
  return `process ${holder.pid ?? "?"}${holder.hostname ? ` on ${holder.hostname}` : ""}`;
}

function secondsAgo(iso: string | undefined, now: number): string {
  const t = iso === undefined ? NaN : Date.parse(iso);
  return Number.isNaN(t) ? "a while" : `${Math.max(0, Math.round((now - t) / 1000))} s`;
}

/** The message and choices for `e` on the session file named `name`. */
export function lockedDialog(
  name: string,
  e: Pick<SessionLockedError, "condition" | "canTakeOver" | "holder" | "refreshedAt">,
  now: number = Date.now(),
): LockedDialog {
  const who = holderText(e.holder);
  const choices: LockChoice[] = e.canTakeOver
    ? ["Take Over", "Open Read-Only", "New Session"]
    : ["Open Read-Only", "New Session"];
  switch (e.condition) {
    case "this-process":
      return { message: `Session ${name} is already open for writing in this window.`, choices };
    case "unresponsive":
      return {
        message:
          `Session ${name} is locked by ${who}, which has not refreshed its lock for ${secondsAgo(e.refreshedAt, now)}: ` +
          "its window was probably closed, or it hangs. Take the session over? That process then stops writing to it.",
        choices,
      };
    case "damaged":
      return {
        message: `Session ${name} has a damaged lock file, so who writes it is unknown. Take the session over?`,
        choices,
      };
    case "busy":
      return {
        message: `Session ${name} is being opened by several processes at once. Open a read-only view of it?`,
        choices,
      };
    case "live":
      return {
        message:
          `Session ${name} is being written by ${who} (pi or another window). Open a read-only view of it? ` +
          "If that window was closed, its lock expires shortly; open the session again then to take it over.",
        choices,
      };
    default: {
      const never: never = e.condition;
      return never;
    }
  }
}

/** The notification of a window whose lock was taken over, or whose session file was deleted while open. */
export function lockLostMessage(
  name: string,
  newHolder: LockHolderInfo | undefined,
  reason: LockLossReason = "taken-over",
): string {
  if (reason === "file-gone")
    return (
      `Session ${name} was deleted (the file or its folder) while it was open; this window no longer writes to it ` +
      "and shows it read-only. Nothing shown is lost: Save Again writes it back where it was."
    );
  return (
    `Session ${name} was taken over by ${newHolder ? holderText(newHolder) : "another window or process"}; ` +
    "this window no longer writes to it and shows it read-only."
  );
}
