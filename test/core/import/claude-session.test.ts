import assert from "node:assert/strict";
import { copyFile, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { AssistantMessage, ToolResultMessage } from "../../../src/core/messages.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { claudeProjectDirNames, listClaudeTranscripts } from "../../../src/core/import/claude-paths.js";
import {
  claudeTranscriptPathOf,
  convertClaudePathToSession,
  importClaudeTranscript,
  openClaudeTranscript,
} from "../../../src/core/import/claude-session.js";
import { listAllSessions, listPiSessionFolders } from "../../../src/core/import/session-sources.js";
import { BRANCHING_TOOLS_LEAF_ROLES, FIXTURES } from "./claude-fixtures.js";
import { tempDir } from "../../util/temp-dir.js";

let tmp: string;

before(async () => {
  tmp = tempDir("agent-tree-claude-test-").dir;
});
after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

test("openClaudeTranscript gives a read-only tree resuming where Claude Code would", async () => {
  const { session, issues, title, idByUuid } = await importClaudeTranscript(join(FIXTURES, "branching-tools.jsonl"), {
    tempDir: join(tmp, "views"),
  });
  try {
    assert.equal(session.isReadOnly(), true);
    assert.equal(claudeTranscriptPathOf(session), join(FIXTURES, "branching-tools.jsonl"));
    assert.equal(claudeTranscriptPathOf(SessionManager.inMemory("/x")), undefined);
    assert.equal(title, "Fix due-date sorting in todo list");
    assert.equal(session.getSessionName(), "Fix due-date sorting in todo list");
    assert.equal(session.getLeafId(), idByUuid.get("a0000000-0000-4000-8000-00000000000e"));
    assert.equal(session.getLabel(session.getLeafId() ?? ""), "Fix due-date sorting in todo list");
    assert.equal(session.getHeader().cwd, "/home/dev/projects/todo-app");
    assert.ok(issues.some((i) => i.line === 11));
    const editResult = idByUuid.get("u0000000-0000-4000-8000-000000000004") ?? "";
    assert.equal(session.getChildren(editResult).filter((e) => e.type === "message").length, 2);
    const ctx = session.buildSessionContext();
    assert.equal(ctx.messages[0].role, "custom");
    assert.equal(ctx.messages[ctx.messages.length - 1].role, "assistant");
    assert.throws(() => session.appendSessionInfo("x"));
    // Ids are stable: opening again gives the same ids.
    const again = await openClaudeTranscript(join(FIXTURES, "branching-tools.jsonl"), { tempDir: join(tmp, "views") });
    assert.equal(again.getLeafId(), session.getLeafId());
    await again.close();
  } finally {
    await session.close();
  }
});

test("a transcript with no messages is a clear error", async () => {
  const empty = join(tmp, "empty.jsonl");
  await writeFile(empty, "garbage\n");
  await assert.rejects(openClaudeTranscript(empty, { tempDir: join(tmp, "views") }), /No Claude Code messages.*line 1/);
  await assert.rejects(openClaudeTranscript(join(tmp, "missing.jsonl")), /file not found/);
});

test("convertClaudePathToSession writes the chosen path as a v3 session with pi's tool names", async () => {
  const dir = join(tmp, "sessions");
  const transcript = join(FIXTURES, "branching-tools.jsonl");
  // The other branch: ends after Glob, which goes through the edit and has no Bash call.
  const file = await convertClaudePathToSession(transcript, "a0000000-0000-4000-8000-00000000000e", "/ws", dir);
  const header = JSON.parse((await readFile(file, "utf8")).split("\n")[0]) as { version: number; cwd: string };
  assert.equal(header.version, 3);
  assert.equal(header.cwd, "/ws");
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const ctx = sm.buildSessionContext();
    const roles = ctx.messages.map((m) => m.role);
    assert.deepEqual(roles, ["custom", ...BRANCHING_TOOLS_LEAF_ROLES]);
    const firstCall = (ctx.messages[2] as AssistantMessage).content.find((c) => c.type === "toolCall");
    assert.ok(firstCall && firstCall.type === "toolCall");
    assert.equal(firstCall.name, "read");
    assert.deepEqual(firstCall.arguments, { path: "/home/dev/projects/todo-app/src/sort.ts" });
    const edit = (ctx.messages[4] as AssistantMessage).content.find((c) => c.type === "toolCall");
    assert.ok(edit && edit.type === "toolCall");
    assert.deepEqual(edit.arguments, {
      path: "/home/dev/projects/todo-app/src/sort.ts",
      oldText: "a.title.localeCompare(b.title)",
      newText: "a.due.getTime() - b.due.getTime()",
    });
    assert.equal((ctx.messages[8] as ToolResultMessage).toolName, "find");
    assert.equal(sm.getSessionName(), "Fix due-date sorting in todo list");
    assert.equal(sm.getLabel(sm.getLeafId() ?? ""), "Fix due-date sorting in todo list");
    assert.equal(sm.getLoadIssues().length, 0);
  } finally {
    await sm.close();
  }
});

