/** The tree view's title bar: the session's name, else its file's short id; "(read-only)" when it is. */
import * as path from "node:path";
import type { SessionManager } from "../../core/session/session-manager.js";

/** "name (read-only)" for the tree view's title bar. */
export function sessionTitle(sm: SessionManager): string {
  const name = sm.getSessionName() ?? (sm.getSessionFile() ? "" : "new session");
  const title =
    name ||
    path
      .basename(sm.getSessionFile() ?? "", ".jsonl")
      .replace(/^.*_/, "")
      .slice(0, 8);
  return sm.isReadOnly() ? `${title} (read-only)` : title;
}
