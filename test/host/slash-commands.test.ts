/** The chat input's built-in `/` commands: one table, matched on the first word, anything else sent as typed. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { matchSlashCommand, SLASH_COMMANDS } from "../../src/host/chat-input/slash-commands.js";
import { slashRecorder } from "./slash-harness.js";

test("the built-ins are the issue's, in one table", () => {
  assert.deepEqual(
    SLASH_COMMANDS.map((c) => `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`),
    [
      "/new",
      "/fork",
      "/compact [focus]",
      "/model",
      "/name <title>",
      "/tree",
      "/export",
      "/explore [prompt]",
      "/aside <question>",
      "/plan [task]",
    ],
  );
});

test("each runs what it names, with its arguments", async () => {
  const { calls, type } = slashRecorder();
  await type([
    "/new",
    "/fork",
    "/compact keep the API notes",
    "/compact",
    "/model",
    "/name  Release plan ",
    "/tree",
    "/export",
    "/plan",
    "/plan  add a cache ",
  ]);
  assert.deepEqual(calls, [
    "run agentTree.newSession",
    "run agentTree.forkSession",
    "run agentTree.compact keep the API notes",
    "run agentTree.compact",
    "run agentTree.selectModel",
    "run agentTree.renameSession Release plan",
    "tree",
    "run agentTree.exportHtml",
    "run agentTree.togglePlanMode",
    "run agentTree.togglePlanMode add a cache",
  ]);
});

test("a /word that is no command, or text that only mentions one, is not a command", () => {
  assert.equal(matchSlashCommand("/review the API"), undefined);
  assert.equal(matchSlashCommand("/usr/bin/env is odd"), undefined);
  assert.equal(matchSlashCommand("please /new"), undefined);
  assert.equal(matchSlashCommand("/newish"), undefined);
});
