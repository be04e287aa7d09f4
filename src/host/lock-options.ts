/**
 * The writer lock as the extension holds it. Its heartbeat waits for a round trip to this window
 * (`setContext` runs in the window, not in the extension host), so a lock whose window is gone — a closed
 * code-server tab whose extension host lingers for its reconnection grace period — stops being refreshed
 * and can be taken over after asking, while an open window keeps it fresh.
 *
 * Test seam: AGENT_TREE_LOCK_HEARTBEAT_MS and AGENT_TREE_LOCK_STALE_MS (milliseconds, in the environment
 * of the extension host) shorten the heartbeat and the time after which a silent lock may be taken over;
 * the end-to-end tests set them. Users never need them.
 */
import * as vscode from "vscode";
import type { LockOptions } from "../core/session/types.js";

function envMs(name: string): number | undefined {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v > 0 ? v : undefined;
}

/** Lock options for every session this extension opens or creates for writing. */
export function hostLockOptions(): LockOptions {
  return {
    heartbeatMs: envMs("AGENT_TREE_LOCK_HEARTBEAT_MS"),
    staleAfterMs: envMs("AGENT_TREE_LOCK_STALE_MS"),
    alive: () => vscode.commands.executeCommand("setContext", "agentTree.windowAlive", true),
  };
}
