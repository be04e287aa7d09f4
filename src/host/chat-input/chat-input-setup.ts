/** Builds the chat input's host side from the extension's parts (one call in extension.ts). */
import * as vscode from "vscode";
import type { InstructionLoader } from "../../core/prompt/instruction-loader.js";
import { expandSkillCommand } from "../../core/prompt/skill-command.js";
import type { SessionManager } from "../../core/session/session-manager.js";
import type { HostActions } from "../actions.js";
import type { Notify } from "../operations/operation-guards.js";
import type { ParallelActions } from "../parallel/parallel-actions.js";
import type { SessionController } from "../session-controller.js";
import { enterWhileRunningSetting } from "../settings.js";
import type { AgentWebviewView } from "../webview-view.js";
import { ChatCompletions } from "./chat-completions.js";
import type { ChatInputHandoff } from "./chat-input-handoff.js";
import { ChatInputService } from "./chat-input-service.js";
import { renameSession } from "./session-rename.js";

/** What the chat input needs from the extension. */
export interface ChatInputSetupDeps {
  controller: SessionController;
  actions: HostActions;
  /** How the chat input reports (the one notifier). */
  notify: Pick<Notify, "status" | "error">;
  tree: AgentWebviewView;
  chat: AgentWebviewView;
  /** The chat input's text and mentions from the host (shared with HostActions: a fork's user message). */
  input: ChatInputHandoff;
  log: vscode.LogOutputChannel;
  /** After a rename: the tree's title shows the new name. */
  onRenamed(sm: SessionManager): void;
  /** The workspace's instructions: `/skill:name` expands its skills, and the `/` list offers them. */
  instructions: InstructionLoader;
  /** `/explore` and `/aside` (built after the chat input, so asked for when typed). */
  parallel(): Pick<ParallelActions, "explore" | "askAside"> | undefined;
}

/** The service, the rename command, and what to dispose. */
export function setUpChatInput(d: ChatInputSetupDeps): {
  service: ChatInputService;
  renameSession: (name?: string) => Promise<void>;
  disposables: vscode.Disposable[];
} {
  const completions = new ChatCompletions(
    d.log,
    (text, kind) => d.chat.post({ type: "status", text, kind }),
    undefined,
    async () => (await d.instructions.load()).skills,
  );
  const rename = (name = ""): Promise<void> =>
    renameSession(
      d.controller.sessionManager,
      name,
      (sm) => {
        d.onRenamed(sm);
        d.controller.pushTree();
        d.notify.status(`Session named “${sm.getSessionName() ?? ""}”.`);
      },
      () => d.controller.readOnlyReason(),
    );
  const service = new ChatInputService({
    completions,
    postChat: (m) => d.chat.post(m),
    enterWhileRunning: enterWhileRunningSetting,
    runCommand: (command) => d.controller.runUserCommand(command),
    expandSkill: (text) => expandSkillCommand(text, d.instructions),
    input: d.input,
    revealChat: () => d.chat.reveal(),
    send: (text, content) => d.actions.submit(text, content),
    queue: (kind, text, content) =>
      d.controller.queueMessage(kind, text, content, () => d.actions.submit(text, content)),
    error: (what, e) => d.notify.error(what, e),
    currentModel: () => d.controller.agent?.getModel(),
    workspaceRoots: () =>
      (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath),
    slash: {
      runCommand: async (id) => void (await vscode.commands.executeCommand(id)),
      compact: (focus) => d.actions.compact(focus),
      rename,
      focusTree: async () => void (await vscode.commands.executeCommand("agentTree.tree.focus")),
      explore: async (prompt) => d.parallel()?.explore(undefined, prompt),
      askAside: async (question) => d.parallel()?.askAside(question),
    },
  });
  return { service, renameSession: rename, disposables: [completions] };
}
