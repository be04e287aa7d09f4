/**
 * The one place that touches `acquireVsCodeApi`: typed posting to the host and persisted view state.
 * `acquireVsCodeApi` may be called only once per page, so the handle is cached here.
 */
import type { CompareToHost, HostToWebview, WebviewToHost } from "../src/shared/protocol.js";

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

let api: VsCodeApi | undefined;

function vscode(): VsCodeApi {
  api ??= acquireVsCodeApi();
  return api;
}

/** Post a protocol message to the extension host. */
export function post(message: WebviewToHost): void {
  vscode().postMessage(message);
}

/** Post a compare panel's protocol message to the extension host. */
export function postCompare(message: CompareToHost): void {
  vscode().postMessage(message);
}

/** Read this view's persisted state (survives hiding the view and reloads), or undefined. */
export function loadState(): Record<string, unknown> | undefined {
  const s = vscode().getState();
  return s !== null && typeof s === "object" ? (s as Record<string, unknown>) : undefined;
}

/** Merge `patch` into this view's persisted state. */
export function saveState(patch: Record<string, unknown>): void {
  vscode().setState({ ...(loadState() ?? {}), ...patch });
}

/** Subscribe to messages from the host (typed as the view's protocol says); returns an unsubscribe function. */
export function onHostMessage<M extends { type: string } = HostToWebview>(handler: (message: M) => void): () => void {
  const listener = (event: MessageEvent<unknown>): void => {
    const data = event.data;
    // The host is trusted, but other senders (devtools, extensions' iframes) are not: require a type tag.
    if (data !== null && typeof data === "object" && typeof (data as { type?: unknown }).type === "string") {
      handler(data as M);
    }
  };
  window.addEventListener("message", listener);
  return () => window.removeEventListener("message", listener);
}
