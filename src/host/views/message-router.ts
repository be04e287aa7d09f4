/**
 * Entry point of every webview message: validate (refusals are logged, never thrown), then dispatch. What acts on
 * the session — a click or key on a row, Stop, a banner's button — runs its operation of the operations table
 * (src/host/operations), guards and all; the chat's own input goes to the chat input. The `switch` ends in a `never`
 * check so a new protocol message fails to compile until handled here.
 */
import type * as vscode from "vscode";
import type { NavigateMode } from "../tree/navigate-flow.js";
import type { WatchAction, WebviewCommand, WebviewToHost } from "../../shared/protocol.js";
import type { HostActions } from "../tree/actions.js";
import type { ArchivedVisibility } from "../archive/archived-visibility.js";
import type { ChatInputService } from "../chat-input/chat-input-service.js";
import type { ModelActions } from "../models/model-actions.js";
import type { BranchWatch } from "../parallel/branch-watch.js";
import type { OperationId } from "../operations/host-operations.js";
import type { Operations } from "../operations/operations.js";
import { validateWebviewMessage } from "./protocol-validation.js";
import type { SessionController } from "../session/session-controller.js";
import type { AgentWebviewView } from "./webview-view.js";
import { errorDetail } from "../../core/error-text.js";

/** What the router dispatches to. */
export interface RouterDeps {
  controller: SessionController;
  /** The tree's hover (the whole text of an entry): reads, acts on nothing. */
  actions: Pick<HostActions, "entryText">;
  /** The operations table: a click, a row key, Stop and the banner's buttons run their operations. */
  operations: Pick<Operations, "run">;
  models: ModelActions;
  /** The chat's watch of a running parallel branch (what the chat shows; the operations watch and leave it). */
  watch: Pick<BranchWatch, "active" | "branchId" | "older" | "reset">;
  /** Completions, mentions, slash commands and templates of the chat input. */
  chatInput: ChatInputService;
  /** Whether the tree shows archived branches: the host owns the choice (archived-visibility.ts). */
  archived: Pick<ArchivedVisibility, "set">;
  log: vscode.LogOutputChannel;
  /** Opens the workspace's session on the first `ready`; true when it did (snapshots already went out). */
  ensureSession(): Promise<boolean>;
  /** Runs a toolbar command of a webview. */
  runCommand(command: WebviewCommand): Promise<void>;
  /** Opens a pending edit's diff again, or the diff of a file the last run changed. */
  openDiff(msg: Extract<WebviewToHost, { type: "chat/openDiff" }>): Promise<void>;
}

/** Validate and dispatch one raw message from `view`. */
export async function routeWebviewMessage(raw: unknown, view: AgentWebviewView, d: RouterDeps): Promise<void> {
  const result = validateWebviewMessage(raw, { hasEntry: (id) => d.controller.hasEntry(id) });
  if (!result.ok) {
    d.log.warn(`Ignored a message from the ${view.kind} view: ${result.reason}`);
    return;
  }
  try {
    await dispatch(result.message, view, d);
  } catch (e) {
    // Actions report their own failures; this is the last line of defence for the host.
    d.log.error(`Handling ${result.message.type} failed: ${errorDetail(e)}`);
  }
}

async function dispatch(msg: WebviewToHost, view: AgentWebviewView, d: RouterDeps): Promise<void> {
  switch (msg.type) {
    case "ready":
      view.markReady();
      // Text and mentions the chat input missed while the view loaded come with the rest of its state.
      if (view.kind === "chat") d.chatInput.viewReady();
      if (await d.ensureSession()) return;
      if (view.kind === "tree") d.controller.pushTree();
      else {
        // A reloaded chat shows the main branch: a watch does not outlive the view that showed it.
        d.watch.reset();
        d.controller.chatViewLoaded();
      }
      return;
    case "tree/navigate":
      return d.operations.run(NAVIGATE_OPERATIONS[msg.mode ?? "ask"], msg.entryId);
    case "tree/requestText":
      return d.actions.entryText(msg.requestId, msg.entryId);
    case "tree/showArchived":
      d.archived.set(msg.show);
      return;
    case "tree/action":
      return d.operations.run(msg.command, msg.entryId);
    case "chat/submit":
      return d.chatInput.submit(msg.text, msg.mentions, msg.images);
    case "chat/complete":
      return d.chatInput.complete(msg.requestId, msg.trigger, msg.query);
    case "chat/dropFiles":
      return d.chatInput.dropFiles(msg.uris);
    case "chat/requestOlder":
      if (d.watch.active) return d.watch.older(msg.requestId, msg.before, msg.beforeId);
      d.controller.pushOlderChat(msg.requestId, msg.before, msg.beforeId);
      return;
    case "chat/abort":
      return d.operations.run("agentTree.abort");
    case "chat/approve":
      d.controller.approvals?.answer(
        msg.toolCallId,
        msg.approved,
        msg.always === true,
        msg.allInRun === true,
        msg.inWorkspace === true,
      );
      return;
    case "chat/queue":
      return d.chatInput.submit(msg.text, msg.mentions, msg.images, msg.kind);
    case "chat/queueEdit":
      return d.controller.editQueuedMessage(msg.id, msg.text);
    case "chat/queueRemove":
      return d.controller.removeQueuedMessage(msg.id);
    case "chat/selectThinkingLevel":
      return d.models.setThinkingLevel(msg.level);
    case "chat/openDiff":
      return d.openDiff(msg);
    case "chat/selectModel":
      return d.models.select(msg.key);
    case "chat/watchAction":
      return watchAction(msg.action, d);
    case "chat/continueAside":
      return d.operations.run("agentTree.continueAsBranch", msg.asideId);
    case "command":
      await d.runCommand(msg.command);
      // The workbench does not give the focus back to a webview when its quick pick or input box closes.
      if (ASKS_IN_THE_WORKBENCH.has(msg.command)) await view.focus();
      return;
    default: {
      const never: never = msg;
      return never;
    }
  }
}

/** The toolbar commands that ask in a quick pick or an input box, and return once it closed. */
const ASKS_IN_THE_WORKBENCH: ReadonlySet<WebviewCommand> = new Set<WebviewCommand>([
  "selectModel",
  "openSession",
  "setApiKey",
  "logIn",
  "exportHtml",
]);

/**
 * The operation of a click or Enter on a row (`tree/navigate`), by how it asks about the summary: the click's own
 * (asks, or watches a running branch's row) and the two switches of the row menu.
 */
const NAVIGATE_OPERATIONS: Readonly<Record<Exclude<NavigateMode, "choose">, OperationId>> = {
  ask: "agentTree.goToEntry",
  none: "agentTree.switchHere",
  summarize: "agentTree.summarizeAndSwitchHere",
};

/** The buttons of a watched branch's banner: each runs its operation of the table. */
function watchAction(action: WatchAction, d: RouterDeps): Promise<void> | undefined {
  switch (action) {
    case "stop": {
      const id = d.watch.branchId;
      return id === undefined ? undefined : d.operations.run("agentTree.stopBranch", id);
    }
    case "back":
      return d.operations.run("agentTree.backToMyBranch");
    case "switch":
      return d.operations.run("agentTree.switchToWatchedBranch");
    default: {
      const never: never = action;
      return never;
    }
  }
}
