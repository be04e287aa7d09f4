/**
 * The session (docs/architecture.md): the controller of the one open session and its agent, built from what the
 * earlier features made; opening sessions; the public `onDidChangeSession`. The session opens when a view loads or
 * a command needs it (`ensureSession`), not at activation.
 */
import * as path from "node:path";
import * as vscode from "vscode";
import { errorText } from "../../core/error-text.js";
import { SessionInfoReader } from "../../core/session/session-info-reader.js";
import { findSandbox } from "../../core/tools/sandbox.js";
import type { CheckpointService } from "../checkpoints/checkpoint-service.js";
import type { SessionChangeEvent } from "../common/extension-api.js";
import type { HostServices } from "../common/services.js";
import {
  autoApproveSetting,
  defaultModelSetting,
  maxConcurrentSubagentsSetting,
  sandboxSettings,
} from "../common/settings.js";
import type { HookRegistry } from "../hooks/hook-registry.js";
import type { McpService } from "../mcp/mcp-service.js";
import type { ModelService } from "../models/model-service.js";
import type { BranchViews } from "../parallel/create-parallel.js";
import type { InstructionsService } from "../prompt/instructions-service.js";
import type { RunChangesView } from "../review/run-changes-view.js";
import { mainBashSandbox } from "../tools/sandbox-choice.js";
import type { ApprovalUi } from "../tools/tool-approval.js";
import type { WorkspaceToolRules } from "../tools/tool-rules.js";
import { followNotices, OtherBranchNotice } from "./follow-notice.js";
import { lockLostMessage } from "./lock-choice.js";
import { offerSaveAgain } from "./save-again.js";
import { SessionController, type ModelFailure } from "./session-controller.js";
import { SessionOpener } from "./session-opener.js";
import { sessionTitle } from "./session-title.js";

/** What the session is built from. */
export interface SessionParts {
  /** The model library. */
  library: ModelService;
  /** The checkpoint stores. */
  store: CheckpointService;
  mcp: { service: McpService };
  instructions: InstructionsService;
  hooks: { registry: HookRegistry };
  review: { runChanges: RunChangesView };
  approvals: { rules: WorkspaceToolRules; ui: ApprovalUi };
  branches: BranchViews;
}

/** The session feature's parts for the others. */
export interface Session {
  /** A model call of the current agent failed (said in the chat already; logged): for the offer of a fix. */
  onModelFailed: vscode.Event<ModelFailure>;
  controller: SessionController;
  opener: SessionOpener;
  /** Opens the workspace's session if none is open yet; true when this call opened it (snapshots went out). */
  ensureSession(): Promise<boolean>;
  /** The public API's `onDidChangeSession`. */
  onDidChangeSession: vscode.Event<SessionChangeEvent>;
}

