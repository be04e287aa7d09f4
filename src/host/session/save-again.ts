/**
 * The offer made when the open session's file, or its folder, was deleted under it: everything shown is still in
 * this window, so one click writes it back where it was and the session goes on writable.
 */
import * as vscode from "vscode";
import type { SessionManager } from "../../core/session/session-manager.js";
import type { SessionController } from "./session-controller.js";
import { errorText } from "../../core/error-text.js";

/** The button that writes the session back. */
export const SAVE_AGAIN = "Save Again";

/** Show `message` with Save Again; on the click, write the session back and report how that went. */
export async function offerSaveAgain(
  sm: SessionManager,
  message: string,
  controller: Pick<SessionController, "saveAgain">,
  log: vscode.LogOutputChannel,
): Promise<void> {
  const choice = await vscode.window.showWarningMessage(message, SAVE_AGAIN);
  if (choice !== SAVE_AGAIN) return;
  try {
    await controller.saveAgain(sm);
    const saved = `Saved the session again to ${sm.getSessionFile() ?? "its file"}.`;
    log.info(saved);
    void vscode.window.showInformationMessage(saved);
  } catch (e) {
    const failed = `The session could not be saved again: ${errorText(e)}`;
    log.error(failed);
    void vscode.window.showErrorMessage(failed);
  }
}
