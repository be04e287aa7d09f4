/**
 * Reading ahead on another thread (read-ahead.ts, session-scan.ts): the parts come back as the file holds them
 * whichever thread read them, through a ring smaller than the file; and a file scanned with read-ahead gives
 * exactly what the same scan without it gives — entries, offsets, line numbers, issues, torn and glued lines,
 * lines across any number of chunk ends, a last line with or without its newline.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import { ReadAhead } from "../../../src/core/session/read-ahead.js";
import { scanSessionFile, type ScanResult } from "../../../src/core/session/session-scan.js";
import { tempDir } from "../../util/temp-dir.js";

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Bytes of a file whose every byte tells its offset apart from its neighbours'. */
function patterned(size: number): Buffer {
  const b = Buffer.allocUnsafe(size);
  for (let i = 0; i < size; i++) b[i] = (i * 31 + (i >> 8)) & 0xff;
  return b;
}

describe("read-ahead", () => {
  test("every part is the file's bytes, read by the worker through a ring of two slots", async () => {
    const { dir, cleanup } = tempDir("read-ahead-");
    try {
      const file = path.join(dir, "f.bin");
      const bytes = patterned(64 * 1024 + 123);
      fs.writeFileSync(file, bytes);
      const fd = fs.openSync(file, "r");
      const slot = 4096;
      const reader = new ReadAhead(fd, bytes.length, slot, 2);
      try {
        // Give the worker time to start and fill the ring (it then waits for a slot to be released).
        for (let i = 0; i < 200 && reader.partsReadByWorker < 2; i++) await sleep(25);
        assert.equal(reader.partsReadByWorker, 2, "the worker filled both slots and waits");
        for (let part = 0; part < reader.parts; part++) {
          reader.release(part);
          const view = reader.part(part);
          assert.deepEqual(
            view,
            bytes.subarray(part * slot, Math.min((part + 1) * slot, bytes.length)),
            `part ${part}`,
          );
          // Now and then let the worker catch up, so both threads read parts.
          if (part % 5 === 0) await sleep(5);
        }
        assert.ok(
          reader.partsReadByWorker > 2,
          `the worker read on after slots were released (${reader.partsReadByWorker})`,
        );
      } finally {
        reader.close();
        fs.closeSync(fd);
      }
    } finally {
      cleanup();
    }
  });

  test("without the worker's help (closed at once), this thread reads every part itself", () => {
    const { dir, cleanup } = tempDir("read-ahead-");
    try {
      const file = path.join(dir, "f.bin");
      const bytes = patterned(10_000);
      fs.writeFileSync(file, bytes);
      const fd = fs.openSync(file, "r");
      const reader = new ReadAhead(fd, bytes.length, 1000, 3);
      try {
        const seen = [];
        for (let part = 0; part < reader.parts; part++) {
          reader.release(part);
          seen.push(Buffer.from(reader.part(part)));
        }
        assert.deepEqual(Buffer.concat(seen), bytes);
      } finally {
        reader.close();
        fs.closeSync(fd);
      }
    } finally {
      cleanup();
    }
  });
});

// ---------------------------------------------------------------- scans with and without read-ahead

const id = (n: number): string => `e${n.toString(16).padStart(7, "0")}`;

