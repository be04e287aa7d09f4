/** The guards' view of the window (operation-guards.ts), read from the session controller. Pure: no `vscode` import. */
import type { FilesLock } from "../common/files-lock.js";
import type { SessionController } from "../session/session-controller.js";
import type { GuardState } from "./operation-guards.js";

/**
 * The GuardState of the controller's open session, with the window's files lock. Busy is the session's one answer
 * (`AgentSession.busyAt`, SessionRuns): its runs — the leaf's and those off it —, the commands the user typed, its
 * moves, and the operations this host holds the leaf for.
 */
export function sessionGuardState(
  controller: Pick<SessionController, "agent" | "sessionManager" | "readOnlyReason">,
  files: FilesLock,
): GuardState {
  return {
    hasSession: () => controller.agent !== undefined && controller.sessionManager !== undefined,
    readOnlyReason: () => controller.readOnlyReason(),
    busyAt: (entryId) => controller.agent?.busyAt(entryId),
    busyWithin: (entryId) => controller.agent?.runs.busyWithin(entryId),
    hold: (label) => {
      const work = controller.agent?.runs.begin({ kind: "operation", place: "leaf", label });
      return () => work?.end();
    },
    files,
  };
}
