/** Hooks (docs/extension-api.md): the registry the API and every session share, and the workspace's hook files. */
import * as vscode from "vscode";
import type { HostServices } from "../common/services.js";
import { loadWorkspaceHooksSetting } from "../common/settings.js";
import { HookRegistry } from "./hook-registry.js";
import { loadWorkspaceHooks } from "./workspace-hooks.js";

/**
 * The registry, and `load`, which loads the workspace's hooks in the background (when the setting and the
 * workspace's trust allow): activation calls it last, and it runs again when the workspace becomes trusted.
 */
export function createHooks(s: HostServices): { registry: HookRegistry; load(): void } {
  const registry = new HookRegistry();
  const load = async (): Promise<void> => {
    if (!loadWorkspaceHooksSetting()) return;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      const report = await loadWorkspaceHooks(folder.uri.fsPath, registry.api, vscode.workspace.isTrusted);
      if (report.skipped) s.log.info(`Workspace hooks in ${folder.name} not loaded: ${report.skipped}`);
      for (const f of report.loaded) s.log.info(`Loaded hook ${f}`);
      for (const f of report.failed) {
        s.log.error(`Hook ${f.file} failed: ${f.error}`);
        void vscode.window.showErrorMessage(`Agent Tree hook ${f.file} failed: ${f.error}`);
      }
    }
  };
  s.subscribe(vscode.workspace.onDidGrantWorkspaceTrust(() => void load()));
  return { registry, load: () => void load() };
}
