import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import { envelopeFromPiBytes } from "../../../src/core/session/byte-head.js";
import { metaOf } from "../../../src/core/session/entry-record.js";
import { collapseJsonString } from "../../../src/core/session/head-scan.js";
import { collapseWhitespace } from "../../../src/core/session/preview.js";
import { envelopeOf, SessionManager, type SessionEntry } from "../../../src/core/index.js";

const text = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: "grapheme", maxLength: 200 }),
  fc.constantFrom(
    "",
    "   \n\t ",
    'quote " and \\ backslash',
    "emoji 😀😀 and é",
    "\u00a0\u2028 odd spaces",
    "x".repeat(3000),
  ),
);

const block = fc.oneof(
  fc.record({ type: fc.constant("thinking"), thinking: text, thinkingSignature: fc.base64String({ maxLength: 400 }) }),
  fc.record({ type: fc.constant("text"), text }),
  fc.record({
    type: fc.constant("toolCall"),
    id: fc.stringMatching(/^toolu_[0-9a-z]{4}$/),
    name: fc.oneof(fc.constantFrom("read", "bash", "edit"), fc.string({ maxLength: 20 })),
    arguments: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 })),
  }),
  // Odd blocks the envelope must ignore.
  fc.record({ type: fc.constantFrom("image", 7), text }),
  fc.constantFrom("a bare string", 42, null, [1, 2]),
);

/** Assistant entries in pi's envelope layout; message keys in any order, with optional fields. */
const entryArb = fc
  .record({
    id: fc.stringMatching(/^[0-9a-f]{8}$/),
    parentId: fc.option(fc.stringMatching(/^[0-9a-f]{8}$/), { nil: null }),
    content: fc.oneof(fc.array(block, { maxLength: 5 }), text),
    provider: fc.option(fc.constantFrom("anthropic", "openai"), { nil: undefined }),
    model: fc.option(fc.oneof(fc.constantFrom("claude-sonnet-4-5"), fc.integer()), { nil: undefined }),
    stopReason: fc.option(fc.constantFrom("stop", "toolUse", "error", "aborted"), { nil: undefined }),
    errorMessage: fc.option(text, { nil: undefined }),
    // pi's whole usage, a partial one (other writers), odd values the store must read as 0, or none.
    usage: fc.option(
      fc.oneof(
        fc.record({
          input: fc.nat(),
          output: fc.nat(),
          cacheRead: fc.nat(),
          cacheWrite: fc.nat(),
          totalTokens: fc.nat(),
          cost: fc.record({ input: fc.double({ min: 0, max: 1, noNaN: true }), total: fc.double({ noNaN: true }) }),
        }),
        fc.record({
          input: fc.nat(),
          output: fc.constantFrom("7", null),
          cost: fc.constantFrom(null, 3, { total: 1 }),
        }),
        fc.constantFrom(null, "none", [1, 2]),
      ),
      { nil: undefined },
    ),
    pad: fc.nat({ max: 6000 }),
    shuffle: fc.boolean(),
  })
  .map(({ id, parentId, content, provider, model, stopReason, errorMessage, usage, pad, shuffle }): SessionEntry => {
    const fields: [string, unknown][] = [
      ["content", content],
      ["api", "anthropic-messages"],
      ["provider", provider],
      ["model", model],
      ["usage", usage],
      ["stopReason", stopReason],
      ["errorMessage", errorMessage],
      ["padding", "p".repeat(pad)],
      ["timestamp", 1767603604000],
    ];
    if (shuffle) fields.reverse();
    const message: Record<string, unknown> = { role: "assistant" };
    for (const [k, v] of fields) if (v !== undefined) message[k] = v;
    return {
      type: "message",
      id,
      parentId,
      timestamp: "2026-01-05T09:00:04.000Z",
      message,
    } as unknown as SessionEntry;
  });

/** The entry as its line reads back (JSON has no -0, NaN or Infinity). */
function reparsed(entry: SessionEntry): SessionEntry {
  return JSON.parse(JSON.stringify(entry)) as SessionEntry;
}

function skim(line: string): ReturnType<typeof envelopeFromPiBytes> {
  const buf = Buffer.from(line);
  return envelopeFromPiBytes(buf, 0, buf.length);
}

