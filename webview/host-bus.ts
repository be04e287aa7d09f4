/**
 * One listener on window "message", fanned out to subscribers, so models and components share it
 * and the `ready` handshake can be sent after everyone listens.
 */
import type { HostToWebview } from "../src/shared/protocol.js";
import { onHostMessage } from "./vscode-api.js";

type Handler = (msg: HostToWebview) => void;

/** Fan-out of host messages. */
export class HostBus {
  private readonly handlers = new Set<Handler>();
  private readonly stop: () => void;

  constructor() {
    this.stop = onHostMessage((msg) => {
      for (const h of this.handlers) {
        try {
          h(msg);
        } catch (err) {
          // One broken handler must not starve the others; surface it in the devtools console.
          console.error("agent-tree webview: handler failed for", msg.type, err);
        }
      }
    });
  }

  /** Subscribe; returns an unsubscribe function. */
  subscribe = (h: Handler): (() => void) => {
    this.handlers.add(h);
    return () => this.handlers.delete(h);
  };

  /** Stop listening to the window. */
  dispose(): void {
    this.stop();
    this.handlers.clear();
  }
}
