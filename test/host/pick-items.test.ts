import { test } from "node:test";
import assert from "node:assert/strict";
import {
  anySessionRows,
  formatSize,
  nodeRows,
  sessionRows,
  skippedFilesRow,
} from "../../src/host/common/pick-items.js";
import type { AnySessionInfo } from "../../src/core/import/session-sources.js";
import { modelKey, parseModelKey, pickDefaultModel, usableModels } from "../../src/host/models/model-choice.js";
import { treeRowOf } from "../../src/core/rows/tree-row.js";
import type { EntryEnvelope } from "../../src/core/session/types.js";
import type { ModelInfo } from "../../src/core/providers/types.js";

const e = (id: string, parentId: string | null, role: string, extra: Partial<EntryEnvelope> = {}): EntryEnvelope => ({
  id,
  parentId,
  type: "message",
  role,
  timestamp: "2026-01-01T00:00:00.000Z",
  preview: `${role} ${id}`,
  ...extra,
});

test("node rows: depth-first, only branch points indent, active path and labels marked, tool noise hidden", () => {
  const envs: EntryEnvelope[] = [
    e("u1", null, "user"),
    e("a1", "u1", "assistant"),
    e("u2", "a1", "user"),
    e("a2", "u2", "assistant", { toolCallsOnly: true }),
    e("t2", "a2", "toolResult"),
    e("u3", "a1", "user"),
    e("a3", "u3", "assistant"),
    { ...e("l1", "a3", "x"), type: "label", role: undefined },
  ];
  const rows = nodeRows(
    envs.map((x) => treeRowOf(x, x.id === "u3" ? "plan B" : undefined)),
    "a3",
  );
  assert.deepEqual(
    rows.map((r) => [r.value, r.label, r.description]),
    [
      ["u1", "● user: user u1", undefined],
      ["a1", "● assistant: assistant a1", undefined],
      ["u2", "\u2003user: user u2", undefined],
      ["u3", "\u2003● user: user u3", "[plan B]"],
      ["a3", "\u2003● assistant: assistant a3", "← active"],
    ],
  );
});

test("node rows survive orphans and deep chains", () => {
  const deep: EntryEnvelope[] = [];
  for (let i = 0; i < 20_000; i++) deep.push(e(`n${i}`, i === 0 ? null : `n${i - 1}`, i % 2 ? "assistant" : "user"));
  deep.push(e("orphan", "missing", "user"));
  const rows = nodeRows(
    deep.map((x) => treeRowOf(x)),
    "n19999",
  );
  assert.equal(rows.length, 20_001);
  assert.equal(rows[rows.length - 1].value, "orphan");
});

test("session rows show name or first message, date, count and size", () => {
  const info = {
    path: "/s/a.jsonl",
    id: "x",
    cwd: "/w",
    created: new Date(0),
    modified: new Date(0),
    messageCount: 4,
    firstMessage: "fix the\nbug",
    sizeBytes: 2048,
  };
  const [plain, named] = sessionRows([info, { ...info, path: "/s/b.jsonl", name: "Refactor" }], "/s/b.jsonl");
  assert.equal(plain.label, "fix the bug");
  assert.match(plain.description ?? "", /4 messages · 2\.0 KB/);
  assert.equal(named.label, "Refactor (open)");
  assert.equal(named.detail, "fix the bug");
  assert.equal(formatSize(5 * 1024 * 1024), "5.0 MB");
});