/** A line of a random kind: whole entries (short and long), damage, and glued writes. */
const lineArb = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({ kind: fc.constant("user"), text: fc.string({ unit: "grapheme", maxLength: 80 }) }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("tool"), size: fc.integer({ min: 1, max: 30_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("assistant"), size: fc.integer({ min: 0, max: 12_000 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom("garbage", "glued", "blank", "label") }) },
);

type LineSpec = { kind: string; text?: string; size?: number };

function lineText(spec: LineSpec, n: number): string {
  const base = { id: id(n), parentId: n === 0 ? null : id(n - 1), timestamp: "2026-01-05T09:00:04.000Z" };
  switch (spec.kind) {
    case "user":
      return JSON.stringify({ type: "message", ...base, message: { role: "user", content: spec.text } });
    case "tool":
      return JSON.stringify({
        type: "message",
        ...base,
        message: {
          role: "toolResult",
          toolCallId: "t",
          toolName: "read",
          content: [{ type: "text", text: 'out "q" ✓\n'.repeat(Math.ceil((spec.size ?? 1) / 11)) }],
        },
      });
    case "assistant":
      return JSON.stringify({
        type: "message",
        ...base,
        message: {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "t".repeat(spec.size ?? 0), thinkingSignature: "sig" },
            { type: "text", text: "answer — done" },
            { type: "toolCall", id: "c", name: "bash", arguments: { command: "ls" } },
          ],
          provider: "anthropic",
          model: "m",
          usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { total: 0.0036 } },
          stopReason: "toolUse",
        },
      });
    case "garbage":
      return '{"type":"message","id":"x' + n + '", not json';
    case "glued":
      return (
        JSON.stringify({ type: "label", ...base, targetId: id(0), label: "a" }) +
        JSON.stringify({ type: "label", ...base, id: `${id(n)}g`, targetId: id(0), label: "b" })
      );
    case "blank":
      return "";
    default:
      return JSON.stringify({ type: "label", ...base, targetId: id(0), label: "l" });
  }
}

/** The result without what depends on how it was read (nothing should). */
function comparable(r: ScanResult): unknown {
  return {
    ...r,
    entries: {
      envs: r.entries.envs,
      metas: r.entries.metas,
      offsets: Array.from(r.entries.offsets.subarray(0, r.entries.length)),
      sizes: Array.from(r.entries.sizes.subarray(0, r.entries.length)),
      lines: Array.from(r.entries.lines.subarray(0, r.entries.length)),
    },
  };
}

describe("scans read ahead", () => {
  test("equal the scan without read-ahead: any chunk size, long lines, damage, any ending", async () => {
    const { dir, cleanup } = tempDir("read-ahead-scan-");
    try {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(lineArb, { minLength: 0, maxLength: 30 }),
          fc.integer({ min: 16, max: 40_000 }),
          fc.constantFrom("\n", "", "torn"),
          async (specs, chunkBytes, ending) => {
            const file = path.join(dir, `s${run++}.jsonl`);
            const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" });
            const lines = [header, ...specs.map((s, i) => lineText(s, i))];
            let text = lines.join("\n");
            if (ending === "\n") text += "\n";
            else if (ending === "torn") text += '\n{"type":"message","id":"torn","parentId":null,"timestamp":"t","mess';
            fs.writeFileSync(file, text);
            for (const strict of [false, true]) {
              const plain = scanSessionFile(file, { chunkBytes, strict, readAhead: false });
              const ahead = scanSessionFile(file, { chunkBytes, strict, readAhead: true });
              assert.deepEqual(comparable(ahead), comparable(plain));
            }
            fs.rmSync(file);
          },
        ),
        { numRuns: 80 },
      );
    } finally {
      cleanup();
    }
  });

  test("a file big enough for the worker to join the scan reads the same", () => {
    const { dir, cleanup } = tempDir("read-ahead-scan-");
    try {
      const file = path.join(dir, "big.jsonl");
      const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" });
      const specs: LineSpec[] = [];
      for (let i = 0; i < 1500; i++)
        specs.push(
          i % 3 === 0
            ? { kind: "tool", size: 4000 + (i % 7) * 900 }
            : i % 3 === 1
              ? { kind: "assistant", size: 2000 }
              : { kind: "user", text: `q ${i}` },
        );
      fs.writeFileSync(file, [header, ...specs.map((s, i) => lineText(s, i))].join("\n") + "\n");
      const plain = scanSessionFile(file, { chunkBytes: 64 * 1024, readAhead: false });
      const ahead = scanSessionFile(file, { chunkBytes: 64 * 1024, readAhead: true });
      assert.equal(plain.entries.length, 1500);
      assert.deepEqual(comparable(ahead), comparable(plain));
    } finally {
      cleanup();
    }
  });
});
