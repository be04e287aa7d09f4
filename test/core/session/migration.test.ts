import assert from "node:assert/strict";
import * as fs from "node:fs";
import { describe, test } from "node:test";
import { SessionManager, type AgentMessage } from "../../../src/core/index.js";
import { compactionSummaryOf, copyFixture, piLeafPath } from "./helpers.js";
import { readJsonl } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest();

/**
 * The context a v1 file means, computed from its raw lines by v1 rules (no ids): the latest compaction's
 * summary, then lines from firstKeptEntryIndex (header = index 0) up to it, then every line after it.
 */
function v1Context(lines: Record<string, unknown>[]): {
  messages: AgentMessage[];
  thinkingLevel: string;
  model?: unknown;
} {
  let last = -1;
  let thinkingLevel = "off";
  let model: unknown;
  lines.forEach((e, i) => {
    if (e.type === "compaction") last = i;
    if (e.type === "thinking_level_change") thinkingLevel = e.thinkingLevel as string;
    if (e.type === "model_change") model = { provider: e.provider, modelId: e.modelId };
    const m = e.message as { role?: string; provider?: string; model?: string } | undefined;
    if (e.type === "message" && m?.role === "assistant") model = { provider: m.provider, modelId: m.model };
  });
  const messages: AgentMessage[] = [];
  const push = (e: Record<string, unknown>): void => {
    if (e.type === "message") messages.push(e.message as AgentMessage);
  };
  if (last < 0) lines.slice(1).forEach(push);
  else {
    const c = lines[last];
    messages.push(compactionSummaryOf(c));
    for (let i = c.firstKeptEntryIndex as number; i < last; i++) push(lines[i]);
    lines.slice(last + 1).forEach(push);
  }
  return { messages, thinkingLevel, model };
}

for (const fixture of ["before-compaction.v1.jsonl", "large-session.v1.jsonl"]) {
  describe(`pi fixture ${fixture}`, () => {
    test("loads, migrates to v3 on disk with a backup, and gives the v1 context before and after", async () => {
      const file = copyFixture(fixture, tmp.dir);
      const original = fs.readFileSync(file, "utf8");
      const rawLines = readJsonl(file);
      const expected = v1Context(rawLines);

      const sm = await SessionManager.open(file);
      const ctx = sm.buildSessionContext();
      assert.deepEqual(ctx.messages, expected.messages);
      assert.equal(ctx.thinkingLevel, expected.thinkingLevel);
      assert.deepEqual(ctx.model, expected.model);
      assert.equal(sm.getEntryCount(), rawLines.length - 1);
      assert.deepEqual(sm.getLoadIssues(), []);

      // On disk: v3, backup identical to the original, ids chained, pi's leaf = ours.
      assert.equal(fs.readFileSync(`${file}.v1.bak`, "utf8"), original);
      const migrated = readJsonl(file);
      assert.equal(migrated[0].version, 3);
      assert.equal(migrated[0].id, rawLines[0].id);
      assert.equal(migrated[0].provider, rawLines[0].provider, "unknown header fields survive");
      for (let i = 1; i < migrated.length; i++) {
        assert.match(migrated[i].id as string, /^[0-9a-f]{8}$/);
        assert.equal(migrated[i].parentId, i === 1 ? null : migrated[i - 1].id);
        assert.equal(migrated[i].timestamp, rawLines[i].timestamp);
        assert.deepEqual(Object.keys(migrated[i]).slice(0, 4), ["type", "id", "parentId", "timestamp"]);
      }
      for (const c of migrated.filter((e) => e.type === "compaction")) {
        assert.equal(c.firstKeptEntryIndex, undefined);
        assert.match(c.firstKeptEntryId as string, /^[0-9a-f]{8}$/);
      }
      assert.equal(piLeafPath(file).at(-1)?.id, sm.getLeafId());
      await sm.close();

      // After migration: same context from the v3 file, no second migration.
      const again = await SessionManager.open(file);
      assert.deepEqual(again.buildSessionContext(), ctx);
      assert.deepEqual(again.getLoadIssues(), []);
      assert.equal(fs.readFileSync(file, "utf8"), migrated.map((l) => JSON.stringify(l)).join("\n") + "\n");

      // Appending and round-tripping keeps every old entry byte-identical.
      const before = fs.readFileSync(file, "utf8");
      again.appendMessage({ role: "user", content: "continued", timestamp: 5 });
      await again.close();
      assert.ok(fs.readFileSync(file, "utf8").startsWith(before));
      const third = await SessionManager.open(file);
      assert.equal(third.getEntryCount(), rawLines.length);
      await third.close();
    });

    test("a read-only open migrates in memory and leaves the file alone", async () => {
      const file = copyFixture(fixture, tmp.dir);
      const original = fs.readFileSync(file, "utf8");
      const ro = await SessionManager.open(file, { readOnly: true });
      assert.deepEqual(ro.buildSessionContext().messages, v1Context(readJsonl(file)).messages);
      assert.equal(fs.readFileSync(file, "utf8"), original);
      assert.equal(fs.existsSync(`${file}.v1.bak`), false);
      await ro.close();
    });
  });
}

describe("migration details", () => {
  test("v2 hookMessage becomes custom; firstKeptEntryIndex counts the header; corrupt lines are kept", async () => {
    const file = `${tmp.dir}/v.jsonl`;
    const lines = [
      { type: "session", id: "s1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/p" },
      {
        type: "message",
        timestamp: "2025-01-01T00:00:01.000Z",
        message: { role: "user", content: "one", timestamp: 1 },
      },
      {
        type: "message",
        timestamp: "2025-01-01T00:00:02.000Z",
        message: { role: "hookMessage", customType: "h", content: "hook", display: true, timestamp: 2 },
      },
      {
        type: "compaction",
        timestamp: "2025-01-01T00:00:03.000Z",
        summary: "S",
        firstKeptEntryIndex: 2,
        tokensBefore: 5,
        extra: "kept",
      },
      { type: "future_type", timestamp: "2025-01-01T00:00:04.000Z", payload: [1, 2] },
    ];
    const text =
      lines
        .map((l) => JSON.stringify(l))
        .join("\n")
        .replace('{"type":"compaction"', 'not json\n{"type":"compaction"') + "\n";
    fs.writeFileSync(file, text);
    const sm = await SessionManager.open(file);
    const raw = fs.readFileSync(file, "utf8").split("\n");
    assert.ok(raw.includes("not json"), "corrupt line left in the file");
    assert.deepEqual(
      sm.getLoadIssues().map((i) => i.line),
      [4],
    );
    const entries = sm.getEntries();
    const comp = entries.find((e) => e.type === "compaction");
    assert.ok(comp && comp.type === "compaction");
    assert.equal(comp.firstKeptEntryId, entries[1].id, "index 2 = second entry line (header is 0)");
    assert.equal((comp as unknown as Record<string, unknown>).extra, "kept");
    const unknown = entries.find((e) => (e.type as string) === "future_type") as unknown as Record<string, unknown>;
    assert.deepEqual(unknown.payload, [1, 2]);
    assert.deepEqual(
      sm.buildSessionContext().messages.map((m) => m.role),
      ["compactionSummary", "custom"],
    );
    await sm.close();
  });
});
