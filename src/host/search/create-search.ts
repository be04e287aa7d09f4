/** Search Sessions (docs/search.md): every session of the workspace, searched in a worker. */
import * as vscode from "vscode";
import type { HostServices } from "../common/services.js";
import type { SessionOpener } from "../session/session-opener.js";
import { SessionSearchUi } from "./session-search-ui.js";

/** The search's quick pick; a hit opens its session through the opener. */
export function createSearch(s: HostServices, opener: SessionOpener): SessionSearchUi {
  const workerScript = vscode.Uri.joinPath(s.context.extensionUri, "dist", "search-worker.js").fsPath;
  const search = new SessionSearchUi({
    cwd: s.cwd,
    controller: s.controller.get(),
    opener,
    tree: s.views.tree,
    log: s.log,
    workerScript,
  });
  s.subscribe(search);
  return search;
}
