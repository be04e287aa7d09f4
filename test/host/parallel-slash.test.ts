/** `/explore` and `/aside` in the chat: rows of the one slash-command table, run instead of going to the agent. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { matchSlashCommand } from "../../src/host/chat-input/slash-commands.js";
import { slashRecorder } from "./slash-harness.js";

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
  const { calls, type } = slashRecorder();
  await type(["/aside why?", "/explore", "/explore three ways"]);
  assert.deepEqual(calls, [
    "run agentTree.askAside why?",
    "run agentTree.exploreInParallel",
    "run agentTree.exploreInParallel three ways",
  ]);
});
