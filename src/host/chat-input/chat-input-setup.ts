/** The chat input's host side (docs/chat.md): completions, mentions, slash commands, templates, images. */
import * as vscode from "vscode";
import type { InstructionLoader } from "../../core/prompt/instruction-loader.js";
import { expandSkillCommand } from "../../core/prompt/skill-command.js";
import type { HostActions } from "../tree/actions.js";
import type { HostServices } from "../common/services.js";
import { sessionTitle } from "../session/session-title.js";
import { enterWhileRunningSetting } from "../common/settings.js";
import { ChatCompletions } from "./chat-completions.js";
import { ChatInputService } from "./chat-input-service.js";
import { renameSession } from "./session-rename.js";
import { PiCommands } from "./pi-commands.js";
import { vscodePiCommandUi } from "./pi-commands-ui.js";
import { slashCommandContext } from "./slash-commands.js";
import type { ModelActions } from "../models/model-actions.js";
import type { SessionOpener } from "../session/session-opener.js";

/** What the chat input needs from the other features. */
export interface ChatInputParts {
  /** Sending a prompt (the chat's own way in; no operation). */
  actions: Pick<HostActions, "submit">;
  /** The workspace's instructions: `/skill:name` expands its skills, and the `/` list offers them. */
  instructions: InstructionLoader;
  /** pi's commands: `/import` opens through it. */
  opener: Pick<SessionOpener, "openPath" | "sessionDir"> & Partial<Pick<SessionOpener, "infoReader">>;
  /** `/thinking <level>`, `/login <provider>`. */
  models: Pick<ModelActions, "setThinkingLevel" | "credentials">;
}

/**
 * The service and the rename operation's action. The slash commands that act on the session run
 * through the operations table (built after the chat input: read when a command runs).
 */
export function createChatInput(
  s: HostServices,
  p: ChatInputParts,
): {
  service: ChatInputService;
  renameSession: (name?: string) => Promise<void>;
} {
  const controller = s.controller.get();
  const { chat, tree, input: handoff } = s.views;
  const completions = new ChatCompletions(
    s.log,
    (text, kind) => chat.post({ type: "status", text, kind }),
    undefined,
    async () => (await p.instructions.load()).skills,
  );
  const rename = (name = ""): Promise<void> =>
    renameSession(controller.requireSession().sm, name, (sm) => {
      tree.setDescription(sessionTitle(sm));
      controller.pushTree();
      s.notify.status(`Session named “${sm.getSessionName() ?? ""}”.`);
    });
  const ui = vscodePiCommandUi();
  s.subscribe(ui.register());
  const pi = new PiCommands({
    ...ui,
    controller,
    opener: p.opener,
    notify: s.notify,
    runOperation: (id, entryId, input) => s.operations.get().run(id, entryId, input),
    credentials: p.models.credentials,
    models: p.models,
    instructions: p.instructions,
    reloadTemplates: () => completions.reloadTemplates(),
    folder: () => s.folderPath,
    extensionId: s.context.extension.id,
  });
  const service = new ChatInputService({
    completions,
    postChat: (m) => chat.post(m),
    enterWhileRunning: enterWhileRunningSetting,
    runCommand: (command) => controller.runUserCommand(command),
    expandSkill: (text) => expandSkillCommand(text, p.instructions),
    input: handoff,
    revealChat: () => chat.reveal(),
    send: (text, content) => p.actions.submit(text, content),
    queue: (kind, text, content) => controller.queueMessage(kind, text, content, () => p.actions.submit(text, content)),
    error: (what, e) => s.notify.error(what, e),
    currentModel: () => controller.agent?.getModel(),
    workspaceRoots: () =>
      (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === "file").map((f) => f.uri.fsPath),
    slash: slashCommandContext({
      operations: {
        spec: (id) => s.operations.get().spec(id),
        run: (id, entryId, text) => s.operations.get().run(id, entryId, text),
      },
      executeCommand: async (id, input) =>
        void (await vscode.commands.executeCommand(id, ...(input !== undefined ? [input] : []))),
      focusTree: async () => void (await vscode.commands.executeCommand("agentTree.tree.focus")),
      pi,
    }),
  });
  s.subscribe(completions);
  s.onSettingChange(["chat.enterWhileRunning"], () => service.settingsChanged());
  return { service, renameSession: rename };
}
