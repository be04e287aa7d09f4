/**
 * The bodies a small file's open parses anyway and keeps for the first context (ScanResult.bodies,
 * SessionManager): which ones are kept, that the first context equals one built from the file, and that they are
 * let go once it is built. Random trees (branches far and near, compactions, labels, leaf markers, long lines,
 * characters outside ASCII, duplicate ids) hold the first context to the second, read from the file.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, before, describe, test } from "node:test";
import fc from "fast-check";
import { SessionManager } from "../../../src/core/index.js";
import { scanSessionFile } from "../../../src/core/session/session-scan.js";
import { entryLine, headerLine, jsonl, type Line } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";

let dir: string;
let cleanup: () => void;
before(() => ({ dir, cleanup } = tempDir()));
after(() => cleanup());

const at = (i: number): string => new Date(Date.UTC(2026, 0, 5, 9, 0, i)).toISOString();
const id = (i: number): string => (0x10000000 + i).toString(16).slice(-8);

function message(i: number, parent: string | null, role: "user" | "assistant" | "toolResult", text: string): Line {
  const m =
    role === "user"
      ? { role, content: text, timestamp: i }
      : role === "assistant"
        ? {
            role,
            content: [{ type: "text", text }],
            provider: "anthropic",
            model: "claude-test",
            usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3 },
            stopReason: "stop",
            timestamp: i,
          }
        : {
            role,
            toolCallId: "call_0",
            toolName: "bash",
            content: [{ type: "text", text }],
            isError: false,
            timestamp: i,
          };
  return entryLine("message", id(i), parent, at(i), { message: m });
}

function write(name: string, lines: Line[]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, jsonl([headerLine("s-" + name), ...lines]));
  return file;
}

describe("bodies kept from the open for the first context", () => {
  test("the branch the file ends on, after its latest compaction, and only entries a context reads", () => {
    const lines: Line[] = [
      message(1, null, "user", "first"),
      message(2, id(1), "assistant", "answer"),
      // A side branch off 1, then back to 2: the side branch is not kept.
      message(3, id(1), "user", "side"),
      message(4, id(2), "user", "second"),
      entryLine("label", id(5), id(4), at(5), { targetId: id(1), label: "start" }),
      message(6, id(5), "assistant", "reply"),
      // A compaction keeping 4 on: 1 and 2 are not read by a context below it.
      entryLine("compaction", id(7), id(6), at(7), { summary: "s", firstKeptEntryId: id(4), tokensBefore: 9 }),
      message(8, id(7), "toolResult", "out"),
    ];
    const bodies = scanSessionFile(write("kept.jsonl", lines)).bodies;
    // Positions: 0 → 1, 1 → 2, 2 → 3, 3 → 4, 4 → label 5, 5 → 6, 6 → compaction 7, 7 → 8.
    assert.deepEqual([...(bodies?.keys() ?? [])].sort(), [3, 5, 6, 7]);
    assert.equal((bodies?.get(6) as { summary?: string }).summary, "s");
  });

  test("a parent further back than the look-back starts the branch anew; big files keep nothing", () => {
    const lines: Line[] = [message(1, null, "user", "root")];
    for (let i = 2; i <= 400; i++) lines.push(message(i, id(i - 1), i % 2 ? "user" : "assistant", `m${i}`));
    // 401 hangs off 1, 399 entries down the branch: not found near its end, so only it and later ones are kept.
    lines.push(message(401, id(1), "user", "back to the start"), message(402, id(401), "assistant", "ok"));
    const file = write("far.jsonl", lines);
    assert.deepEqual([...(scanSessionFile(file).bodies?.keys() ?? [])], [400, 401]);
    assert.equal(scanSessionFile(file, { parseShort: false }).bodies, undefined);
  });

  test("once the first context is built they are let go: a body damaged since is found", async () => {
    const lines = [message(1, null, "user", "hello"), message(2, id(1), "assistant", "world")];
    const file = write("release.jsonl", lines);
    const sm = await SessionManager.open(file);
    const first = sm.buildSessionContext().messages;
    assert.equal(first.length, 2);
    // Damage line 3 (the assistant message) in place, same length: the next context reads it from the file.
    const text = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, text.replace('"text":"world"', '"text":"wor\u0001d"'));
    const second = sm.buildSessionContext().messages;
    assert.equal(second.length, 1, "the damaged body was kept from the open");
    assert.match(sm.getLoadIssues()[0]?.reason ?? "", /corrupt body/);
    await sm.close();
  });

  test("a file with a duplicate id (positions move) keeps nothing, and its context is right", async () => {
    const lines = [
      message(1, null, "user", "one"),
      message(2, id(1), "assistant", "two"),
      message(2, id(1), "assistant", "dup"),
      message(3, id(2), "user", "three"),
    ];
    const sm = await SessionManager.open(write("dup.jsonl", lines));
    const texts = sm.buildSessionContext().messages.map((m) => JSON.stringify((m as { content: unknown }).content));
    assert.deepEqual(texts, ['"one"', '[{"type":"text","text":"two"}]', '"three"']);
    await sm.close();
  });

  test("random trees: the first context after open equals the next one, read from the file", async () => {
    const op = fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({ k: fc.constant("msg" as const), back: fc.nat({ max: 3 }), text: fc.string() }),
      },
      { weight: 2, arbitrary: fc.record({ k: fc.constant("far" as const), to: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant("long" as const), text: fc.string() }) },
      {
        weight: 1,
        arbitrary: fc.record({ k: fc.constant("unicode" as const), text: fc.string({ unit: "grapheme" }) }),
      },
      { weight: 1, arbitrary: fc.record({ k: fc.constant("compact" as const), keep: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant("label" as const), to: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant("marker" as const), to: fc.nat() }) },
      { weight: 1, arbitrary: fc.record({ k: fc.constant("custom" as const), text: fc.string() }) },
    );
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 60 }), async (ops) => {
        const lines: Line[] = [];
        const ids: string[] = [];
        /** The branch the next entry hangs off (ids, root first). */
        let branch: string[] = [];
        const push = (line: Line, parent: string | null): void => {
          lines.push(line);
          ids.push(line.id as string);
          const k = parent === null ? -1 : branch.lastIndexOf(parent);
          branch = [...branch.slice(0, k + 1), line.id as string];
        };
        for (const o of ops) {
          const i = lines.length + 1;
          const leaf = branch.at(-1) ?? null;
          const roles = ["user", "assistant", "toolResult"] as const;
          switch (o.k) {
            case "msg": {
              const parent = branch[branch.length - 1 - Math.min(o.back, branch.length - 1)] ?? null;
              push(message(i, parent, roles[i % 3], o.text), parent);
              break;
            }
            case "far": {
              const parent = ids.length ? ids[o.to % ids.length] : null;
              push(message(i, parent, roles[i % 3], "far"), parent);
              break;
            }
            case "long":
              push(message(i, leaf, "toolResult", o.text + "x".repeat(5000)), leaf);
              break;
            case "unicode":
              push(message(i, leaf, roles[i % 3], `— ✓ ${o.text} é`), leaf);
              break;
            case "compact": {
              if (!branch.length) break;
              const keep = branch[o.keep % branch.length];
              push(
                entryLine("compaction", id(i), leaf, at(i), {
                  summary: "sum",
                  firstKeptEntryId: keep,
                  tokensBefore: 5,
                }),
                leaf,
              );
              break;
            }
            case "label":
              if (!ids.length) break;
              push(entryLine("label", id(i), leaf, at(i), { targetId: ids[o.to % ids.length], label: "l" }), leaf);
              break;
            case "marker": {
              if (!ids.length) break;
              const target = ids[o.to % ids.length];
              lines.push(
                entryLine("custom", id(i), target, at(i), {
                  customType: "agent-tree/leaf",
                  data: { targetId: target },
                }),
              );
              ids.push(id(i));
              break;
            }
            case "custom":
              push(
                entryLine("custom_message", id(i), leaf, at(i), { customType: "x", content: o.text, display: true }),
                leaf,
              );
              break;
          }
        }
        if (!lines.length) return;
        const file = write(`random-${run++}.jsonl`, lines);
        const sm = await SessionManager.open(file);
        try {
          const first = sm.buildSessionContext();
          const second = sm.buildSessionContext();
          assert.deepEqual(first, second);
          assert.deepEqual(sm.getLoadIssues(), []);
        } finally {
          await sm.close();
        }
      }),
      { numRuns: 150 },
    );
  });
});
