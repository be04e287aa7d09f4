import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { convertClaudeRecords, type ConvertedTranscript } from "../../../src/core/import/claude-convert.js";
import { parseClaudeFile } from "../../../src/core/import/claude-parse.js";
import { importClaudeTranscript } from "../../../src/core/import/claude-session.js";
import { readClaudeSubagents } from "../../../src/core/import/claude-subagent-files.js";
import {
  compactionAgentFile,
  M,
  ofSession,
  S,
  SESSION_ID,
  subagentFiles,
  writeOlderLayoutSession,
  writeSession,
} from "./claude-subagent-fixtures.js";
import { tempDir } from "../../util/temp-dir.js";

const ALL = ["a0c0ffe", "a4c1e9b", "a7f3b2d", "a9d0e1f"];
const OTHER_SESSION = "0b1c2d3e-4f50-4617-8a9b-0c1d2e3f4a5b";

let tmp: string;
/** The same session in the recent layout: what every older-layout conversion must equal. */
let reference: ConvertedTranscript;

before(async () => {
  tmp = tempDir("agent-tree-subagent-files-test-").dir;
  reference = await convert(await writeSession(join(tmp, "recent")));
});
after(async () => {
  await rm(tmp, { recursive: true, force: true });
});

async function convert(path: string): Promise<ConvertedTranscript> {
  const parsed = await parseClaudeFile(path);
  return convertClaudeRecords(parsed.records, parsed.issues, { subagents: await readClaudeSubagents(path) });
}

/** Everything but the issues' file names, which name the layout. */
function withoutFiles(t: ConvertedTranscript): unknown {
  return { ...t, issues: t.issues.map((i) => ({ line: i.line, reason: i.reason })) };
}

test("older layout alone: agent files beside the transcript are attached as the recent layout's are", async () => {
  const project = join(tmp, "older");
  const transcript = await writeOlderLayoutSession(project);
  const subs = await readClaudeSubagents(transcript);
  assert.deepEqual(
    subs.map((s) => [s.agentId, s.file]),
    ALL.map((id) => [id, `agent-${id}.jsonl`]),
  );
  const t = await convert(transcript);
  // Same entries, ids, labels, parents, leaf and sidechain roots as the recent layout.
  assert.deepEqual(withoutFiles(t), withoutFiles(reference));
  assert.equal(t.idByUuid.get(S("a", 1)), reference.idByUuid.get(S("a", 1)));
  // The corrupt line of a7f3b2d names the file where it is.
  assert.deepEqual(
    t.issues.map((i) => [i.file, i.line]),
    [["agent-a7f3b2d.jsonl", 4]],
  );
  const { session, idByUuid } = await importClaudeTranscript(transcript, { tempDir: join(tmp, "views") });
  try {
    assert.equal(session.getLabel(idByUuid.get(S("a", 1)) ?? ""), "subagent: Search env var usage");
    assert.equal(session.getEntry(idByUuid.get(S("c", 1)) ?? "")?.parentId, idByUuid.get(M(8)));
    assert.equal(session.getLeafId(), idByUuid.get(M(11)));
  } finally {
    await session.close();
  }
});

test("a compaction agent's lines hang off the main-file line they name, and take no Task call", async () => {
  const project = join(tmp, "compaction");
  const transcript = await writeSession(project);
  // Written while the migration check ran: by time alone it would look like that Task's subagent.
  await writeFile(
    join(project, SESSION_ID, "subagents", "agent-acompact-5e6f7a.jsonl"),
    compactionAgentFile("acompact-5e6f7a", M(8), "10:00:30.500"),
  );
  const t = await convert(transcript);
  const id = (uuid: string): string => t.idByUuid.get(uuid) ?? "";
  const first = t.entries.find((e) => e.id === id(S("e", 1)));
  assert.equal(first?.parentId, id(M(8)), "attached to the main conversation");
  assert.equal(t.entries.find((e) => e.id === id(S("e", 2)))?.parentId, id(S("e", 1)));
  assert.deepEqual(
    t.issues.filter((i) => /not in this transcript/.test(i.reason)),
    [],
  );
  const labels = new Map(t.entries.flatMap((e) => (e.type === "label" ? [[e.targetId, e.label]] : [])));
  assert.equal(labels.get(id(S("e", 1))), "compaction agent 5e6f7a");
  // The migration check's own subagent still hangs off its Task call.
  assert.equal(t.entries.find((e) => e.id === id(S("c", 1)))?.parentId, reference.idByUuid.get(M(8)));
  assert.equal(t.leafId, reference.leafId);
});

