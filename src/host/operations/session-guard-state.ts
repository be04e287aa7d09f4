/** The guards' view of the window (operation-guards.ts), read from the session controller. Pure: no `vscode` import. */
import type { SessionController } from "../session-controller.js";
import type { FilesLock } from "./files-lock.js";
import type { GuardState } from "./operation-guards.js";

/** The GuardState of the controller's open session, with the window's files lock. */
export function sessionGuardState(
  controller: Pick<SessionController, "agent" | "sessionManager" | "readOnlyReason">,
  files: FilesLock,
): GuardState {
  return {
    hasSession: () => controller.agent !== undefined && controller.sessionManager !== undefined,
    readOnlyReason: () => controller.readOnlyReason(),
    // One agent per session: a reply makes every branch busy (the entry matters once agents run per branch); so does
    // a command the user typed, which is recorded where the leaf is when it ends.
    agentBusy: () => controller.agent?.isStreaming === true || controller.agent?.isBashRunning === true,
    files,
  };
}
