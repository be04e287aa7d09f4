import assert from "node:assert/strict";
import { join } from "node:path";
import { test } from "node:test";
import type { AssistantMessage, ToolResultMessage, UserMessage } from "../../../src/core/messages.js";
import type { SessionEntry, SessionMessageEntry } from "../../../src/core/session/types.js";
import { convertClaudeRecords } from "../../../src/core/import/claude-convert.js";
import { parseClaudeFile, parseClaudeText } from "../../../src/core/import/claude-parse.js";
import { mapClaudeToolCall } from "../../../src/core/import/claude-tools.js";
import { BRANCHING_TOOLS_LEAF_ROLES, FIXTURES } from "./claude-fixtures.js";

async function load(name: string, mapTools = false) {
  const parsed = await parseClaudeFile(join(FIXTURES, name));
  return convertClaudeRecords(parsed.records, parsed.issues, { mapTools });
}

function byId(entries: SessionEntry[]): Map<string, SessionEntry> {
  return new Map(entries.map((e) => [e.id, e]));
}

function pathTo(entries: SessionEntry[], leafId: string): SessionEntry[] {
  const map = byId(entries);
  const out: SessionEntry[] = [];
  let cur = map.get(leafId);
  for (let i = 0; cur && i < entries.length; i++) {
    out.unshift(cur);
    cur = cur.parentId ? map.get(cur.parentId) : undefined;
  }
  return out;
}

function msg(e: SessionEntry | undefined): SessionMessageEntry["message"] {
  assert.ok(e && e.type === "message", `expected a message entry, got ${e?.type}`);
  return (e as SessionMessageEntry).message;
}

test("split assistant lines sharing message.id merge into one message", async () => {
  const t = await load("branching-tools.jsonl");
  const first = t.idByUuid.get("a0000000-0000-4000-8000-000000000001");
  assert.ok(first);
  // All three parts map to the same entry.
  assert.equal(t.idByUuid.get("a0000000-0000-4000-8000-000000000002"), first);
  assert.equal(t.idByUuid.get("a0000000-0000-4000-8000-000000000003"), first);
  const m = msg(byId(t.entries).get(first)) as AssistantMessage;
  assert.deepEqual(
    m.content.map((c) => c.type),
    ["thinking", "text", "toolCall"],
  );
  assert.equal(m.stopReason, "toolUse");
  assert.equal(m.usage.output, 112, "usage comes from the last part");
  assert.equal(m.model, "claude-sonnet-4-20250514");
  const thinking = m.content[0];
  assert.ok(thinking.type === "thinking" && thinking.thinkingSignature === "EqQBCkYIBRABGAIiQL0sig");
});

test("tool_result blocks become toolResult messages with the tool's name; errors kept", async () => {
  const t = await load("branching-tools.jsonl");
  const results = t.entries
    .filter((e): e is SessionMessageEntry => e.type === "message" && e.message.role === "toolResult")
    .map((e) => e.message as ToolResultMessage);
  assert.deepEqual(
    results.map((r) => r.toolName),
    ["Read", "Edit", "Bash", "Grep", "Glob"],
  );
  const bash = results.find((r) => r.toolName === "Bash");
  assert.equal(bash?.isError, true);
  assert.match(bash?.content[0].type === "text" ? bash.content[0].text : "", /TypeError/);
  const glob = results.find((r) => r.toolName === "Glob");
  assert.match(glob?.content[0].type === "text" ? glob.content[0].text : "", /parse\.test\.ts/);
});

test("branching via parentUuid gives two children; leaf, title and corrupt line reported", async () => {
  const t = await load("branching-tools.jsonl");
  const editResult = t.idByUuid.get("u0000000-0000-4000-8000-000000000004");
  assert.ok(editResult);
  const children = t.entries.filter((e) => e.parentId === editResult && e.type === "message");
  assert.equal(children.length, 2, "the Bash reply and the edited follow-up both hang off the edit result");
  assert.equal(t.leafId, t.idByUuid.get("a0000000-0000-4000-8000-00000000000e"));
  assert.equal(t.title, "Fix due-date sorting in todo list");
  const label = t.entries.find((e) => e.type === "label");
  assert.ok(label && label.type === "label" && label.targetId === t.leafId);
  assert.ok(
    t.issues.some((i) => i.line === 11 && /invalid JSON/.test(i.reason)),
    JSON.stringify(t.issues),
  );
  // The meta line is a hidden custom message at the root; the real prompt hangs off it.
  const root = t.entries.find((e) => e.parentId === null);
  assert.equal(root?.type, "custom_message");
  const path = pathTo(t.entries, t.leafId ?? "");
  const texts = path.filter((e) => e.type === "message").map((e) => msg(e).role);
  assert.deepEqual(texts, BRANCHING_TOOLS_LEAF_ROLES);
  // Every parent precedes its child, so the entries can be appended in order.
  const seen = new Set<string>();
  for (const e of t.entries) {
    if (e.parentId) assert.ok(seen.has(e.parentId), `${e.id} before its parent`);
    seen.add(e.id);
  }
});

