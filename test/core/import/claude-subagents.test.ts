import assert from "node:assert/strict";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import type { AssistantMessage, UserMessage } from "../../../src/core/messages.js";
import type { SessionEntry } from "../../../src/core/session/types.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { convertClaudeRecords, type ConvertedTranscript } from "../../../src/core/import/claude-convert.js";
import { parseClaudeFile, parseClaudeText } from "../../../src/core/import/claude-parse.js";
import { claudeProjectDirNames, listClaudeTranscripts } from "../../../src/core/import/claude-paths.js";
import { convertClaudePathToSession, importClaudeTranscript } from "../../../src/core/import/claude-session.js";
import {
  readClaudeSubagents,
  subagentIdOfFileName,
  type ClaudeSubagentTranscript,
} from "../../../src/core/import/claude-subagent-files.js";
import { matchSubagents } from "../../../src/core/import/claude-subagents.js";
import { CWD, M, S, SESSION_ID, subagentFiles, writeSession } from "./claude-subagent-fixtures.js";
import { tempDir } from "../../util/temp-dir.js";

let tmp: string;
let transcript: string;

before(async () => {
  tmp = tempDir("agent-tree-subagents-test-").dir;
  transcript = await writeSession(join(tmp, "project"));
});
after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function convert(path: string): Promise<ConvertedTranscript> {
  const parsed = await parseClaudeFile(path);
  const subagents = await readClaudeSubagents(path);
  return convertClaudeRecords(parsed.records, parsed.issues, { subagents });
}

function labelOf(t: ConvertedTranscript, id: string | null | undefined): string | undefined {
  const l = t.entries.find((e) => e.type === "label" && e.targetId === id);
  return l?.type === "label" ? l.label : undefined;
}

function userText(e: SessionEntry): string | undefined {
  return e.type === "message" && e.message.role === "user" && typeof e.message.content === "string"
    ? e.message.content
    : undefined;
}

function text(e: SessionEntry | undefined): string {
  assert.ok(e?.type === "message", `expected a message, got ${e?.type}`);
  const m = e.message as UserMessage | AssistantMessage;
  return typeof m.content === "string" ? m.content : JSON.stringify(m.content);
}

test("subagent files are found by name; meta files and others are not subagents", async () => {
  assert.equal(subagentIdOfFileName("agent-a7f3b2d.jsonl"), "a7f3b2d");
  assert.equal(subagentIdOfFileName("agent-a7f3b2d.meta.json"), undefined);
  assert.equal(subagentIdOfFileName(`${SESSION_ID}.jsonl`), undefined);
  const subs = await readClaudeSubagents(transcript);
  assert.deepEqual(
    subs.map((s) => s.agentId),
    ["a0c0ffe", "a4c1e9b", "a7f3b2d", "a9d0e1f"],
  );
  assert.ok(subs.every((s) => s.records.every((r) => r.agent === s.agentId)));
});

test("each subagent hangs off the Task call that launched it, labelled with its description", async () => {
  const t = await convert(transcript);
  const byId = new Map(t.entries.map((e) => [e.id, e]));
  const taskReply = t.idByUuid.get(M(2));
  assert.ok(taskReply, "the split Task reply is one entry");
  assert.equal(t.idByUuid.get(M(4)), taskReply);
  // Named by the result text: the env agent; named only by a progress line: the TODO agent.
  const env = t.idByUuid.get(S("a", 1));
  const todo = t.idByUuid.get(S("b", 1));
  assert.equal(byId.get(env ?? "")?.parentId, taskReply);
  assert.equal(byId.get(todo ?? "")?.parentId, taskReply);
  assert.equal(labelOf(t, env), "subagent: Search env var usage");
  assert.equal(labelOf(t, todo), "subagent: List TODO comments");
  // Named nowhere, prompt differs: matched by time to the later Task call.
  const mig = t.idByUuid.get(S("c", 1));
  assert.equal(byId.get(mig ?? "")?.parentId, t.idByUuid.get(M(8)));
  assert.equal(labelOf(t, mig), "subagent: Check migrations");
  // The whole subagent conversation is there, split lines merged, tool result in place.
  const envReply = t.idByUuid.get(S("a", 2));
  assert.equal(t.idByUuid.get(S("a", 3)), envReply);
  assert.deepEqual(
    (byId.get(envReply ?? "") as { message: AssistantMessage }).message.content.map((c) => c.type),
    ["thinking", "toolCall"],
  );
  const envLast = byId.get(t.idByUuid.get(S("a", 5)) ?? "");
  assert.match(text(envLast), /Found 2 reads/);
  const envResult = byId.get(envLast?.parentId ?? "");
  assert.ok(envResult?.type === "message" && envResult.message.role === "toolResult");
  assert.deepEqual(
    new Set(t.sidechainRootIds),
    new Set([env, todo, mig, t.entries.find((e) => userText(e) === "Warmup")?.id]),
  );
});