test("continuing from an entry id of the opened view, dangling tool calls get error results", async () => {
  const transcript = join(FIXTURES, "sidechain-task.jsonl");
  const view = await importClaudeTranscript(transcript, { tempDir: join(tmp, "views") });
  const taskCallId = view.idByUuid.get("b0000000-0000-4000-8000-000000000002") ?? "";
  await view.session.close();
  const file = await convertClaudePathToSession(transcript, taskCallId, "/ws", join(tmp, "sessions2"));
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const msgs = sm.buildSessionContext().messages;
    const last = msgs[msgs.length - 1] as ToolResultMessage;
    assert.equal(last.role, "toolResult");
    assert.equal(last.isError, true);
    assert.equal(last.toolCallId, "toolu_01TaskSearch");
    assert.match(JSON.stringify(last.content), /No result was recorded/);
  } finally {
    await sm.close();
  }
  await assert.rejects(convertClaudePathToSession(transcript, "nope", "/ws", join(tmp, "s3")), /not an entry/);
});

test("a continued compacted transcript gives the model only the summary and what follows", async () => {
  const file = await convertClaudePathToSession(
    join(FIXTURES, "compacted.jsonl"),
    "e0000000-0000-4000-8000-000000000009",
    "/ws",
    join(tmp, "sessions4"),
  );
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const msgs = sm.buildSessionContext().messages;
    assert.deepEqual(
      msgs.map((m) => m.role),
      ["compactionSummary", "user", "assistant"],
    );
    assert.match(JSON.stringify(msgs[0]), /pagination on GET \/items/);
    // The history before the compaction is still in the file.
    assert.ok(sm.getEntries().filter((e) => e.type === "message").length >= 6);
    // Keeping nothing is written as pi 1.5 writes it: the compaction names itself.
    const compaction = sm.getEntries().find((e) => e.type === "compaction");
    assert.equal(compaction?.type === "compaction" && compaction.firstKeptEntryId, compaction?.id);
  } finally {
    await sm.close();
  }
});

test("listClaudeTranscripts and listAllSessions find transcripts of the workspace", async () => {
  const cwd = "/home/dev/projects/todo-app";
  const claudeDir = join(tmp, "claude");
  const project = join(claudeDir, "projects", claudeProjectDirNames(cwd)[0]);
  assert.equal(claudeProjectDirNames(cwd)[0], "-home-dev-projects-todo-app");
  await mkdir(project, { recursive: true });
  await copyFile(join(FIXTURES, "branching-tools.jsonl"), join(project, "3f6b2c1e-8d4a-4f0b-9c2e-5a7d1e9b0c44.jsonl"));
  await copyFile(join(FIXTURES, "sidechain-task.jsonl"), join(project, "9a1d7c55-2b3e-4c8f-a1d2-6e7f8a9b0c1d.jsonl"));
  await writeFile(join(project, "notes.txt"), "ignored");
  await writeFile(
    join(project, "copied-summary.jsonl"),
    '{"type":"summary","summary":"Some older session","leafUuid":"elsewhere"}\n' +
      '{"parentUuid":null,"type":"user","message":{"role":"user","content":"new topic"},"uuid":"n1","timestamp":"2025-01-01T00:00:00Z"}\n',
  );
  const list = await listClaudeTranscripts(cwd, claudeDir);
  assert.equal(list.length, 3);
  const copied = list.find((t) => t.id === "copied-summary");
  assert.equal(copied?.name, undefined, "a summary of another session is not this one's title");
  assert.equal(copied?.firstMessage, "new topic");
  const bt = list.find((t) => t.id === "3f6b2c1e-8d4a-4f0b-9c2e-5a7d1e9b0c44");
  assert.ok(bt);
  assert.equal(bt.name, "Fix due-date sorting in todo list");
  assert.match(bt.firstMessage, /^The todo list sorts by title/);
  assert.equal(bt.cwd, cwd);
  assert.ok(bt.messageCount >= 20);
  assert.deepEqual(await listClaudeTranscripts("/nowhere", claudeDir), []);

  const agentDir = join(tmp, "pi-agent");
  const own = join(tmp, "own-sessions");
  const sm = await SessionManager.create(cwd, own);
  sm.appendMessage({ role: "user", content: "hello", timestamp: Date.now() });
  await sm.close();
  const piSm = await SessionManager.create(cwd, join(agentDir, "sessions", "--home-dev-projects-todo-app--"));
  piSm.appendMessage({ role: "user", content: "from pi", timestamp: Date.now() });
  await piSm.close();
  const all = await listAllSessions(cwd, { sessionDir: own, agentDir, claudeDir });
  assert.deepEqual(all.map((s) => s.source).sort(), ["claude", "claude", "claude", "pi", "workspace"]);
  const folders = await listPiSessionFolders(agentDir);
  assert.deepEqual(
    folders.map((f) => f.cwdGuess),
    ["/home/dev/projects/todo/app"],
  );
});