describe("assistant skim", () => {
  test("never disagrees with envelopeOf / metaOf of the parsed line", () => {
    let taken = 0;
    fc.assert(
      fc.property(entryArb, (entry) => {
        const got = skim(JSON.stringify(entry));
        if (!got) return;
        taken++;
        assert.deepEqual(got.env, envelopeOf(entry));
        assert.deepEqual(got.meta ?? {}, metaOf(reparsed(entry)));
      }),
      { numRuns: 600 },
    );
    assert.ok(taken > 300, `the skim should take most lines (took ${taken} of 600)`);
  });

  test("takes pi's usual assistant lines (thinking + tool call, thinking + long text)", () => {
    const base = { type: "message", id: "0123abcd", parentId: "89abcdef", timestamp: "2026-01-05T09:00:04.000Z" };
    const tail = {
      api: "anthropic-messages",
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      stopReason: "toolUse",
    };
    const thinking = {
      type: "thinking",
      thinking: 'so "quoted" \\ text\n'.repeat(400),
      thinkingSignature: "c2ln".repeat(300),
    };
    for (const content of [
      [thinking, { type: "toolCall", id: "t1", name: "read", arguments: { path: 'a "b".ts' } }],
      [thinking, { type: "text", text: "Answer:\n\n" + "word ".repeat(1000) }],
    ]) {
      const entry = { ...base, message: { role: "assistant", content, ...tail } } as unknown as SessionEntry;
      const got = skim(JSON.stringify(entry));
      assert.ok(got, "skim takes the line");
      assert.deepEqual(got.env, envelopeOf(entry));
      assert.deepEqual(got.meta, metaOf(entry));
    }
  });

  test("gives up on lines it cannot prove: keys after message, cut lines, escaped keys, other roles", () => {
    const entry = {
      type: "message",
      id: "0123abcd",
      parentId: null,
      timestamp: "2026-01-05T09:00:04.000Z",
      message: { role: "assistant", content: [{ type: "text", text: "hello" }], provider: "p", model: "m" },
    };
    const line = JSON.stringify(entry);
    assert.ok(skim(line));
    assert.equal(skim(line.slice(0, -1) + ',"id":"other"}'), undefined, "a later duplicate key");
    assert.equal(skim(line.slice(0, line.length - 20)), undefined, "a cut line");
    assert.equal(skim(line.replace('"content"', '"conte\\u006et"')), undefined, "an escaped key");
    assert.equal(skim(line.replace('"role":"assistant"', '"role":"user"')), undefined, "another role");
    assert.equal(skim(line.replace(',"provider"', ',"role":"user","provider"')), undefined, "role changed later");
  });

  test("a session of large assistant lines opens with envelopes and context equal to a full parse", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "skim-"));
    try {
      const file = path.join(dir, "s.jsonl");
      const entries = fc.sample(entryArb, { numRuns: 120, seed: 7 });
      let parent: string | null = null;
      const lines = [JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "t", cwd: dir })];
      entries.forEach((e, i) => {
        const entry = { ...e, id: `e${String(i).padStart(7, "0")}`, parentId: parent };
        parent = entry.id;
        lines.push(JSON.stringify(entry));
        entries[i] = entry;
      });
      fs.writeFileSync(file, lines.join("\n") + "\n");
      const sm = await SessionManager.open(file, { readOnly: true });
      const envs = sm.getEnvelopes();
      entries.forEach((e, i) => assert.deepEqual(envs[i], envelopeOf(e), `envelope of line ${i + 2}`));
      entries.forEach((e, i) =>
        assert.deepEqual(sm.getUsage(e.id), metaOf(reparsed(e)).usage, `usage of line ${i + 2}`),
      );
      const ctx = sm.buildSessionContext();
      const lastModel = [...entries]
        .reverse()
        .map(metaOf)
        .find((m) => m.model)?.model;
      assert.deepEqual(ctx.model, lastModel);
      assert.equal(ctx.messages.length, entries.length);
      await sm.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Pi's user / toolResult / bashExecution lines (pi's key order), with odd text. */
