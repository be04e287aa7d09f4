/**
 * Names the session (`/name <title>` in the chat input, Agent: Rename Session…; an operation of the operations
 * table, whose guards checked the session is open and writable): pi's `session_info` entry, which the tree's title
 * and Open Session… show. Without a name the user is asked, the current one offered.
 */
import * as vscode from "vscode";
import type { SessionManager } from "../../core/session/session-manager.js";

/** Longest session name kept (a title, not a message). */
export const MAX_SESSION_NAME = 200;

/** Ask for a name when `name` is empty, write it, and call `renamed`. */
export async function renameSession(
  sm: SessionManager,
  name: string,
  renamed: (sm: SessionManager) => void,
): Promise<void> {
  let title = name.trim();
  if (!title) {
    const asked = await vscode.window.showInputBox({
      title: "Rename Session",
      prompt: "The session's name, shown in the tree's title and in Open Session…",
      value: sm.getSessionName() ?? "",
      validateInput: (v) =>
        v.trim() === ""
          ? "Enter a name"
          : v.length > MAX_SESSION_NAME
            ? `At most ${MAX_SESSION_NAME} characters`
            : undefined,
    });
    if (asked === undefined) return;
    title = asked.trim();
  }
  if (title.length > MAX_SESSION_NAME) title = title.slice(0, MAX_SESSION_NAME);
  // One line: a name is a title.
  sm.appendSessionInfo(title.replace(/\s+/g, " "));
  renamed(sm);
}
