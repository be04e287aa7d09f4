import assert from "node:assert/strict";
import { describe, test } from "node:test";
import fc from "fast-check";
import { envelopeFromHead, envelopeFromHeadGeneric, parsePartialJson } from "../../../src/core/session/head-scan.js";
import { envelopeOf, type SessionEntry } from "../../../src/core/index.js";

const text = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.string({ unit: "grapheme", maxLength: 300 }),
  fc.constantFrom("  \n\t  ", 'quote " and \\ backslash', "emoji 😀😀 and é", "\u0000\u001f control"),
);

const entryArb = fc
  .record({
    id: fc.stringMatching(/^[0-9a-f]{8}$/),
    parentId: fc.option(fc.stringMatching(/^[0-9a-f]{8}$/), { nil: null }),
    kind: fc.constantFrom("userString", "userBlocks", "toolResult", "bash"),
    texts: fc.array(text, { minLength: 1, maxLength: 4 }),
    pad: fc.nat({ max: 3000 }),
  })
  .map(({ id, parentId, kind, texts, pad }): SessionEntry => {
    const body = texts.join("") + " tail".repeat(pad);
    const base = { type: "message" as const, id, parentId, timestamp: "2025-01-01T00:00:00.000Z" };
    switch (kind) {
      case "userString":
        return { ...base, message: { role: "user", content: body, timestamp: 1 } };
      case "userBlocks":
        return {
          ...base,
          message: {
            role: "user",
            content: [...texts.map((t) => ({ type: "text" as const, text: t })), { type: "text", text: body }],
            timestamp: 1,
          },
        };
      case "toolResult":
        return {
          ...base,
          message: {
            role: "toolResult",
            toolCallId: "c1",
            toolName: texts[0],
            content: [{ type: "text", text: body }],
            isError: false,
            timestamp: 1,
          },
        };
      default:
        return {
          ...base,
          message: {
            role: "bashExecution",
            command: texts[0],
            output: body,
            exitCode: 0,
            cancelled: false,
            truncated: false,
            timestamp: 1,
          },
        };
    }
  });

describe("head scan", () => {
  test("parsePartialJson: whole objects and arrays parse exactly; every prefix parses or reports truncation", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())),
        fc.nat(),
        (value, cut) => {
          const s = JSON.stringify(value);
          const whole = parsePartialJson(s);
          assert.equal(whole.complete, true);
          assert.deepEqual(whole.value, JSON.parse(s));
          const prefix = s.slice(0, cut % (s.length + 1));
          if (prefix.length < s.length) assert.doesNotThrow(() => parsePartialJson(prefix));
        },
      ),
      { numRuns: 300 },
    );
  });

  test("parsePartialJson keeps __proto__ as an own key, like JSON.parse", () => {
    const text = '{"a":{"__proto__":{"polluted":true}}}';
    assert.deepEqual(parsePartialJson(text).value, JSON.parse(text));
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test("parsePartialJson rejects text that is not a JSON prefix", () => {
    for (const bad of ["{a", '{"a" 1}', "[1 2]", "nul!", '{"a":1,}x'])
      assert.throws(() => parsePartialJson(bad), SyntaxError);
  });

  test("envelopeFromHead never disagrees with envelopeOf, for any head length", () => {
    fc.assert(
      fc.property(entryArb, fc.integer({ min: 60, max: 9000 }), (entry, headLen) => {
        const line = JSON.stringify(entry);
        const expected = envelopeOf(entry);
        const env = envelopeFromHead(line.slice(0, headLen));
        if (env) assert.deepEqual(env, expected);
        const generic = envelopeFromHeadGeneric(line.slice(0, headLen));
        if (generic) assert.deepEqual(generic, expected);
      }),
      { numRuns: 500 },
    );
  });

  test("envelopeFromHead proves typical large tool outputs from 1 KB", () => {
    const entry = {
      type: "message",
      id: "0123abcd",
      parentId: "89abcdef",
      timestamp: "2025-01-01T00:00:00.000Z",
      message: {
        role: "toolResult",
        toolCallId: "toolu_01ABC",
        toolName: "bash",
        content: [{ type: "text", text: "x ".repeat(5000) }],
        isError: false,
        timestamp: 1,
      },
    } as SessionEntry;
    const env = envelopeFromHead(JSON.stringify(entry).slice(0, 1024));
    assert.deepEqual(env, envelopeOf(entry));
    const assistantLine = JSON.stringify({
      ...entry,
      message: { role: "assistant", content: [{ type: "text", text: "y".repeat(5000) }] },
    });
    assert.equal(envelopeFromHead(assistantLine.slice(0, 1024)), undefined, "assistant lines are parsed whole");
  });
});

describe("previews", () => {
  test("collapseWhitespace equals replace(/\\s+/g, ' ').trim().slice(0, n)", async () => {
    const { collapseWhitespace } = await import("../../../src/core/session/preview.js");
    const ws = fc.constantFrom(" ", "\n", "\t", "\u00a0", "\u2028", "\ufeff", "\r\n", "   ");
    const piece = fc.oneof(fc.string({ maxLength: 30 }), ws, fc.string({ unit: "grapheme", maxLength: 5 }));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 250 }), (parts, n) => {
        const t = parts.join("");
        assert.equal(collapseWhitespace(t, n), t.replace(/\s+/g, " ").trim().slice(0, n));
      }),
      { numRuns: 1000 },
    );
  });
});