/** Builds the controller (and sets `s.controller`), the opener and `ensureSession`. */
export function createSession(s: HostServices, p: SessionParts): Session {
  const { cwd, log } = s;
  const { tree, chat } = s.views;
  const otherBranchNotice = new OtherBranchNotice();
  const changed = new vscode.EventEmitter<SessionChangeEvent>();
  s.subscribe(changed);
  const modelFailed = new vscode.EventEmitter<ModelFailure>();
  s.subscribe(modelFailed);
  const controller: SessionController = new SessionController({
    cwd,
    checkpoints: p.store,
    toolSource: p.mcp.service.pool,
    // agentTree.subagents.maxConcurrent: read whenever a subagent waits for a slot, so a change applies at once.
    subagents: { maxConcurrent: maxConcurrentSubagentsSetting },
    // agentTree.sandbox.mainAgent: read before each command, so turning it on or off applies at once.
    commandSandbox: async () => mainBashSandbox(sandboxSettings(), await findSandbox(), cwd),
    systemPrompt: p.instructions.provider,
    onRunEnd: (sm, firstUserId) => void p.review.runChanges.runEnded(sm, firstUserId),
    models: () => p.library.load(),
    hookRegistry: p.hooks.registry,
    autoApprove: autoApproveSetting,
    defaultModelKey: defaultModelSetting,
    piDefaultModelKey: () => p.library.piDefaultModelKey(),
    compaction: () => p.library.settings().compaction,
    defaultThinkingLevel: () => p.library.settings().defaultThinkingLevel?.level,
    postTree: (m) => tree.post(m),
    postChat: p.branches.postMainChat,
    isViewReady: (kind) => (kind === "tree" ? tree : chat).isReady,
    showArchived: () => s.views.archived.shown,
    approvalRules: p.approvals.rules,
    approvalUi: p.approvals.ui,
    onStreaming: (streaming) => s.setContext("agentTree.streaming", streaming),
    onAgentChanged: (agent) => p.branches.running.attach(agent),
    onError: (message) => {
      log.error(message);
      void vscode.window.showErrorMessage(message);
    },
    onToolRefused: (message) => log.warn(message),
    onModelFailed: (failure) => {
      // The chat shows it; the log keeps it (its words never hold a key: src/core/providers/provider-error.ts).
      if (failure.errorKind !== "aborted") log.warn(`Model call failed (${failure.errorKind}): ${failure.error}`);
      modelFailed.fire(failure);
    },
    onLockLost: (sm, newHolder, reason) => {
      const message = lockLostMessage(path.basename(sm.getSessionFile() ?? ""), newHolder, reason);
      log.warn(message);
      tree.setDescription(sessionTitle(sm));
      s.setContext("agentTree.readOnly", true);
      if (reason === "file-gone") void offerSaveAgain(sm, message, controller, log);
      else void vscode.window.showWarningMessage(message);
    },
    onAppendedByOther: (sm, refresh) => {
      const file = sm.getSessionFile() ?? "";
      for (const notice of followNotices(path.basename(file), refresh)) {
        if (notice.kind === "warning") log.warn(notice.text);
        else log.info(notice.text);
        const show =
          notice.kind === "warning" ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
        const action = notice.action;
        if (!action) {
          void show(notice.text);
          continue;
        }
        // pi writing turn after turn on another branch: one notice, whose Go There goes to its newest end.
        if ("entryId" in action && !otherBranchNotice.offer(sm, action.entryId)) continue;
        const act = async (): Promise<void> => {
          const picked = await show(notice.text, action.label);
          const newest = "entryId" in action ? otherBranchNotice.settle(sm) : undefined;
          if (picked !== action.label || controller.sessionManager !== sm) return;
          // As a click on the row would: the operations table's guards, the summary question, the files.
          if ("entryId" in action) return s.operations.get().run("agentTree.goToEntry", newest ?? action.entryId);
          // Its writer lock is let go first: the file opens as any file does (a lock held elsewhere asks).
          await controller.close();
          await opener.openPath(file);
        };
        void act().catch((e: unknown) => log.error(`${action.label}: ${errorText(e)}`));
      }
    },
    onSessionChanged: (sm) => {
      // The features' listeners first (the branch watch resets, parallel branches are watched, files warm up).
      for (const listener of s.sessionListeners) listener(sm);
      tree.setDescription(sessionTitle(sm));
      // Shows "Continue in a New Session" in the tree's title bar for read-only views.
      s.setContext("agentTree.readOnly", sm.isReadOnly());
      changed.fire({
        sessionManager: sm,
        sessionId: sm.getSessionId(),
        sessionFile: sm.getSessionFile(),
        readOnly: sm.isReadOnly(),
      });
    },
  });
  s.controller.set(controller);
  s.subscribe({ dispose: () => void controller.close() });
  s.onDeactivate.push(() => controller.close());
  s.onSettingChange(["sessionDirectory"], () => {
    void vscode.window.showInformationMessage(
      "Agent Tree: the sessions folder changed. Use “Agent: Open Session…” or “Agent: New Session” to use it.",
    );
  });

  // Open Session…'s listing reads the files in a worker thread (dist/list-worker.js): the first listing of a big
  // folder takes seconds, none of them the extension host's.
  const infoReader = new SessionInfoReader({
    workerScript: vscode.Uri.joinPath(s.context.extensionUri, "dist", "list-worker.js").fsPath,
  });
  s.subscribe({ dispose: () => void infoReader.dispose() });
  const opener = new SessionOpener(controller, cwd, log, infoReader);
  let opening: Promise<void> | undefined;
  const ensureSession = async (): Promise<boolean> => {
    if (controller.sessionManager) return false;
    if (opening) {
      // The opening ends by pushing the snapshots of every ready view (the caller's too, if it waits for
      // `ready`): pushing them again would send a big session's tree twice.
      await opening;
      return controller.sessionManager !== undefined;
    }
    opening = opener.openRecentOrNew().finally(() => (opening = undefined));
    await opening;
    return true;
  };
  return {
    controller,
    opener,
    ensureSession,
    onDidChangeSession: changed.event,
    onModelFailed: modelFailed.event,
  };
}