test("both layouts: each subagent is read once, from its session's folder when it is in both", async () => {
  const project = join(tmp, "both");
  const transcript = await writeOlderLayoutSession(project, ["a0c0ffe", "a9d0e1f"]);
  const files = subagentFiles();
  const dir = join(project, SESSION_ID, "subagents");
  await mkdir(dir, { recursive: true });
  for (const id of ["a4c1e9b", "a7f3b2d"]) await writeFile(join(dir, `agent-${id}.jsonl`), files[id]);
  // An older copy of a7f3b2d that differs: were it read, its reply would show and its lines would clash.
  await writeFile(
    join(project, "agent-a7f3b2d.jsonl"),
    files.a7f3b2d.replace("Found 2 reads.", "Found 99 reads.") + "not json\n",
  );
  const subs = await readClaudeSubagents(transcript);
  assert.deepEqual(
    subs.map((s) => s.file),
    [
      "agent-a0c0ffe.jsonl",
      `${SESSION_ID}/subagents/agent-a4c1e9b.jsonl`,
      `${SESSION_ID}/subagents/agent-a7f3b2d.jsonl`,
      "agent-a9d0e1f.jsonl",
    ],
  );
  const t = await convert(transcript);
  assert.deepEqual(withoutFiles(t), withoutFiles(reference));
  assert.doesNotMatch(JSON.stringify(t.entries), /Found 99 reads/);
  assert.deepEqual(
    t.issues.map((i) => i.file),
    [`${SESSION_ID}/subagents/agent-a7f3b2d.jsonl`],
  );
});

test("older-layout agent files of other sessions are ignored; the first line carrying a session id decides", async () => {
  const project = join(tmp, "others");
  const transcript = await writeOlderLayoutSession(project, ["a4c1e9b"]);
  const files = subagentFiles();
  // Another session's subagent, and another session's transcript beside ours.
  await writeFile(join(project, "agent-a7f3b2d.jsonl"), ofSession(files.a7f3b2d, OTHER_SESSION));
  await writeFile(join(project, `${OTHER_SESSION}.jsonl`), "");
  // Its first line is another session's; later lines carry ours. The first line is all that is looked at.
  const [first, ...rest] = files.a9d0e1f.split("\n");
  await writeFile(join(project, "agent-a9d0e1f.jsonl"), [ofSession(first, OTHER_SESSION), ...rest].join("\n"));
  // Not a subagent file name, though its lines are ours; and a folder with an agent file's name.
  await writeFile(join(project, "agent-a0c0ffe.json"), files.a0c0ffe);
  await mkdir(join(project, "agent-folder.jsonl"));
  const subs = await readClaudeSubagents(transcript);
  assert.deepEqual(
    subs.map((s) => s.agentId),
    ["a4c1e9b"],
  );
  const t = await convert(transcript);
  assert.equal(t.idByUuid.get(S("a", 1)), undefined);
  assert.equal(t.idByUuid.get(S("c", 1)), undefined);
  assert.ok(t.idByUuid.get(S("b", 1)));
  assert.deepEqual(t.issues, []);
  // The other session sees its own subagent only.
  const otherSubs = await readClaudeSubagents(join(project, `${OTHER_SESSION}.jsonl`));
  assert.deepEqual(
    otherSubs.map((s) => s.agentId),
    ["a7f3b2d", "a9d0e1f"],
  );
});

test("an older-layout agent file with a corrupt first line is decided by its next line; the corrupt line is an issue", async () => {
  const project = join(tmp, "corrupt");
  const transcript = await writeOlderLayoutSession(project, []);
  const files = subagentFiles();
  await writeFile(join(project, "agent-a4c1e9b.jsonl"), '{"parentUuid":null,"sessionId":"' + "\n" + files.a4c1e9b);
  await writeFile(join(project, "agent-a9d0e1f.jsonl"), "not json\n" + ofSession(files.a9d0e1f, OTHER_SESSION));
  // Nothing in it names a session: it cannot be told to be ours.
  await writeFile(join(project, "agent-abad000.jsonl"), "{broken\n[1]\n");
  const subs = await readClaudeSubagents(transcript);
  assert.deepEqual(
    subs.map((s) => s.agentId),
    ["a4c1e9b"],
  );
  const t = await convert(transcript);
  const todo = t.entries.find((e) => e.id === t.idByUuid.get(S("b", 1)));
  assert.equal(todo?.parentId, reference.idByUuid.get(M(2)), "hangs off the Task reply as in the recent layout");
  assert.equal(todo?.id, reference.idByUuid.get(S("b", 1)));
  assert.equal(t.issues.length, 1);
  assert.equal(t.issues[0].file, "agent-a4c1e9b.jsonl");
  assert.equal(t.issues[0].line, 1);
  assert.match(t.issues[0].reason, /invalid JSON/);
});
