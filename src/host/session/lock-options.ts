/**
 * The writer lock as the extension holds it. Its heartbeat waits for a round trip to this window
 * (`setContext` runs in the window, not in the extension host), so a lock whose window is gone — a closed
 * code-server tab whose extension host lingers for its reconnection grace period — stops being refreshed
 * and can be taken over after asking, while an open window keeps it fresh. Its timings are the settings
 * `agentTree.session.lockHeartbeatSeconds` and `lockTakeOverAfterSeconds` (the core's defaults when unset).
 */
import * as vscode from "vscode";
import type { LockOptions } from "../../core/session/types.js";
import { lockTimingSettings } from "../common/settings.js";

/** Lock options for a session this extension opens or creates for writing now (the settings as they are). */
export function hostLockOptions(): LockOptions {
  return {
    ...lockTimingSettings(),
    alive: () => vscode.commands.executeCommand("setContext", "agentTree.windowAlive", true),
  };
}
