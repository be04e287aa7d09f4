/**
 * Files follow the tree (docs/checkpoints.md), in two steps: the checkpoint stores, which the session needs to be
 * built, and the file actions (restores, Show Changes, their documents), which act on the session once it is.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import type { HostServices } from "../common/services.js";
import { checkpointMaxFileBytes } from "../common/settings.js";
import { CheckpointActions } from "./checkpoint-actions.js";
import { CheckpointService, checkpointFolders } from "./checkpoint-service.js";

/** One set of stores for the workspace's folders, opened on first need (warmed up when a writable session opens). */
export function createCheckpointStore(s: HostServices): CheckpointService {
  const storage = s.context.globalStorageUri;
  const service = new CheckpointService({
    folders: () =>
      checkpointFolders(
        (vscode.workspace.workspaceFolders ?? []).map((f) => ({
          scheme: f.uri.scheme,
          path: f.uri.scheme === "file" ? f.uri.fsPath : f.uri.toString(),
        })),
      ),
    storageDir: storage.scheme === "file" ? path.join(storage.fsPath, "checkpoints") : undefined,
    maxFileBytes: checkpointMaxFileBytes,
    onUnavailable: (message) => void vscode.window.showWarningMessage(message),
    log: (message) => s.log.info(message),
  });
  s.sessionListeners.push((sm) => {
    if (!sm.isReadOnly()) service.warmUp();
  });
  s.onSettingChange(["checkpoints.maxFileSizeMB"], () => service.reset());
  s.subscribe(vscode.workspace.onDidChangeWorkspaceFolders(() => service.reset()));
  return service;
}

/** Restore Files to This Point, Undo File Restore, Show Changes, the files of a move; their read-only documents. */
export function createCheckpoints(s: HostServices, service: CheckpointService): CheckpointActions {
  const files = new CheckpointActions({ controller: s.controller.get(), service, notify: s.notify, lock: s.filesLock });
  s.subscribe(files.registerDocuments());
  return files;
}
