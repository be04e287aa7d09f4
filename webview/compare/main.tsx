/**
 * Entry of the compare panel's bundle (dist/compare.js): the shared stylesheet (markdown, status line, codicons)
 * and the compare view's own, then the app, then `compare/ready` once it listens.
 */
import "@vscode/codicons/dist/codicon.css";
import "../../media/webview.css";
import "../../media/compare.css";
import { render } from "preact";
import type { HostToCompare } from "../../src/shared/protocol.js";
import { registerControls } from "../ui/controls.js";
import { loadState, onHostMessage, postCompare, saveState } from "../vscode-api.js";
import { CompareApp } from "./compare-app.js";

function mount(): void {
  registerControls();
  let root = document.getElementById("root");
  if (root === null) {
    root = document.createElement("div");
    root.id = "root";
    document.body.appendChild(root);
  }
  const handlers = new Set<(msg: HostToCompare) => void>();
  onHostMessage<HostToCompare>((msg) => {
    for (const h of handlers) {
      try {
        h(msg);
      } catch (err) {
        // One broken handler must not starve the others; surface it in the devtools console.
        console.error("agent-tree compare: handler failed for", msg.type, err);
      }
    }
  });
  const subscribeHost = (fn: (msg: HostToCompare) => void): (() => void) => {
    handlers.add(fn);
    return () => handlers.delete(fn);
  };
  render(
    <CompareApp post={postCompare} subscribeHost={subscribeHost} initialState={loadState()} saveState={saveState} />,
    root,
  );
  postCompare({ type: "compare/ready" });
}

mount();