test("sidechain hangs off the Task call and is labelled; API errors are failed messages", async () => {
  const t = await load("sidechain-task.jsonl");
  const taskCall = t.idByUuid.get("b0000000-0000-4000-8000-000000000002");
  const sideRoot = t.idByUuid.get("c0000000-0000-4000-8000-000000000001");
  assert.ok(taskCall && sideRoot);
  const entries = byId(t.entries);
  assert.equal(entries.get(sideRoot)?.parentId, taskCall);
  assert.deepEqual(t.sidechainRootIds, [sideRoot]);
  const label = t.entries.find((e) => e.type === "label" && e.targetId === sideRoot);
  assert.ok(label && label.type === "label" && label.label === "sidechain: Search env var usage");
  // The leaf is on the main chain, not in the sidechain written before it.
  const leafPath = pathTo(t.entries, t.leafId ?? "");
  assert.ok(!leafPath.some((e) => e.id === sideRoot));
  const err = msg(entries.get(t.idByUuid.get("b0000000-0000-4000-8000-000000000006") ?? "")) as AssistantMessage;
  assert.equal(err.stopReason, "error");
  assert.match(err.errorMessage ?? "", /overloaded/i);
  // A user line with a rejected tool result and text gives a toolResult then a user message.
  const last = leafPath.slice(-2).map((e) => msg(e));
  assert.equal(last[0].role, "toolResult");
  assert.equal((last[0] as ToolResultMessage).isError, true);
  assert.equal(last[1].role, "user");
  assert.match(JSON.stringify((last[1] as UserMessage).content), /Request interrupted/);
});

test("compact boundary becomes a compaction with the summary; duplicates and orphans handled", async () => {
  const t = await load("compacted.jsonl");
  const compaction = t.entries.find((e) => e.type === "compaction");
  assert.ok(compaction && compaction.type === "compaction");
  assert.match(compaction.summary, /pagination on GET \/items/);
  assert.equal(compaction.tokensBefore, 48213);
  // Linked to the logical parent, through the pass-through system line, to the last assistant reply.
  assert.equal(compaction.parentId, t.idByUuid.get("e0000000-0000-4000-8000-000000000004"));
  assert.equal(t.idByUuid.get("e0000000-0000-4000-8000-000000000007"), compaction.id);
  const path = pathTo(t.entries, t.leafId ?? "");
  assert.equal(path[0].parentId, null);
  assert.deepEqual(
    path.map((e) => (e.type === "message" ? e.message.role : e.type)),
    ["user", "assistant", "toolResult", "assistant", "compaction", "user", "assistant"],
  );
  assert.ok(t.issues.some((i) => /duplicate uuid/.test(i.reason)));
  assert.ok(t.issues.some((i) => /not in this transcript/.test(i.reason)));
  assert.ok(t.issues.some((i) => /invalid JSON/.test(i.reason)));
  assert.equal(t.title, "Pagination for GET /items");
  assert.equal(t.cwd, "/work/api");
  assert.equal(t.sessionId, "5e4d3c2b-1a09-4876-b543-210fedcba987");
});

test("tool mapping renames Claude Code tools and arguments to pi's", async () => {
  assert.deepEqual(mapClaudeToolCall("Edit", { file_path: "/a", old_string: "x", new_string: "y" }), {
    name: "edit",
    arguments: { path: "/a", oldText: "x", newText: "y" },
  });
  assert.deepEqual(mapClaudeToolCall("Read", { file_path: "/a", offset: 3 }), {
    name: "read",
    arguments: { path: "/a", offset: 3 },
  });
  assert.deepEqual(mapClaudeToolCall("Bash", { command: "ls", timeout: 120000 }), {
    name: "bash",
    arguments: { command: "ls", timeout: 120 },
  });
  assert.equal(mapClaudeToolCall("Glob", { pattern: "*.ts" }).name, "find");
  assert.equal(mapClaudeToolCall("LS", { path: "/" }).name, "ls");
  assert.deepEqual(mapClaudeToolCall("WebFetch", { url: "u" }), { name: "WebFetch", arguments: { url: "u" } });
  const t = await load("branching-tools.jsonl", true);
  const names = t.entries
    .filter((e): e is SessionMessageEntry => e.type === "message" && e.message.role === "toolResult")
    .map((e) => (e.message as ToolResultMessage).toolName);
  assert.deepEqual(names, ["read", "edit", "bash", "grep", "find"]);
});

test("bad lines are reported with their line numbers, never thrown", () => {
  const r = parseClaudeText(
    '{"type":"user"\n[1,2]\n{"no":"type"}\n\n{"type":"summary","summary":"x","leafUuid":"nope"}\n',
  );
  assert.equal(r.records.length, 1);
  assert.deepEqual(
    r.issues.map((i) => i.line),
    [1, 2, 3],
  );
  const t = convertClaudeRecords(r.records, r.issues);
  assert.equal(t.entries.length, 0);
  assert.equal(t.leafId, null);
  assert.equal(t.title, undefined, "a summary about another file is no title");
});
