/**
 * The tree view's title bar: the session's name, else its file's short id; "(fork)" while the name is the one a fork
 * copied from its parent (pi copies it, and shows the fork under its parent in /resume; Open Session… says "fork
 * of …"), so the fork is not taken for its parent; "(read-only)" when it is.
 */
import * as path from "node:path";
import type { SessionManager } from "../../core/session/session-manager.js";

/** "name", "name (fork)", "name (fork, read-only)" for the tree view's title bar. */
export function sessionTitle(sm: SessionManager): string {
  const name = sm.getSessionName() ?? (sm.getSessionFile() ? "" : "new session");
  const title =
    name ||
    path
      .basename(sm.getSessionFile() ?? "", ".jsonl")
      .replace(/^.*_/, "")
      .slice(0, 8);
  const marks = [sm.isSessionNameInherited() ? "fork" : "", sm.isReadOnly() ? "read-only" : ""].filter((m) => m !== "");
  return marks.length > 0 ? `${title} (${marks.join(", ")})` : title;
}
