/** The public API (docs/extension-api.md): what `activate()` returns to other extensions. */
import type * as vscode from "vscode";
import type { HookAPI } from "../../core/hooks/types.js";
import type { PiAi } from "../../core/providers/pi-ai.js";
import type { Provider } from "../../core/providers/types.js";
import type { SessionManager } from "../../core/session/session-manager.js";

/** Payload of `onDidChangeSession`. */
export interface SessionChangeEvent {
  sessionManager: SessionManager;
  sessionId: string;
  sessionFile: string | undefined;
  readOnly: boolean;
}

/** What `activate()` returns: `vscode.extensions.getExtension("agent-tree.agent-tree").exports`. */
export interface AgentTreeApi {
  /** Hook registration; survives session switches (re-applied to every new session). */
  hooks: HookAPI;
  /** Fires when another session becomes current (opened, created, forked into). */
  onDidChangeSession: vscode.Event<SessionChangeEvent>;
  /** The current session store, if a session is open. */
  getSessionManager(): SessionManager | undefined;
  /**
   * Adds a model provider (as pi's `registerProvider` does for pi's extensions): `create` gets the model library's
   * runtime (pi-ai: `createProvider`, its API implementations such as `openAICompletionsApi`) and returns a pi-ai
   * provider — its models appear in the picker, its login (OAuth) in "Agent: Log In…". Dispose to remove it.
   */
  registerModelProvider(create: (pi: PiAi) => Provider): vscode.Disposable;
}
