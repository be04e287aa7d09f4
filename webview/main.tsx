/**
 * Webview entry: one bundle for both views; `<body data-view="tree|chat">` picks the app.
 * Styles are imported so esbuild emits dist/webview.css (codicons included, font alongside).
 */
import "@vscode/codicons/dist/codicon.css";
import "../media/webview.css";
import { render } from "preact";
import { ChatApp } from "./chat/chat-app.js";
import { HostBus } from "./host-bus.js";
import { TreeApp } from "./tree/tree-app.js";
import { registerControls } from "./ui/controls.js";
import { loadState, post, saveState } from "./vscode-api.js";

function mount(): void {
  registerControls();
  const view = document.body.dataset.view === "chat" ? "chat" : "tree";
  let root = document.getElementById("root");
  if (root === null) {
    root = document.createElement("div");
    root.id = "root";
    document.body.appendChild(root);
  }
  const bus = new HostBus();
  const common = { post, subscribeHost: bus.subscribe, initialState: loadState(), saveState };
  render(view === "chat" ? <ChatApp {...common} /> : <TreeApp {...common} />, root);
  // Only now is every subscriber listening: ask the host for its snapshots.
  post({ type: "ready", view });
}

mount();
