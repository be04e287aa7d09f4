/** The chat input's built-in `/` commands: one table, matched on the first word, anything else sent as typed. */
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  matchSlashCommand,
  pathArgument,
  shownCommands,
  SLASH_COMMANDS,
} from "../../src/host/chat-input/slash-commands.js";
import { slashRecorder } from "./slash-harness.js";

test("the built-ins are Agent Tree's and pi's, in one table", () => {
  assert.deepEqual(
    SLASH_COMMANDS.map((c) => `/${c.name}${c.argumentHint ? ` ${c.argumentHint}` : ""}`),
    [
      "/new",
      "/fork",
      "/clone",
      "/compact [focus]",
      "/model",
      "/thinking [level]",
      "/name <title>",
      "/tree",
      "/resume",
      "/session",
      "/copy",
      "/export [path]",
      "/import <path>",
      "/explore [prompt]",
      "/aside <question>",
      "/plan [task]",
      "/settings",
      "/login [provider]",
      "/logout",
      "/mcp",
      "/reload",
      "/hotkeys",
      "/share",
      "/bug",
      "/trust",
      "/scoped-models",
      "/llama",
      "/changelog",
      "/quit",
    ],
  );
  for (const c of SLASH_COMMANDS) assert.ok(c.description.length > 0, `/${c.name} has a description`);
});

test("each runs what it names, with its arguments", async () => {
  const { calls, type } = slashRecorder();
  await type([
    "/new",
    "/fork",
    "/clone",
    "/compact keep the API notes",
    "/compact",
    "/model",
    "/thinking",
    "/thinking high",
    "/name  Release plan ",
    "/tree",
    "/resume",
    "/session",
    "/copy",
    "/export",
    "/export out/s.jsonl",
    '/export "my page.html" ignored',
    "/import ~/s.jsonl",
    "/settings",
    "/login",
    "/login anthropic",
    "/logout",
    "/mcp",
    "/reload",
    "/hotkeys",
    "/plan",
    "/plan  add a cache ",
  ]);
  assert.deepEqual(calls, [
    "run agentTree.newSession",
    "pi forkFromUserMessage",
    "pi clone",
    "run agentTree.compact keep the API notes",
    "run agentTree.compact",
    "run agentTree.selectModel",
    "run agentTree.selectThinkingLevel",
    "pi setThinkingLevel high",
    "run agentTree.renameSession Release plan",
    "tree",
    "run agentTree.openSession",
    "pi showSessionInfo",
    "pi copyLastReply",
    "run agentTree.exportHtml",
    "pi exportTo out/s.jsonl",
    "pi exportTo my page.html",
    "pi importSession ~/s.jsonl",
    "pi openSettings",
    "run agentTree.logIn",
    "pi logIn anthropic",
    "run agentTree.logOut",
    "run agentTree.showMcpServers",
    "pi reload",
    "pi openHotkeys",
    "run agentTree.togglePlanMode",
    "run agentTree.togglePlanMode add a cache",
  ]);
});

test("/import without a path says how it is used, and sends nothing", async () => {
  const { calls, type } = slashRecorder();
  await type(["/import"]);
  assert.deepEqual(calls, ["say Usage: /import <path.jsonl>"]);
});

test("pi's commands Agent Tree lacks say so, with the nearest thing, and run nothing", async () => {
  const { calls, type } = slashRecorder();
  await type(["/share", "/quit", "/bug it broke", "/trust", "/llama", "/changelog", "/scoped-models"]);
  assert.equal(calls.length, 7);
  assert.equal(
    calls[0],
    "say /share is a pi command that Agent Tree does not have; /export writes an HTML page you can share",
  );
  assert.equal(calls[2], "say /bug is a pi command that Agent Tree does not have.");
  for (const c of calls) assert.match(c, /^say \/[a-z-]+ is a pi command that Agent Tree does not have/);
  assert.deepEqual(
    SLASH_COMMANDS.filter((c) => c.absent).map((c) => c.name),
    ["share", "bug", "trust", "scoped-models", "llama", "changelog", "quit"],
  );
});

test("a prompt template of a pi command's name that Agent Tree lacks wins over it; over the others it does not", () => {
  const templates = new Set(["share", "copy"]);
  assert.equal(matchSlashCommand("/share the notes", SLASH_COMMANDS, templates), undefined);
  assert.equal(matchSlashCommand("/copy", SLASH_COMMANDS, templates)?.command.name, "copy");
  assert.equal(matchSlashCommand("/quit", SLASH_COMMANDS, templates)?.command.name, "quit");
  assert.equal(matchSlashCommand("/share")?.command.name, "share");
  const shown = shownCommands(SLASH_COMMANDS, templates).map((c) => c.name);
  assert.ok(!shown.includes("share") && shown.includes("copy") && shown.includes("quit"));
});

test("a path argument is the first word, or a quoted string, as pi reads it", () => {
  assert.equal(pathArgument(""), undefined);
  assert.equal(pathArgument("  a/b.jsonl  more"), "a/b.jsonl");
  assert.equal(pathArgument("'with space.html' x"), "with space.html");
  assert.equal(pathArgument('"unclosed'), undefined);
});

test("a /word that is no command, or text that only mentions one, is not a command", () => {
  assert.equal(matchSlashCommand("/review the API"), undefined);
  assert.equal(matchSlashCommand("/usr/bin/env is odd"), undefined);
  assert.equal(matchSlashCommand("please /new"), undefined);
  assert.equal(matchSlashCommand("/newish"), undefined);
  assert.equal(matchSlashCommand("/copying"), undefined);
});
