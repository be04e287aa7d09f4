/** "Continue in a New Session" decisions, Claude transcript sniffing, read-only notices, and the picker rows. */
import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import {
  claudeTranscriptPathOf,
  convertClaudePathToSession,
  openClaudeTranscript,
} from "../../src/core/import/index.js";
import type { AnySessionInfo } from "../../src/core/import/index.js";
import { SessionManager } from "../../src/core/session/session-manager.js";
import { looksLikeClaudeTranscript, planContinue, readOnlyReason } from "../../src/host/session/continue-plan.js";
import { anySessionRows, piFolderRows } from "../../src/host/common/pick-items.js";
import { createHarness, ofType } from "./controller-harness.js";
import { tempDir } from "../util/temp-dir.js";

const claudeFixtures = path.join(__dirname, "..", "fixtures", "claude");
const piFixture = path.join(__dirname, "../fixtures/pi/before-compaction.v1.jsonl");

const freshDir = (): string => tempDir("agent-tree-continue-").dir;

/** A pi session file in `dir` with two messages; returns its path. */
async function writePiSession(dir: string): Promise<string> {
  const sm = await SessionManager.create("/proj", dir);
  sm.appendMessage({ role: "user", content: "hello", timestamp: 1 });
  sm.appendMessage({ role: "user", content: "again", timestamp: 2 });
  const file = sm.getSessionFile();
  await sm.close();
  assert.ok(file);
  return file;
}

test("Claude transcripts are told apart from pi sessions by their first lines", () => {
  for (const name of fs.readdirSync(claudeFixtures)) {
    const text = fs.readFileSync(path.join(claudeFixtures, name), "utf8");
    assert.equal(looksLikeClaudeTranscript(text), true, name);
  }
  assert.equal(looksLikeClaudeTranscript(fs.readFileSync(piFixture, "utf8")), false);
  // A pi header first wins even if a later line happens to carry uuid fields.
  const mixed = '{"type":"session","id":"s","cwd":"/p"}\n{"uuid":"u1","parentUuid":null}\n';
  assert.equal(looksLikeClaudeTranscript(mixed), false);
  assert.equal(looksLikeClaudeTranscript("{not json\n[]\n\n"), false);
  assert.equal(looksLikeClaudeTranscript('{"type":"summary","summary":"x"}\n{"uuid":"u1","parentUuid":null}'), true);
});