test("an unmatched subagent is a labelled root; uuids shared with the main file do not clash", async () => {
  const t = await convert(transcript);
  const warm = t.entries.find((e) => userText(e) === "Warmup");
  assert.ok(warm);
  assert.equal(warm.parentId, null);
  assert.equal(labelOf(t, warm.id), "subagent a0c0ffe");
  const ready = t.entries.find((e) => e.parentId === warm.id);
  assert.match(text(ready), /Ready/);
  // Its root line reuses the main file's first uuid: the main line keeps that uuid and its usual id.
  const main = t.entries.find((e) => e.id === t.idByUuid.get(M(1)));
  assert.match(text(main), /^Audit the repo/);
  assert.notEqual(main?.id, warm.id);
  assert.equal(new Set(t.entries.map((e) => e.id)).size, t.entries.length, "ids are unique");
  const seen = new Set<string>();
  for (const e of t.entries) {
    if (e.parentId) assert.ok(seen.has(e.parentId), `${e.id} before its parent`);
    seen.add(e.id);
  }
});

test("the main-chain leaf and main ids are what they are without subagents; corrupt lines name their file", async () => {
  const withSubs = await convert(transcript);
  const plain = await writeSession(join(tmp, "plain"), false);
  const parsed = await parseClaudeFile(plain);
  const without = convertClaudeRecords(parsed.records, parsed.issues);
  assert.ok(withSubs.leafId);
  assert.equal(withSubs.leafId, without.leafId);
  assert.equal(withSubs.idByUuid.get(M(11)), withSubs.leafId);
  for (let n = 1; n <= 11; n++) assert.equal(withSubs.idByUuid.get(M(n)), without.idByUuid.get(M(n)), `M(${n})`);
  assert.deepEqual(without.issues, []);
  assert.deepEqual(withSubs.issues, [
    { line: 4, reason: withSubs.issues[0]?.reason, file: `${SESSION_ID}/subagents/agent-a7f3b2d.jsonl` },
  ]);
  assert.match(withSubs.issues[0].reason, /invalid JSON/);
});

test("a missing or unreadable subagents folder is no error", async () => {
  assert.deepEqual(await readClaudeSubagents(join(tmp, "nowhere", "x.jsonl")), []);
  const project = join(tmp, "not-a-folder");
  const path = await writeSession(project, false);
  await mkdir(join(project, SESSION_ID));
  await writeFile(join(project, SESSION_ID, "subagents"), "a file where a folder should be");
  assert.deepEqual(await readClaudeSubagents(path), []);
  const t = await convert(path);
  assert.equal(t.issues.length, 0);
  assert.ok(t.leafId);
});

