/** What the slash-command tests type into: a context that records what the commands run, and the typing itself. */
import assert from "node:assert/strict";
import { matchSlashCommand, type SlashCommandContext } from "../../src/host/chat-input/slash-commands.js";

/**
 * A context recording each command run as `run <id>[ <text>]` (and a focus of the tree as `tree`), and `type`, which
 * runs each text through the table as the chat input does (every text must be a slash command).
 */
export function slashRecorder(): { calls: string[]; ctx: SlashCommandContext; type(texts: string[]): Promise<void> } {
  const calls: string[] = [];
  const ctx: SlashCommandContext = {
    runCommand: async (id, input) => void calls.push(`run ${id}${input ? ` ${input}` : ""}`),
    focusTree: async () => void calls.push("tree"),
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
