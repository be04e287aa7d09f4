/**
 * Entry point of every webview message: validate (refusals are logged, never thrown), then dispatch.
 * The `switch` ends in a `never` check so a new protocol message fails to compile until handled here.
 */
import type * as vscode from "vscode";
import type { WebviewCommand, WebviewToHost } from "../shared/protocol.js";
import type { HostActions } from "./actions.js";
import type { ArchiveActions } from "./archive-actions.js";
import type { ModelActions } from "./model-actions.js";
import type { ParallelActions } from "./parallel/parallel-actions.js";
import { validateWebviewMessage } from "./protocol-validation.js";
import type { SessionController } from "./session-controller.js";
import type { AgentWebviewView } from "./webview-view.js";

/** What the router dispatches to. */
export interface RouterDeps {
  controller: SessionController;
  actions: HostActions;
  archive: ArchiveActions;
  models: ModelActions;
  /** `/explore` and `/aside` typed in the chat. */
  parallel?: Pick<ParallelActions, "handleSlash">;
  log: vscode.LogOutputChannel;
  /** Opens the workspace's session on the first `ready`; true when it did (snapshots already went out). */
  ensureSession(): Promise<boolean>;
  /** Runs a toolbar command of a webview. */
  runCommand(command: WebviewCommand): Promise<void>;
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
    d.log.error(`Handling ${result.message.type} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
  }
}

async function dispatch(msg: WebviewToHost, view: AgentWebviewView, d: RouterDeps): Promise<void> {
  switch (msg.type) {
    case "ready":
      view.markReady();
      if (await d.ensureSession()) return;
      if (view.kind === "tree") d.controller.pushTree();
      else d.controller.chatViewLoaded();
      return;
    case "tree/navigate":
      return d.actions.navigate(msg.entryId, msg.mode ?? "ask");
    case "tree/requestText":
      return d.actions.entryText(msg.requestId, msg.entryId);
    case "tree/action":
      switch (msg.action) {
        case "label":
          return d.actions.labelEntry(msg.entryId);
        case "fork":
          return d.actions.forkAt(msg.entryId);
        case "copy":
          return d.actions.copyText(msg.entryId);
        case "summarizeSwitch":
          return d.actions.navigate(msg.entryId, "summarize");
        case "archive":
          return d.archive.toggle(msg.entryId);
        case "unarchive":
          return d.archive.unarchive(msg.entryId);
        case "delete":
          return d.archive.deletePermanently(msg.entryId);
        default: {
          const never: never = msg.action;
          return never;
        }
      }
    case "chat/submit":
      if (d.parallel?.handleSlash(msg.text)) return;
      return d.actions.submit(msg.text);
    case "chat/requestOlder":
      d.controller.pushOlderChat(msg.requestId, msg.before, msg.beforeId);
      return;
    case "chat/abort":
      return d.actions.abort();
    case "chat/approve":
      d.controller.approvals?.answer(msg.toolCallId, msg.approved, msg.always === true);
      return;
    case "chat/selectModel":
      return d.models.select(msg.key);
    case "command":
      return d.runCommand(msg.command);
    default: {
      const never: never = msg;
      return never;
    }
  }
}
