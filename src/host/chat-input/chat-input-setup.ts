/** Builds the chat input's host side from the extension's parts (one call in extension.ts). */
import * as vscode from "vscode";
import type { InstructionLoader } from "../../core/prompt/instruction-loader.js";
import { expandSkillCommand } from "../../core/prompt/skill-command.js";
import type { SessionManager } from "../../core/session/session-manager.js";
import type { HostActions } from "../tree/actions.js";
import type { Notify } from "../common/notifier.js";
import type { Operations } from "../operations/operations.js";
import type { SessionController } from "../session/session-controller.js";
import { enterWhileRunningSetting } from "../common/settings.js";
import type { AgentWebviewView } from "../views/webview-view.js";
import { ChatCompletions } from "./chat-completions.js";
import type { ChatInputHandoff } from "./chat-input-handoff.js";
import { ChatInputService } from "./chat-input-service.js";
import { renameSession } from "./session-rename.js";
import { slashCommandContext } from "./slash-commands.js";

/** What the chat input needs from the extension. */
export interface ChatInputSetupDeps {
  controller: SessionController;
  /** Sending a prompt (the chat's own way in; no operation). */
  actions: Pick<HostActions, "submit">;
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
  /** The operations table: the slash commands that act on the session run through it (built after the chat input). */
  operations(): Pick<Operations, "spec" | "run">;
}

/** The service, the rename operation's action, and what to dispose. */
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
    renameSession(d.controller.requireSession().sm, name, (sm) => {
      d.onRenamed(sm);
      d.controller.pushTree();
      d.notify.status(`Session named “${sm.getSessionName() ?? ""}”.`);
    });
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
    slash: slashCommandContext({
      operations: {
        spec: (id) => d.operations().spec(id),
        run: (id, entryId, input) => d.operations().run(id, entryId, input),
      },
      executeCommand: async (id, input) =>
        void (await vscode.commands.executeCommand(id, ...(input !== undefined ? [input] : []))),
      focusTree: async () => void (await vscode.commands.executeCommand("agentTree.tree.focus")),
    }),
  });
  return { service, renameSession: rename, disposables: [completions] };
}