test("continue plan: nothing open, writable, Claude view, other read-only session", async () => {
  const dir = freshDir();
  try {
    assert.deepEqual(planContinue(undefined), { kind: "none", message: "No session is open." });
    const writable = SessionManager.inMemory("/proj");
    assert.deepEqual(planContinue(writable), { kind: "writable", message: "This session is already writable." });

    const transcript = path.join(claudeFixtures, "branching-tools.jsonl");
    const view = await openClaudeTranscript(transcript);
    try {
      const plan = planContinue(view);
      assert.equal(plan.kind, "claude");
      assert.ok(plan.kind === "claude");
      assert.equal(plan.transcriptPath, claudeTranscriptPathOf(view));
      assert.equal(plan.leaf, view.getLeafId());
    } finally {
      await view.close();
    }

    const file = await writePiSession(dir);
    const ro = await SessionManager.open(file, { readOnly: true });
    try {
      assert.deepEqual(planContinue(ro), { kind: "branch", leafId: ro.getLeafId() });
    } finally {
      await ro.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("continuing lands in the workspace's folder and opens writable (both kinds)", async () => {
  const piDir = freshDir();
  const workspaceDir = freshDir();
  try {
    // A read-only pi session opened with the workspace's folder branches into that folder, not pi's.
    const file = await writePiSession(piDir);
    const ro = await SessionManager.open(file, { sessionDir: workspaceDir, readOnly: true });
    const plan = planContinue(ro);
    assert.ok(plan.kind === "branch");
    const branched = (await ro.createBranchedSession(plan.leafId)) as string;
    await ro.close();
    assert.equal(path.dirname(branched), workspaceDir);
    assert.deepEqual(fs.readdirSync(piDir), [path.basename(file)]);
    const reopened = await SessionManager.open(branched, { sessionDir: workspaceDir });
    assert.equal(reopened.isReadOnly(), false);
    assert.deepEqual(
      reopened.getPath().map((e) => (e.type === "message" && e.message.role === "user" ? e.message.content : e.type)),
      ["hello", "again"],
    );
    await reopened.close();

    const transcript = path.join(claudeFixtures, "branching-tools.jsonl");
    const view = await openClaudeTranscript(transcript);
    const cplan = planContinue(view);
    await view.close();
    assert.ok(cplan.kind === "claude");
    const converted = await convertClaudePathToSession(cplan.transcriptPath, cplan.leaf, "/proj", workspaceDir);
    assert.equal(path.dirname(converted), workspaceDir);
    const cont = await SessionManager.open(converted, { sessionDir: workspaceDir });
    assert.equal(cont.isReadOnly(), false);
    assert.ok(cont.getPath().some((e) => e.type === "message" && e.message.role === "assistant"));
    await cont.close();
  } finally {
    fs.rmSync(piDir, { recursive: true, force: true });
    fs.rmSync(workspaceDir, { recursive: true, force: true });
  }
});

test("a read-only session's chat says why and offers Continue in a New Session", async () => {
  for (const cause of ["locked", "pi", "claude"] as const) {
    assert.match(readOnlyReason(cause), /Continue in a New Session/);
  }
  assert.match(readOnlyReason("claude"), /Claude Code transcript/);
  assert.match(readOnlyReason("pi"), /pi's file is never rewritten/);
  assert.match(readOnlyReason("locked"), /another process/);

  const h = createHarness();
  const view = await openClaudeTranscript(path.join(claudeFixtures, "compacted.jsonl"));
  await h.controller.attach(view, "claude");
  const snaps = ofType(h.chat, "chat/snapshot");
  assert.equal(snaps[snaps.length - 1].noModelReason, readOnlyReason("claude"));
  assert.equal(h.controller.readOnlyReason(), readOnlyReason("claude"));
  assert.equal(h.controller.selectModel("openai/gpt-4o"), readOnlyReason("claude"));
  await h.controller.close();
});

test("picker rows: workspace first, then pi, then Claude Code, each with its source, date and size", () => {
  const at = (iso: string): Date => new Date(iso);
  const base = { id: "x", cwd: "/proj", created: at("2026-01-01T00:00:00Z"), messageCount: 2, sizeBytes: 2048 };
  const sessions: AnySessionInfo[] = [
    {
      ...base,
      source: "claude",
      path: "/c/a.jsonl",
      firstMessage: "claude q",
      modified: at("2026-03-01T00:00:00Z"),
    },
    {
      ...base,
      source: "pi",
      path: "/pi/sessions/--proj--/p.jsonl",
      firstMessage: "pi q",
      modified: at("2026-02-01T00:00:00Z"),
    },
    { ...base, source: "workspace", path: "/w/old.jsonl", firstMessage: "old", modified: at("2026-01-01T00:00:00Z") },
    {
      ...base,
      source: "workspace",
      path: "/w/new.jsonl",
      name: "Named",
      firstMessage: "new q",
      modified: at("2026-01-05T00:00:00Z"),
    },
  ];
  const rows = anySessionRows(sessions, "/w/old.jsonl");
  assert.deepEqual(
    rows.map((r) => [r.label, r.value.path, r.detail]),
    [
      ["Named", "/w/new.jsonl", "new q"],
      ["old (open)", "/w/old.jsonl", undefined],
      ["pi q", "/pi/sessions/--proj--/p.jsonl", undefined],
      ["claude q", "/c/a.jsonl", undefined],
    ],
  );
  assert.match(rows[0].description ?? "", /^[^·]+ · 2 messages · 2\.0 KB$/);
  assert.match(rows[2].description ?? "", /^pi · --proj-- · .+ · 2 messages · 2\.0 KB$/);
  assert.match(rows[3].description ?? "", /^Claude Code · .+ · 2 messages · 2\.0 KB$/);
});

test("pi folder rows leave out the workspace's own folders", () => {
  const folders = [
    { path: "/h/.pi/agent/sessions/--a--", cwdGuess: "/a" },
    { path: "/h/.pi/agent/sessions/--b--", cwdGuess: "/b" },
    { path: "/h/.pi/agent/sessions/--c--", cwdGuess: "/c" },
  ];
  const rows = piFolderRows(folders, ["/h/.pi/agent/sessions/--b--/", "/elsewhere"]);
  assert.deepEqual(
    rows.map((r) => [r.label, r.description, r.value.path]),
    [
      ["/a", "--a--", "/h/.pi/agent/sessions/--a--"],
      ["/c", "--c--", "/h/.pi/agent/sessions/--c--"],
    ],
  );
});
