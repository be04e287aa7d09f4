/** What the slash-command tests type into: a context that records what the commands run, and the typing itself. */
import assert from "node:assert/strict";
import {
  matchSlashCommand,
  type PiCommandActions,
  type SlashCommandContext,
} from "../../src/host/chat-input/slash-commands.js";

/** pi's actions, each recording `pi <method>[ <argument>]` into `calls`. */
export function recordingPi(calls: string[]): PiCommandActions {
  const rec =
    (name: string) =>
    async (arg?: string): Promise<void> =>
      void calls.push(`pi ${name}${arg ? ` ${arg}` : ""}`);
  return {
    copyLastReply: rec("copyLastReply"),
    showSessionInfo: rec("showSessionInfo"),
    clone: rec("clone"),
    forkFromUserMessage: rec("forkFromUserMessage"),
    exportTo: rec("exportTo"),
    importSession: rec("importSession"),
    reload: rec("reload"),
    setThinkingLevel: rec("setThinkingLevel"),
    logIn: rec("logIn"),
    openSettings: rec("openSettings"),
    openHotkeys: rec("openHotkeys"),
    say: (text) => void calls.push(`say ${text}`),
  };
}

/**
 * A context recording each command run as `run <id>[ <text>]` (and a focus of the tree as `tree`), and `type`, which
 * runs each text through the table as the chat input does (every text must be a slash command).
 */
export function slashRecorder(): { calls: string[]; ctx: SlashCommandContext; type(texts: string[]): Promise<void> } {
  const calls: string[] = [];
  const ctx: SlashCommandContext = {
    runCommand: async (id, input) => void calls.push(`run ${id}${input ? ` ${input}` : ""}`),
    focusTree: async () => void calls.push("tree"),
    pi: recordingPi(calls),
  };
  const type = async (texts: string[]): Promise<void> => {
    for (const text of texts) {
      const m = matchSlashCommand(text);
      assert.ok(m, text);
      await m.command.run(m.args, ctx);
    }
  };
  return { calls, ctx, type };
}
