/**
 * The two webview views' wiring (docs/architecture.md, "A click on a tree row, end to end"): their messages are
 * routed (message-router.ts) and their providers registered, last, so a view loads only once everything it reaches
 * exists. A view about to load opens the session and loads the model library meanwhile.
 */
import * as vscode from "vscode";
import { errorText } from "../../core/error-text.js";
import type { ChatInputService } from "../chat-input/chat-input-service.js";
import { WEBVIEW_COMMAND_IDS } from "../common/command-ids.js";
import type { HostServices } from "../common/services.js";
import type { ModelActions } from "../models/model-actions.js";
import type { BranchWatch } from "../parallel/branch-watch.js";
import type { EditReview } from "../review/edit-review.js";
import type { RunChangesView } from "../review/run-changes-view.js";
import type { HostActions } from "../tree/actions.js";
import { routeWebviewMessage } from "./message-router.js";
import type { AgentWebviewView } from "./webview-view.js";

/** What the views' messages reach. */
export interface ViewParts {
  actions: HostActions;
  models: ModelActions;
  chatInput: ChatInputService;
  watch: BranchWatch;
  review: { edits: EditReview; runChanges: RunChangesView };
  ensureSession(): Promise<boolean>;
}

/** Sets `s.router` and registers the tree's and the chat's view providers. */
export function createViews(s: HostServices, p: ViewParts): void {
  const { log } = s;
  const controller = s.controller.get();
  const operations = s.operations.get();
  s.router.set(
    (raw, view) =>
      void routeWebviewMessage(raw, view, {
        controller,
        actions: { entryText: (requestId, entryId) => p.actions.entryText(requestId, entryId) },
        operations,
        models: p.models,
        chatInput: p.chatInput,
        watch: p.watch,
        archived: s.views.archived,
        log,
        ensureSession: p.ensureSession,
        runCommand: async (command) => void (await vscode.commands.executeCommand(WEBVIEW_COMMAND_IDS[command])),
        openDiff: (msg) =>
          msg.toolCallId !== undefined
            ? p.review.edits.reopen(msg.toolCallId)
            : p.review.runChanges.open(msg.file ?? -1),
      }),
  );
  /**
   * A view is about to load: open the session now, while its webview loads (seconds in a browser), rather
   * than on its `ready`. A big session's index is then built by the time the view asks for it.
   */
  const provider = (view: AgentWebviewView): vscode.WebviewViewProvider => ({
    resolveWebviewView: (webviewView) => {
      view.resolveWebviewView(webviewView);
      // The model library loads meanwhile too, beside the session's file: the agent needs both.
      void controller
        .models()
        .catch((e: unknown) => log.error(`The model library could not be loaded: ${errorText(e)}`));
      void p.ensureSession();
    },
  });
  s.subscribe(
    vscode.window.registerWebviewViewProvider("agentTree.tree", provider(s.views.tree)),
    vscode.window.registerWebviewViewProvider("agentTree.chat", provider(s.views.chat)),
  );
}
