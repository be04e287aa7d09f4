/**
 * Where a transient status line shows: in one view, never in both (issue 33: "Aside: …" showed in the tree's footer,
 * the chat's footer and a notification at once). The Notifier (operations/notifier.ts) is the one owner that
 * asks this; no vscode import, so the choice is tested on its own.
 */
import type { HostToWebview } from "../../shared/protocol.js";

/** A webview that can show the status line. */
export interface StatusView {
  /** Resolved and on screen. */
  readonly isVisible: boolean;
  post(msg: HostToWebview): void;
}

/**
 * The one view that shows a status line: the first of `views` (in order of preference: the chat, where the user
 * types, then the tree) that is on screen; none when none is (the status bar and the log still say it).
 */
export function statusView<V extends StatusView>(views: readonly V[]): V | undefined {
  return views.find((v) => v.isVisible);
}

/** Shows `text` as the status line of the one view {@link statusView} picks; true when a view took it. */
export function showStatus(views: readonly StatusView[], text: string, kind: "info" | "error"): boolean {
  const view = statusView(views);
  view?.post({ type: "status", text, kind });
  return view !== undefined;
}
