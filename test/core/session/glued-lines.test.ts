/**
 * Two entries on one line: pi before 0.84.3 resumed a file whose last line had no newline and appended its next
 * entry right after it. Both entries are recovered and the line is reported, in v3 files (small lines, read to
 * their end, and a large line whose reading stops after its preview) and in v1 files (split by the migration).
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { SessionManager } from "../../../src/core/index.js";
import { splitGluedLine } from "../../../src/core/session/glued-line.js";
import {
  assistant,
  entryLine,
  headerLine,
  readJsonl,
  toolResult,
  user,
  type Line,
} from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest();

const ts = (n: number): string => new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString();
const header = headerLine("3f1c", { timestamp: ts(0), cwd: "/p" });
const entry = (id: string, parentId: string | null, message: unknown, n: number): Line =>
  entryLine("message", id, parentId, ts(n), { message });

/** A v3 file whose entries `glueAt` and `glueAt + 1` share a line. */
function writeGlued(file: string, entries: Line[], glueAt: number): void {
  const lines = [header, ...entries].map((e) => JSON.stringify(e));
  lines[glueAt + 1] += lines[glueAt + 2];
  lines.splice(glueAt + 2, 1);
  fs.writeFileSync(file, lines.join("\n") + "\n");
}

describe("two whole entries glued on one line (v3)", () => {
  const big = "x".repeat(20_000);
  for (const [what, body] of [
    ["small lines", "short output"],
    ["a large line", big],
  ] as const) {
    test(`${what}: both recovered, reported, none orphaned`, async () => {
      const file = path.join(tmp.dir, `glued-${what.length}.jsonl`);
      const entries = [
        entry("aaaa0001", null, user("run it"), 1),
        entry("aaaa0002", "aaaa0001", assistant("", ["bash"], "toolUse"), 2),
        entry("aaaa0003", "aaaa0002", toolResult(body), 3),
        entry("aaaa0004", "aaaa0003", assistant("done"), 4),
        entry("aaaa0005", "aaaa0004", user("next"), 5),
        entry("aaaa0006", "aaaa0005", assistant("ok"), 6),
      ];
      writeGlued(file, entries, 2); // the tool result and the reply after it
      const sm = await SessionManager.open(file, { readOnly: true });
      assert.deepEqual(
        sm.getEnvelopes().map((e) => [e.id, e.orphan ?? false]),
        entries.map((e) => [e.id, false]),
      );
      const issues = sm.getLoadIssues();
      assert.equal(issues.length, 1);
      assert.equal(issues[0].line, 4);
      assert.match(issues[0].reason, /entries aaaa0003, aaaa0004 written on one line.*recovered/);
      assert.equal(sm.getLeafId(), "aaaa0006");
      assert.deepEqual(sm.getEntry("aaaa0003"), entries[2]);
      assert.deepEqual(sm.getEntry("aaaa0004"), entries[3]);
      assert.equal(sm.buildSessionContext().messages.length, 6);
      await sm.close();
    });
  }

  test("the last line: both entries recovered, the second is the leaf; appending starts a new line", async () => {
    const file = path.join(tmp.dir, "glued-last.jsonl");
    const entries = [entry("bbbb0001", null, user("a"), 1), entry("bbbb0002", "bbbb0001", assistant("b"), 2)];
    writeGlued(file, entries, 0);
    const sm = await SessionManager.open(file);
    assert.equal(sm.getLeafId(), "bbbb0002");
    assert.equal(sm.getEntry("bbbb0002")?.parentId, "bbbb0001");
    sm.appendMessage(user("c"));
    await sm.close();
    const again = await SessionManager.open(file, { readOnly: true });
    assert.equal(again.getPath().length, 3);
    assert.equal(again.getLoadIssues().length, 1, "the glued line is still reported (the file is append-only)");
    await again.close();
  });

  test("an unterminated last line: whole entries then a torn one; the torn part is cut before the next append", async () => {
    const file = path.join(tmp.dir, "glued-torn.jsonl");
    const a = entry("cccc0001", null, user("a"), 1);
    const b = entry("cccc0002", "cccc0001", assistant("b"), 2);
    const c = JSON.stringify(entry("cccc0003", "cccc0002", user("cut off"), 3));
    fs.writeFileSync(
      file,
      [header, a].map((e) => JSON.stringify(e)).join("\n") + "\n" + JSON.stringify(b) + c.slice(0, 50),
    );
    const sm = await SessionManager.open(file);
    assert.deepEqual(
      sm.getEnvelopes().map((e) => e.id),
      ["cccc0001", "cccc0002"],
    );
    assert.equal(sm.getLoadIssues()[0]?.torn, true);
    sm.appendMessage(user("after"));
    await sm.close();
    assert.deepEqual(
      readJsonl(file).map((e) => e.id),
      ["3f1c", "cccc0001", "cccc0002", (readJsonl(file).at(-1) as { id: string }).id],
    );
    assert.ok(
      fs.readdirSync(tmp.dir).some((f) => f.includes(".torn-")),
      "the torn bytes are kept beside the file",
    );
  });
});

describe("glued lines in a v1 file (migrated on open)", () => {
  test("both entries get lines of their own; firstKeptEntryIndex counts entries as pi does", async () => {
    const file = path.join(tmp.dir, "v1.jsonl");
    const v1 = (message: unknown, n: number): Record<string, unknown> => ({
      type: "message",
      timestamp: ts(n),
      message,
    });
    const lines = [
      JSON.stringify({ type: "session", id: "old", timestamp: ts(0), cwd: "/p" }),
      JSON.stringify(v1(user("one"), 1)),
      JSON.stringify(v1(assistant("two"), 2)) + JSON.stringify(v1(user("three"), 3)),
      JSON.stringify(v1(assistant("four"), 4)),
      // Entries counted with the header as 0: index 3 is "three", the second entry of the glued line.
      JSON.stringify({ type: "compaction", timestamp: ts(5), summary: "s", firstKeptEntryIndex: 3, tokensBefore: 9 }),
      JSON.stringify(v1(user("five"), 6)),
    ];
    fs.writeFileSync(file, lines.join("\n") + "\n");
    const sm = await SessionManager.open(file);
    const texts = sm
      .getEntries()
      .map((e) => (e.type === "message" ? (e.message as { content: unknown }).content : e.type));
    assert.equal(texts.length, 6);
    assert.deepEqual(
      sm.buildSessionContext().messages.map((m) => m.role),
      ["compactionSummary", "user", "assistant", "user"],
      "kept from 'three': three, four, then five",
    );
    assert.match(sm.getLoadIssues()[0]?.reason ?? "", /2 entries on one line.*own/);
    assert.ok(fs.existsSync(`${file}.v1.bak`));
    await sm.close();
  });
});

describe("splitGluedLine", () => {
  const isEntry = (v: unknown): boolean => typeof v === "object" && v !== null && "type" in v;
  test("a whole line is not glued; nested objects starting with a type key are not entries", () => {
    const one = JSON.stringify({ type: "message", message: { content: [{ type: "text", text: '}{"type":"x' }] } });
    assert.equal(splitGluedLine(one, isEntry), undefined);
    const two = one + JSON.stringify({ type: "label" });
    assert.deepEqual(
      splitGluedLine(two, isEntry)?.pieces.map((p) => [p.start, p.end]),
      [
        [0, one.length],
        [one.length, two.length],
      ],
    );
    assert.equal(splitGluedLine('{"type":"message","id":"x', isEntry, true), undefined, "a plain torn line");
  });
});
