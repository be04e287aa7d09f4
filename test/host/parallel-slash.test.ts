/** `/explore` and `/aside` in the chat: rows of the one slash-command table, run instead of going to the agent. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { matchSlashCommand, type SlashCommandContext } from "../../src/host/chat-input/slash-commands.js";

test("parses /explore and /aside with their text, and nothing else", () => {
  const at = (text: string): [string, string] | undefined => {
    const m = matchSlashCommand(text);
    return m ? [m.command.name, m.args] : undefined;
  };
  assert.deepEqual(at("/aside what is X?"), ["aside", "what is X?"]);
  assert.deepEqual(at("  /explore  try\nthree ways "), ["explore", "try\nthree ways"]);
  assert.deepEqual(at("/explore"), ["explore", ""]);
  assert.equal(at("/explorer x"), undefined);
  assert.equal(at("please /aside x"), undefined);
});

test("running them runs Explore in Parallel and Ask Aside with the text after the command", async () => {
  const calls: string[] = [];
  const ctx: SlashCommandContext = {
    runCommand: async (id, input) => void calls.push(`${id}:${input || "(ask)"}`),
    focusTree: async () => void calls.push("tree"),
  };
  for (const text of ["/aside why?", "/explore", "/explore three ways"]) {
    const m = matchSlashCommand(text);
    assert.ok(m, text);
    await m.command.run(m.args, ctx);
  }
  assert.deepEqual(calls, [
    "agentTree.askAside:why?",
    "agentTree.exploreInParallel:(ask)",
    "agentTree.exploreInParallel:three ways",
  ]);
});