test("model keys, usable models and the default model", () => {
  const m = (provider: string, id: string): ModelInfo => ({
    provider,
    id,
    name: id,
    api: "openai-completions",
    baseUrl: "http://127.0.0.1:9",
    reasoning: false,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
  });
  assert.deepEqual(parseModelKey("openrouter/anthropic/claude"), { provider: "openrouter", id: "anthropic/claude" });
  assert.equal(parseModelKey("nokey"), undefined);
  assert.equal(parseModelKey("/x"), undefined);
  const all = [m("openai", "gpt"), m("anthropic", "claude"), m("ollama", "qwen")];
  // Usable: a key (anthropic's), or a provider that needs none (ollama's).
  const usable = usableModels(all, (x) => x.provider === "anthropic" || x.provider === "ollama");
  assert.deepEqual(usable.map(modelKey), ["anthropic/claude", "ollama/qwen"]);
  assert.equal(pickDefaultModel(usable, "ollama/qwen")?.id, "qwen");
  assert.equal(pickDefaultModel(usable, "openai/gpt", { provider: "ollama", modelId: "qwen" })?.id, "qwen");
  assert.equal(pickDefaultModel(usable, "")?.id, "claude");
  // pi's default model (settings.json) counts after the session's own, as in pi.
  assert.equal(pickDefaultModel(usable, "", undefined, "ollama/qwen")?.id, "qwen");
  assert.equal(pickDefaultModel(usable, "", { provider: "anthropic", modelId: "claude" }, "ollama/qwen")?.id, "claude");
  assert.equal(pickDefaultModel(usable, "anthropic/claude", undefined, "ollama/qwen")?.id, "claude");
  assert.equal(pickDefaultModel([], "x/y"), undefined);
});

test("session picker rows: forks as threads under the session they came from, newest activity first", () => {
  const at = (minutes: number): Date => new Date(Date.UTC(2026, 0, 1, 0, minutes));
  const base = { id: "x", cwd: "/w", created: at(0), messageCount: 3, sizeBytes: 1024 };
  const sessions: AnySessionInfo[] = [
    { ...base, source: "workspace", path: "/w/a.jsonl", name: "Plan", firstMessage: "plan it", modified: at(1) },
    { ...base, source: "workspace", path: "/w/b.jsonl", firstMessage: "unrelated", modified: at(5) },
    {
      ...base,
      source: "workspace",
      path: "/w/a-fork.jsonl",
      firstMessage: "try the other way",
      modified: at(9),
      parentSessionPath: "/w/a.jsonl",
    },
    {
      ...base,
      source: "workspace",
      path: "/w/a-fork-fork.jsonl",
      firstMessage: "and once more",
      modified: at(2),
      parentSessionPath: "/w/a-fork.jsonl",
    },
    {
      ...base,
      source: "workspace",
      path: "/w/lost.jsonl",
      firstMessage: "parent gone",
      modified: at(3),
      parentSessionPath: "/w/deleted.jsonl",
    },
    // A pi session continued in the workspace: the fork sits under its pi parent.
    { ...base, source: "pi", path: "/pi/p.jsonl", firstMessage: "pi question", modified: at(4) },
    {
      ...base,
      source: "workspace",
      path: "/w/from-pi.jsonl",
      firstMessage: "pi question",
      modified: at(6),
      parentSessionPath: "/pi/p.jsonl",
    },
  ];
  const rows = anySessionRows(sessions, "/w/b.jsonl");
  assert.deepEqual(
    rows.map((r) => r.label),
    [
      "Plan",
      "\u2003\u2003$(git-branch) try the other way",
      "\u2003\u2003\u2003\u2003$(git-branch) and once more",
      "unrelated (open)",
      "parent gone",
      "pi question",
      "\u2003\u2003$(git-branch) pi question",
    ],
  );
  assert.match(rows[1].description ?? "", /^fork of Plan · /);
  assert.match(rows[2].description ?? "", /^fork of try the other way · /);
  assert.doesNotMatch(rows[4].description ?? "", /fork of/);
  assert.match(rows[6].description ?? "", /^fork of pi question · /);
  assert.equal(rows[6].value.path, "/w/from-pi.jsonl");
});

test("session picker: files that are no session get one row naming the first few with their reasons", () => {
  assert.equal(skippedFilesRow([]), undefined);
  const one = skippedFilesRow([{ path: "/s/empty.jsonl", reason: "the file is empty" }]);
  assert.equal(one?.label, "$(warning) 1 file is not listed: not a session");
  assert.equal(one?.detail, "empty.jsonl: the file is empty");
  assert.equal(one?.value, "skippedFiles");
  const many = skippedFilesRow(
    ["a", "b", "c", "d", "e"].map((n) => ({ path: `/s/${n}.jsonl`, reason: `reason ${n}` })),
  );
  assert.equal(many?.label, "$(warning) 5 files are not listed: not a session");
  assert.equal(many?.detail, "a.jsonl: reason a; b.jsonl: reason b; c.jsonl: reason c; and 2 more");
});