const piEntryArb = fc
  .record({
    id: fc.stringMatching(/^[0-9a-zA-Z_-]{1,40}$/),
    parentId: fc.option(fc.stringMatching(/^[0-9a-f]{8}$/), { nil: null }),
    kind: fc.constantFrom("userString", "userBlocks", "toolResult", "bash"),
    texts: fc.array(text, { minLength: 1, maxLength: 3 }),
    toolName: fc.oneof(fc.constantFrom("read", "bash", "mcp.tool:x"), fc.string({ maxLength: 12 })),
    pad: fc.nat({ max: 600 }),
  })
  .map(({ id, parentId, kind, texts, toolName, pad }): SessionEntry => {
    const body = texts.join("") + " tail".repeat(pad);
    const base = { type: "message" as const, id, parentId, timestamp: "2025-01-01T00:00:00.000Z" };
    switch (kind) {
      case "userString":
        return { ...base, message: { role: "user", content: body, timestamp: 1 } };
      case "userBlocks":
        return {
          ...base,
          message: { role: "user", content: texts.map((t) => ({ type: "text" as const, text: t })), timestamp: 1 },
        };
      case "toolResult":
        return {
          ...base,
          message: {
            role: "toolResult",
            toolCallId: 'c"1',
            toolName,
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

describe("envelope from bytes", () => {
  test("never disagrees with envelopeOf / metaOf, for every role, and takes most pi lines", () => {
    let taken = 0;
    let runs = 0;
    fc.assert(
      fc.property(fc.oneof(piEntryArb, entryArb), (entry) => {
        runs++;
        const buf = Buffer.from(JSON.stringify(entry));
        const got = envelopeFromPiBytes(buf, 0, buf.length);
        if (!got) return;
        taken++;
        assert.deepEqual(got.env, envelopeOf(entry));
        assert.deepEqual(got.meta ?? {}, metaOf(reparsed(entry)));
      }),
      { numRuns: 1000 },
    );
    assert.ok(taken > runs / 2, `took ${taken} of ${runs}`);
  });

  test("gives up on lines that are not in pi's layout or not valid", () => {
    const entry = {
      type: "message",
      id: "0123abcd",
      parentId: "89abcdef",
      timestamp: "2025-01-01T00:00:00.000Z",
      message: { role: "user", content: "word ".repeat(100) },
    };
    const line = JSON.stringify(entry);
    const take = (l: string): unknown => envelopeFromPiBytes(Buffer.from(l), 0, Buffer.byteLength(l));
    assert.ok(take(line));
    assert.equal(take(line.replace('"id":"0123abcd"', '"id":"01 3"')), undefined, "id with a space");
    assert.equal(take(line.replace('{"type":"message",', '{"type":"message" ,')), undefined, "not pi's layout");
    assert.equal(take(line.replace("word word", "word\\qword")), undefined, "a bad escape");
    assert.equal(take(line.slice(0, 150)), undefined, "cut before the text ends");
    const bad = Buffer.from(line);
    bad[120] = 0xff;
    assert.equal(envelopeFromPiBytes(bad, 0, bad.length), undefined, "invalid UTF-8");
  });
});

describe("collapseJsonString", () => {
  test("equals collapseWhitespace of the decoded string, or a prefix of it when the text is cut", () => {
    fc.assert(
      fc.property(
        text,
        fc.constantFrom("", "$ "),
        fc.nat(),
        fc.integer({ min: 1, max: 250 }),
        (t, lead, cut, limit) => {
          const s = JSON.stringify(t);
          const head = s.slice(0, 1 + (cut % s.length));
          const got = collapseJsonString(head, 1, lead, limit);
          assert.ok(got, "valid string text is accepted");
          const full = collapseWhitespace(lead + t, limit);
          if (got.closed) assert.equal(got.text, full);
          else {
            assert.ok(full.startsWith(got.text), `${JSON.stringify(got.text)} is a prefix of ${JSON.stringify(full)}`);
            if (got.text.length === limit) assert.equal(got.text, full);
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  test("rejects text that is not JSON string content", () => {
    assert.equal(collapseJsonString('"a\\qb"', 1, "", 10), undefined);
    assert.equal(collapseJsonString('"a\\u12zzb"', 1, "", 10), undefined);
    assert.equal(collapseJsonString('"a\u0001b"', 1, "", 10), undefined);
  });
});