test("matching prefers a named agentId (result text, toolUseResult, progress) over the prompt, the prompt over time", () => {
  const asst = (uuid: string, parent: string | null, ts: string, id: string, prompt: string): string =>
    JSON.stringify({
      type: "assistant",
      uuid,
      parentUuid: parent,
      timestamp: ts,
      message: {
        id: `msg_${uuid}`,
        role: "assistant",
        content: [{ type: "tool_use", id, name: "Agent", input: { description: `d-${id}`, prompt } }],
      },
    });
  const result = (uuid: string, parent: string, ts: string, id: string, body: string, extra = {}): string =>
    JSON.stringify({
      type: "user",
      uuid,
      parentUuid: parent,
      timestamp: ts,
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: body }] },
      ...extra,
    });
  const named = "done\nagentId: x (for resuming to continue this agent's work if needed)";
  const main = parseClaudeText(
    [
      asst("m1", null, "2025-01-01T00:00:00Z", "t1", "P1"),
      result("m2", "m1", "2025-01-01T00:01:00Z", "t1", named),
      asst("m3", "m2", "2025-01-01T00:02:00Z", "t2", "P2"),
      JSON.stringify({
        type: "progress",
        uuid: "m4",
        parentUuid: "m3",
        timestamp: "2025-01-01T00:02:01Z",
        data: { type: "agent_progress", agentId: "p" },
        parentToolUseID: "t2",
      }),
      result("m5", "m4", "2025-01-01T00:03:00Z", "t2", "done", { toolUseResult: { agentId: "u" } }),
    ].join("\n"),
  );
  const sub = (agentId: string, prompt: string, ts: string): ClaudeSubagentTranscript[] => {
    const line = { type: "user", uuid: "s1", parentUuid: null, isSidechain: true, agentId, timestamp: ts };
    const parsed = parseClaudeText(JSON.stringify({ ...line, message: { role: "user", content: prompt } }));
    const records = parsed.records.map((r) => ({ ...r, agent: agentId }));
    return [{ agentId, file: `agent-${agentId}.jsonl`, records, issues: [] }];
  };
  const match = (agentId: string, prompt: string, ts: string) =>
    matchSubagents(main.records, sub(agentId, prompt, ts)).get(agentId);
  // Named by t1's result text, though its prompt and start time point at t2.
  assert.equal(match("x", "P2", "2025-01-01T00:02:30Z")?.toolUseId, "t1");
  // Named by a progress line / by toolUseResult of t2, though prompt and time point at t1.
  assert.equal(match("p", "P1", "2025-01-01T00:00:10Z")?.toolUseId, "t2");
  assert.equal(match("u", "P1", "2025-01-01T00:00:10Z")?.toolUseId, "t2");
  // Not named: the prompt (t2's) wins over the time (t1's window).
  assert.equal(match("q", "P2", "2025-01-01T00:00:10Z")?.toolUseId, "t2");
  // Only time left: started after t1's result and before t2 → no Task call fits.
  assert.equal(match("y", "?", "2025-01-01T00:01:30Z"), undefined);
  const z = match("z", "?", "2025-01-01T00:02:30Z");
  assert.equal(z?.toolUseId, "t2");
  assert.equal(z?.description, "d-t2");
});

test("opened as a session: subagent branches under the Task reply, resume point unchanged; continuable", async () => {
  const { session, idByUuid, issues } = await importClaudeTranscript(transcript, { tempDir: join(tmp, "views") });
  try {
    assert.equal(session.getLeafId(), idByUuid.get(M(11)));
    const taskReply = idByUuid.get(M(2)) ?? "";
    const kids = session.getChildren(taskReply).filter((e) => e.type === "message");
    assert.equal(kids.length, 3, "the TODO and env subagents and the main chain's next result");
    assert.equal(session.getLabel(idByUuid.get(S("a", 1)) ?? ""), "subagent: Search env var usage");
    assert.equal(issues.length, 1);
    assert.equal(session.getLoadIssues().length, 0);
  } finally {
    await session.close();
  }
  const file = await convertClaudePathToSession(transcript, S("a", 5), CWD, join(tmp, "continued"));
  const sm = await SessionManager.open(file, { readOnly: true });
  try {
    const msgs = sm.buildSessionContext().messages;
    assert.match(JSON.stringify(msgs[msgs.length - 1]), /Found 2 reads/);
    assert.ok(msgs.some((m) => m.role === "user" && JSON.stringify(m.content).includes("DATABASE_URL")));
  } finally {
    await sm.close();
  }
});

test("the session listing does not list subagent files, in either layout", async () => {
  const claudeDir = join(tmp, "claude");
  const project = join(claudeDir, "projects", claudeProjectDirNames(CWD)[0]);
  await writeSession(project);
  // Older versions: agent-<id>.jsonl next to the sessions; a renamed one is still all sidechain lines.
  const files = subagentFiles();
  await writeFile(join(project, "agent-a4c1e9b.jsonl"), files.a4c1e9b);
  await writeFile(join(project, "renamed-subagent.jsonl"), files.a9d0e1f);
  const list = await listClaudeTranscripts(CWD, claudeDir);
  assert.deepEqual(
    list.map((s) => s.id),
    [SESSION_ID],
  );
  assert.match(list[0].firstMessage, /^Audit the repo/);
  assert.match(await readFile(join(project, "renamed-subagent.jsonl"), "utf8"), /"isSidechain":true/);
});
