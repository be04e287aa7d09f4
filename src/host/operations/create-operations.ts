/**
 * The operations table (docs/architecture.md, "One way in"): built from the features' actions once they exist, with
 * the guards reading the session's state and the window's files lock; `s.operations` is set here.
 */
import type { HostServices } from "../common/services.js";
import { hostOperations, type OperationActions } from "./host-operations.js";
import { Operations } from "./operations.js";
import { sessionGuardState } from "./session-guard-state.js";

/** The table of every operation; `ensureSession` opens the workspace's session before one runs. */
export function createOperations(
  s: HostServices,
  actions: OperationActions,
  ensureSession: () => Promise<boolean>,
): Operations {
  const controller = s.controller.get();
  const operations = new Operations(hostOperations(actions), {
    state: sessionGuardState(controller, s.filesLock),
    notify: s.notify,
    ensureSession,
    hasEntry: (id) => controller.hasEntry(id),
  });
  s.operations.set(operations);
  return operations;
}
