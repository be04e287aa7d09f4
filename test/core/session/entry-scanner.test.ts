/**
 * The entry scanner (entry-scanner.ts) against JSON.parse of the same lines: for any valid JSON — keys in any
 * order, whitespace anywhere, strings written with `\u` escapes, surrogate pairs, unknown fields, texts around
 * the preview's length and lines around the early-stop size — what the store keeps (envelope, meta, activity)
 * equals envelopeOf / metaOf / activityOf of the parsed line, whether the scanner answers or leaves the line
 * to JSON.parse. And a whole session scanned in chunks of any size (lines across every chunk end) equals a
 * full parse.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import fc from "fast-check";
import {
  entryShapeError,
  factsOfEntry,
  isLineFailure,
  readEntryLine,
  readEntryText,
} from "../../../src/core/session/entry-line.js";
import { metaOf, type EntryMeta } from "../../../src/core/session/entry-meta.js";
import { scanEntry, type EntryFacts } from "../../../src/core/session/entry-scanner.js";
import { numberEnd, numberValue, stringEndFrom } from "../../../src/core/session/json-bytes.js";
import { PreviewBuilder } from "../../../src/core/session/preview-bytes.js";
import { collapseWhitespace } from "../../../src/core/session/preview.js";
import { scanSessionFile } from "../../../src/core/session/session-scan.js";
import { SessionManager, type SessionEntry } from "../../../src/core/index.js";
import { tempDir } from "../../util/temp-dir.js";

// ---------------------------------------------------------------- a JSON writer with every freedom JSON allows

/** Choices for one serialization, drawn from a seed. */
function chooser(seed: number): (n: number) => number {
  let s = seed >>> 0 || 1;
  return (n) => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) % n;
  };
}

const SPACES = ["", "", "", " ", "\t", "\r ", "  "]; // no newline: a JSONL line holds none

/** A JSON string literal with some characters escaped as `\uXXXX` (or `\/`), as any writer may. */
function stringLiteral(s: string, pick: (n: number) => number, escapeRate: number): string {
  let out = '"';
  for (const ch of s) {
    const plain = JSON.stringify(ch).slice(1, -1);
    if (escapeRate > 0 && pick(100) < escapeRate) {
      if (ch === "/") out += "\\/";
      else for (let i = 0; i < ch.length; i++) out += "\\u" + ch.charCodeAt(i).toString(16).padStart(4, "0");
    } else out += plain;
  }
  return out + '"';
}

/**
 * `value` as JSON text: keys shuffled (when `shuffle`), whitespace between tokens, strings partly escaped
 * (`escapeRate` percent of their characters; keys too when `escapeKeys`).
 */
function writeJson(
  value: unknown,
  pick: (n: number) => number,
  opts: { shuffle: boolean; spaces: boolean; escapeRate: number; escapeKeys: boolean },
): string {
  const ws = (): string => (opts.spaces ? SPACES[pick(SPACES.length)] : "");
  if (typeof value === "string") return stringLiteral(value, pick, opts.escapeRate);
  if (Array.isArray(value))
    return "[" + ws() + value.map((v) => writeJson(v, pick, opts)).join(ws() + "," + ws()) + ws() + "]";
  if (typeof value === "object" && value !== null) {
    const keys = Object.keys(value);
    if (opts.shuffle)
      for (let i = keys.length - 1; i > 0; i--) {
        const j = pick(i + 1);
        [keys[i], keys[j]] = [keys[j], keys[i]];
      }
    const members = keys
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map(
        (k) =>
          stringLiteral(k, pick, opts.escapeKeys ? opts.escapeRate : 0) +
          ws() +
          ":" +
          ws() +
          writeJson((value as Record<string, unknown>)[k], pick, opts),
      );
    return "{" + ws() + members.join(ws() + "," + ws()) + ws() + "}";
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------- random entries

const text = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 60 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    "   \n\t ",
    'quote " and \\ backslash / slash',
    "emoji 😀😀 and é, 中文",
    "\u00a0\u2028\u2029\u3000\ufeff odd spaces",
    "\u0000\u0001\u001f\b\f control",
    "lone \ud800 and \udfff surrogates",
  ),
);

/** A text whose length lands near the preview's 200 characters (or far past it). */
const longText = fc
  .tuple(text, fc.integer({ min: 150, max: 260 }), fc.constantFrom("word ", "x", "  \n", "é ", "😀"))
  .map(([t, n, unit]) => t + unit.repeat(Math.ceil(n / unit.length)));

const anyText = fc.oneof({ weight: 3, arbitrary: text }, { weight: 2, arbitrary: longText });

const block = fc.oneof(
  fc.record({ type: fc.constant("text"), text: anyText }),
  fc.record({
    type: fc.constant("thinking"),
    thinking: anyText,
    thinkingSignature: fc.base64String({ maxLength: 200 }),
  }),
  fc.record({
    type: fc.constant("toolCall"),
    id: fc.stringMatching(/^toolu_[0-9a-z]{4}$/),
    name: fc.oneof(fc.constantFrom("read", "bash", "edit"), text),
    arguments: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 })),
  }),
  fc.record({ type: fc.constantFrom("image", 7, null), text: anyText, name: text }),
  fc.record({ text: anyText }, { requiredKeys: [] }),
  fc.constantFrom("a bare string", 42, null, [1, [2]], { type: "text" }, { type: "text", text: 5 }),
);

const content = fc.oneof(anyText, fc.array(block, { maxLength: 5 }), fc.constantFrom(null, 3, {}));

/** Optional fields: undefined leaves the key out. */
const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(a, { nil: undefined });

/** pi's whole usage, a partial one (other writers), odd values the store must read as 0, or no object at all. */
const usage = fc.oneof(
  fc.record({
    input: fc.nat(),
    output: fc.nat(),
    cacheRead: fc.nat(),
    cacheWrite: fc.nat(),
    totalTokens: fc.nat(),
    cost: fc.record({ input: fc.double({ min: 0, max: 1, noNaN: true }), total: fc.double({ noNaN: true }) }),
  }),
  fc.record({ input: fc.nat(), output: fc.constantFrom("7", null), cost: fc.constantFrom(null, 3, { total: 1 }) }),
  // pi-ai's optional counts, signs, exponents, booleans, unknown keys, a cost of another type.
  fc.record(
    {
      input: fc.integer(),
      output: fc.double({ noNaN: true }),
      cacheWrite1h: fc.oneof(fc.nat(), fc.constant(true), fc.constant(null)),
      reasoning: fc.double({ noNaN: true }),
      note: fc.oneof(fc.integer(), fc.boolean(), fc.constant(null), text, fc.constant({ a: [1] })),
      cost: fc.oneof(
        fc.record(
          {
            total: fc.double({ noNaN: true }),
            cacheRead: fc.constantFrom(1e21, -0, 5e-324, "1"),
            totalFromProvider: fc.oneof(fc.boolean(), fc.constant(null), fc.constant(1)),
          },
          { requiredKeys: [] },
        ),
        fc.constantFrom(null, 3, false, [1]),
      ),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom(null, "none", [1, 2]),
);

const message = fc.oneof(
  fc.record({
    role: fc.constant("user"),
    content: opt(content),
    timestamp: opt(fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant("t"))),
  }),
  fc.record({
    role: fc.constant("assistant"),
    content: opt(content),
    api: opt(fc.constant("anthropic-messages")),
    provider: opt(fc.oneof(fc.constantFrom("anthropic", "openai"), text, fc.integer())),
    model: opt(fc.oneof(fc.constantFrom("claude-sonnet-4-5"), text, fc.constant(null))),
    usage: opt(usage),
    stopReason: opt(fc.oneof(fc.constantFrom("stop", "toolUse", "error", "aborted"), text)),
    errorMessage: opt(fc.oneof(anyText, fc.constant(7))),
    timestamp: opt(fc.integer()),
  }),
  fc.record({
    role: fc.constant("toolResult"),
    toolCallId: opt(text),
    toolName: opt(fc.oneof(fc.constantFrom("read", "bash", "mcp.tool:x"), text, fc.constant(false))),
    content: opt(content),
    details: opt(fc.jsonValue({ maxDepth: 3 })),
    isError: opt(fc.boolean()),
    timestamp: opt(fc.integer()),
  }),
  fc.record({
    role: fc.constant("bashExecution"),
    command: opt(fc.oneof(anyText, fc.constant(12))),
    output: opt(anyText),
    exitCode: opt(fc.integer()),
  }),
  fc.record({
    role: fc.constantFrom("custom", "system", "branchSummary", "compactionSummary", "someFutureRole"),
    content: opt(content),
    summary: opt(anyText),
    sections: opt(fc.dictionary(fc.string({ maxLength: 5 }), text)),
  }),
  fc.record({ content: opt(content) }),
  fc.constantFrom(null, "not an object", 5),
);

const id = fc.oneof(fc.stringMatching(/^[0-9a-f]{8}$/), fc.uuid(), text);

/** Entries of every type; message entries (the scanner's) most often. */
const entryArb: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      type: fc.constant("message"),
      id,
      parentId: fc.oneof(fc.constant(null), id),
      timestamp: fc.oneof(fc.constant("2026-01-05T09:00:04.000Z"), text),
      message,
      extra: opt(fc.jsonValue({ maxDepth: 2 })),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constantFrom("label", "custom", "compaction", "model_change", "branch_summary", "usage", "unknown_type"),
      id,
      parentId: fc.oneof(fc.constant(null), id),
      timestamp: text,
      targetId: opt(id),
      label: opt(text),
      customType: opt(fc.constantFrom("agent-tree/leaf", "x")),
      data: opt(fc.record({ targetId: id })),
      summary: opt(anyText),
      tokensBefore: opt(fc.nat()),
      firstKeptEntryId: opt(id),
      provider: opt(text),
      modelId: opt(text),
      fromId: opt(id),
      usage: opt(usage),
    }),
  },
  // Not entries at all (no id, a wrong parentId): the store skips them, whichever reader sees them.
  {
    weight: 1,
    arbitrary: fc.record({
      type: fc.constant("message"),
      id: opt(fc.oneof(id, fc.constant(""), fc.integer())),
      parentId: opt(fc.oneof(fc.constant(null), id, fc.integer())),
      timestamp: opt(fc.oneof(text, fc.integer())),
      message,
    }),
  },
);

/** How a line is written. */
interface Layout {
  seed: number;
  shuffle: boolean;
  spaces: boolean;
  escapeRate: number;
  escapeKeys: boolean;
  pad: number;
}

/** Writing options: pi's compact layout most often, every other freedom too. */
const layout: fc.Arbitrary<Layout> = fc.record({
  seed: fc.integer(),
  shuffle: fc.boolean(),
  spaces: fc.boolean(),
  escapeRate: fc.constantFrom(0, 0, 5, 50),
  escapeKeys: fc.boolean(),
  /** Pads the line past the scanner's early-stop size (a large tool output). */
  pad: fc.constantFrom(0, 0, 4000, 5000),
});

function lineOf(entry: Record<string, unknown>, l: Layout): string {
  let e = entry;
  if (l.pad > 0 && typeof e.message === "object" && e.message !== null)
    e = { ...e, message: { ...(e.message as object), output: "o".repeat(l.pad) } };
  return writeJson(e, chooser(l.seed), l);
}

/** Every field of EntryMeta (the compiler checks the list is whole). */
const META_FIELDS = Object.keys({
  model: true,
  usage: true,
  thinkingLevel: true,
  labelTarget: true,
  label: true,
  markerTarget: true,
  archive: true,
  firstKeptEntryId: true,
  name: true,
} satisfies Record<keyof EntryMeta, true>) as (keyof EntryMeta)[];

/**
 * What a meta answers, as a plain object: a short line's assistant meta reads its token use when first asked
 * (entry-meta.ts, parsedAssistantMeta), the others hold it; both must answer the same.
 */
function metaAnswers(meta: EntryMeta): Partial<EntryMeta> {
  const out: Record<string, unknown> = {};
  for (const k of META_FIELDS) if (meta[k] !== undefined) out[k] = meta[k];
  return out;
}

/** `r` with its meta as metaAnswers gives it. */
function answers<T>(r: T): T {
  if (typeof r !== "object" || r === null || !("meta" in r)) return r;
  return { ...r, meta: metaAnswers(r.meta as EntryMeta) };
}

/** What the store must keep for a line: the facts of the parsed entry, or no entry. */
function expected(line: string): EntryFacts | undefined {
  const v = JSON.parse(line) as unknown;
  return entryShapeError(v) ? undefined : factsOfEntry(v as SessionEntry);
}

/** The store reads `line` (whoever reads it) as JSON.parse + factsOfEntry do, or as no entry when it is not JSON. */
function readsAsParsed(line: string, why: string): void {
  const r = readEntryLine(Buffer.from(line), 0, Buffer.byteLength(line), true);
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    assert.ok(isLineFailure(r), why);
    return;
  }
  assert.deepEqual(answers(r), answers(factsOfEntry(parsed as SessionEntry)), why);
}

describe("entry scanner", () => {
  test("reads every line as JSON.parse + envelopeOf / metaOf do, in any layout, or leaves it to JSON.parse", () => {
    let answered = 0;
    let runs = 0;
    fc.assert(
      fc.property(entryArb, layout, fc.boolean(), (entry, l, strict) => {
        runs++;
        const line = lineOf(entry, l);
        const buf = Buffer.from(line);
        const want = expected(line);
        const got = readEntryLine(buf, 0, buf.length, strict);
        if (want === undefined) assert.ok(isLineFailure(got), "a line that is no entry is not read as one");
        else assert.deepEqual(answers(got), answers(want));
        const fast = scanEntry(buf, 0, buf.length, strict);
        if (fast) {
          answered++;
          assert.deepEqual(answers(fast), answers(want));
        }
      }),
      { numRuns: 3000 },
    );
    // The random lines are meant to be hard (escaped keys, lone surrogates, other types): a quarter is enough
    // to show the scanner is not handing every line to JSON.parse (pi's own lines are the next test's).
    assert.ok(answered > runs / 4, `the scanner should read many lines itself (read ${answered} of ${runs})`);
  });

  test("the short-line reader (readEntryText) gives what entryShapeError and factsOfEntry give the parsed line", () => {
    // A small file's short lines go to readEntryText alone (session-scan.ts), which reads each field once itself.
    const shapes = fc.oneof(
      entryArb,
      fc.jsonValue({ maxDepth: 2 }),
      fc.record({
        type: fc.oneof(fc.constantFrom("message", "session", "label"), fc.integer(), fc.constant(null)),
        id: opt(fc.oneof(id, fc.constant(""), fc.integer(), fc.constant(null))),
        parentId: opt(fc.oneof(fc.constant(null), id, fc.integer(), fc.constant(false))),
        timestamp: opt(fc.oneof(text, fc.integer())),
        message: opt(message),
      }),
    );
    fc.assert(
      fc.property(shapes, (value) => {
        const line = JSON.stringify(value);
        const kept: unknown[] = [];
        const got = readEntryText(line, (e) => kept.push(e));
        const parsed = JSON.parse(line) as unknown;
        const shape = entryShapeError(parsed);
        if (shape) {
          assert.deepEqual(got, { kind: "shape", reason: shape, text: line });
          assert.equal(kept.length, 0, "a line that is no entry is not kept");
        } else {
          assert.deepEqual(answers(got), answers(factsOfEntry(parsed as SessionEntry)));
          assert.deepEqual(kept, [parsed]);
        }
      }),
      { numRuns: 3000 },
    );
    assert.equal((readEntryText('{"type":"message"') as { kind?: string }).kind, "json", "a torn line is no JSON");
  });

  test("a parsed message's envelope is a plain object with the scanner's keys in the scanner's order", () => {
    // messageEnvelope makes them with a constructor (no allocation site, see preview.ts): nothing may tell them from
    // the literals the entry scanner makes — prototype, keys, their order (JSON.stringify, structuredClone).
    const base = { type: "message", id: "0123abcd", parentId: "89abcdef", timestamp: "2026-01-05T09:00:04.000Z" };
    const lines = [
      { ...base, message: { role: "user", content: "a question", timestamp: 1 } },
      { ...base, message: { role: "assistant", content: [{ type: "text", text: "an answer" }], stopReason: "stop" } },
      {
        ...base,
        message: { role: "assistant", content: [{ type: "toolCall", id: "c", name: "bash", arguments: {} }] },
      },
      { ...base, message: { role: "assistant", content: [], stopReason: "aborted", errorMessage: "stopped" } },
      { ...base, message: { role: "toolResult", toolName: "bash", content: [{ type: "text", text: "out" }] } },
    ].map((v) => JSON.stringify(v));
    for (const text of lines) {
      const parsed = readEntryText(text);
      const scanned = scanEntry(Buffer.from(text), 0, Buffer.byteLength(text), true);
      assert.ok(!isLineFailure(parsed) && scanned, text);
      assert.equal(Object.getPrototypeOf(parsed.env), Object.prototype);
      assert.deepEqual(Object.keys(parsed.env), Object.keys(scanned.env), text);
      assert.equal(JSON.stringify(parsed.env), JSON.stringify(scanned.env));
      assert.deepEqual(structuredClone(parsed.env), scanned.env);
    }
  });

  test("reads pi's own lines itself: user, assistant (thinking, text, tool calls), tool results, commands", () => {
    const base = { type: "message", id: "0123abcd", parentId: "89abcdef", timestamp: "2026-01-05T09:00:04.000Z" };
    const thinking = {
      type: "thinking",
      thinking: 'so "quoted" \\ text\n'.repeat(400),
      thinkingSignature: "c2ln".repeat(300),
    };
    const messages = [
      { role: "user", content: "hello " + "word ".repeat(100), timestamp: 1 },
      {
        role: "user",
        content: [
          { type: "text", text: "a" },
          { type: "image", data: "AAAA" },
        ],
        timestamp: 1,
      },
      {
        role: "assistant",
        content: [
          thinking,
          { type: "toolCall", id: "t1", name: "write", arguments: { path: "a.ts", content: 'x = "y";\n'.repeat(900) } },
        ],
        api: "anthropic-messages",
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        usage: { input: 1, output: 2, cost: { total: 0.5 } },
        stopReason: "toolUse",
        timestamp: 2,
      },
      {
        role: "assistant",
        content: [thinking, { type: "text", text: "Answer:\n\n" + "word ".repeat(1000) }],
        stopReason: "stop",
        timestamp: 3,
      },
      { role: "assistant", content: [], stopReason: "error", errorMessage: "boom ".repeat(100), timestamp: 4 },
      {
        role: "toolResult",
        toolCallId: "t1",
        toolName: "read",
        content: [{ type: "text", text: '1: const a = "b";\n'.repeat(800) }],
        isError: false,
        timestamp: 5,
      },
      {
        role: "bashExecution",
        command: "ls -la",
        output: "x\n".repeat(5000),
        exitCode: 0,
        cancelled: false,
        truncated: false,
        timestamp: 6,
      },
    ];
    for (const m of messages) {
      const line = JSON.stringify({ ...base, message: m });
      for (const strict of [false, true]) {
        const got = scanEntry(Buffer.from(line), 0, Buffer.byteLength(line), strict);
        assert.ok(got, `the scanner reads ${m.role} lines (strict ${strict})`);
        assert.deepEqual(answers(got), answers(factsOfEntry(JSON.parse(line) as SessionEntry)));
      }
    }
  });

  test("leaves to JSON.parse what it does not read itself, and every reader gives the same", () => {
    const entry = {
      type: "message",
      id: "0123abcd",
      parentId: null,
      timestamp: "2026-01-05T09:00:04.000Z",
      message: { role: "assistant", content: [{ type: "text", text: "hello" }], provider: "p", model: "m" },
    };
    const line = JSON.stringify(entry);
    const take = (l: string): unknown => scanEntry(Buffer.from(l), 0, Buffer.byteLength(l), true);
    assert.ok(take(line));
    for (const [why, l] of [
      ["a second entry glued on", line + line],
      ["a key given twice", line.replace('"provider"', '"model":"x","provider"')],
      ["a cut line", line.slice(0, -20)],
      ["an escaped key", line.replace('"content"', '"conte\\u006et"')],
      ["another entry type", line.replace('"type":"message"', '"type":"label"')],
      ["a system prompt", line.replace('"role":"assistant"', '"role":"system"')],
      ["a lone surrogate in the preview", line.replace("hello", "he\\ud800llo")],
      ["a raw control character", line.replace("hello", "he\u0001llo")],
    ] as const) {
      assert.equal(take(l), undefined, why);
      readsAsParsed(l, why);
    }
    const bad = Buffer.from(line);
    bad[bad.indexOf("hello")] = 0xff;
    assert.equal(scanEntry(bad, 0, bad.length, true), undefined, "invalid UTF-8 in the preview");
  });

  test("reads a usage from its bytes as JSON.parse does, and leaves an unusual one to JSON.parse", () => {
    const base = { type: "message", id: "0123abcd", parentId: null, timestamp: "2026-01-05T09:00:04.000Z" };
    const head = JSON.stringify({ ...base, message: { role: "assistant", content: "hi", provider: "p", model: "m" } });
    const lineWith = (usage: string): string => head.slice(0, -2) + `,"usage":${usage}}}`;
    const read = (usage: string): EntryFacts | undefined => {
      const line = lineWith(usage);
      return scanEntry(Buffer.from(line), 0, Buffer.byteLength(line), true);
    };
    const parsed = (usage: string): EntryFacts => factsOfEntry(JSON.parse(lineWith(usage)) as SessionEntry);
    for (const usage of [
      '{"input":1200,"output":300,"cacheRead":9000,"cacheWrite":0,"totalTokens":10500,"cost":{"input":0.0036,"output":0.0045,"cacheRead":0.0027,"cacheWrite":0,"total":0.0108}}',
      '{"input":1,"input":2,"cost":{"total":1},"cost":{"total":2,"totalFromProvider":true}}',
      '{ "input" : -3 , "output":1e400, "cacheWrite1h":7, "reasoning":2.5E-3, "x":null, "cost":null }',
      '{"cacheWrite1h":true,"reasoning":null,"cost":{"totalFromProvider":false,"total":-0,"other":1}}',
      '{"cost":3,"input":0.1}',
      "{}",
    ]) {
      const got = read(usage);
      assert.ok(got, `the scanner reads ${usage} itself`);
      assert.deepEqual(answers(got), answers(parsed(usage)), usage);
    }
    for (const usage of [
      '{"input":"5"}',
      '{"note":{"a":1}}',
      '{"inp\\u0075t":5}',
      '{"input":01}',
      '{"input":tru}',
      '{"input":1,}',
      '{"cost":[1]}',
    ]) {
      assert.equal(read(usage), undefined, usage);
      readsAsParsed(lineWith(usage), usage);
    }
  });

  test("a long line stops after its preview unless strict; a short one is always read to its end", () => {
    const base = { type: "message", id: "0123abcd", parentId: null, timestamp: "2026-01-05T09:00:04.000Z" };
    const result = (output: string): string =>
      JSON.stringify({
        ...base,
        message: { role: "toolResult", toolName: "bash", content: [{ type: "text", text: output }] },
      });
    // A line cut after its preview: a long one is read up to the preview only (its body's parse finds the
    // damage), unless strict; a short one is always read to its end.
    const long = result("out ".repeat(2000)).slice(0, -10);
    assert.ok(scanEntry(Buffer.from(long), 0, Buffer.byteLength(long), false), "a long line stops early");
    assert.equal(scanEntry(Buffer.from(long), 0, Buffer.byteLength(long), true), undefined, "strict reads to the end");
    const short = result("out ".repeat(100)).slice(0, -10);
    assert.equal(scanEntry(Buffer.from(short), 0, Buffer.byteLength(short), false), undefined, "a short line");
  });
});

describe("previews from bytes", () => {
  test("equal collapseWhitespace of the decoded strings, joined as text blocks are", () => {
    fc.assert(
      fc.property(
        fc.array(anyText, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 99 }),
        fc.integer(),
        (texts, rate, seed) => {
          const pick = chooser(seed);
          const b = new PreviewBuilder();
          for (let i = 0; i < texts.length && !b.full; i++) {
            if (i > 0) b.addAscii(10);
            const lit = Buffer.from(stringLiteral(texts[i], pick, rate));
            const at = b.addJsonString(lit, 1, lit.length);
            if (at < 0) {
              // Only what the builder leaves to JSON.parse: a lone surrogate.
              assert.match(texts[i], /[\ud800-\udfff]/);
              return;
            }
            // Where it stopped is the closing quote, or a place (not inside an escape) the string's end is found from.
            assert.equal(lit[at] === 0x22 ? at : stringEndFrom(lit, at, lit.length), lit.length - 1);
          }
          assert.equal(b.text(), collapseWhitespace(texts.join("\n"), 200));
        },
      ),
      { numRuns: 2000 },
    );
  });

  test("collapseWhitespace treats every UTF-16 code unit as \\s does", () => {
    // Its test for text that needs collapsing lists \s's characters itself: none may be missing or extra.
    const filler = "x".repeat(250);
    for (let c = 0; c <= 0xffff; c++) {
      const ch = String.fromCharCode(c);
      for (const t of [`a${ch}b`, `a${ch}${ch}b`, `${filler.slice(0, 100)}${ch}${filler}`, `${ch} ${filler}`]) {
        const want = t.replace(/\s+/g, " ").trim();
        if (collapseWhitespace(t, 200) !== want.slice(0, 200)) assert.fail(`U+${c.toString(16)} in ${t.length} chars`);
        if (collapseWhitespace(t, 5) !== want.slice(0, 5)) assert.fail(`U+${c.toString(16)}, limit 5`);
      }
    }
  });

  test("collapseWhitespace equals replace(/\\s+/g, ' ').trim().slice(0, n)", () => {
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

describe("numbers from bytes", () => {
  /** numberValue of `text` (a whole JSON number) is JSON.parse's, -0 included. */
  const readsAsParsed = (text: string): void => {
    const b = Buffer.from(text);
    assert.equal(numberEnd(b, 0, b.length), b.length, text);
    assert.ok(Object.is(numberValue(b, 0, b.length), JSON.parse(text)), text);
  };

  test("equal JSON.parse: decimals read by hand (costs), long ones and exponents through Number()", () => {
    for (const t of ["0", "-0", "0.0", "-0.0", "0.0036", "0.1", "0.3", "-12.5", "99999999999999.9", "123456789012345"])
      readsAsParsed(t);
    for (const t of ["1234567890123456", "9007199254740993", "0.000000000000001", "0.1234567890123456789", "1.5e3"])
      readsAsParsed(t);
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (d) => readsAsParsed(JSON.stringify(d))),
      { numRuns: 5000 },
    );
    // Up to 15 digits with the point anywhere, leading zeros of the fraction included.
    fc.assert(
      fc.property(fc.nat({ max: 999_999_999 }), fc.integer({ min: 0, max: 16 }), fc.boolean(), (m, k, neg) => {
        const digits = String(m).padStart(k + 1, "0");
        const cut = digits.length - k;
        readsAsParsed((neg ? "-" : "") + digits.slice(0, cut) + (k > 0 ? "." + digits.slice(cut) : ""));
      }),
      { numRuns: 5000 },
    );
  });
});

describe("sessions scanned in chunks", () => {
  /** Writes a session file: a header, then `lines`. */
  const writeSession = (file: string, lines: string[]): void => {
    const header = JSON.stringify({ type: "session", version: 3, id: "s", timestamp: "t", cwd: "/" });
    fs.writeFileSync(file, [header, ...lines].join("\n") + "\n");
  };

  test("every chunk size, every line across a chunk end: the same entries as a full parse", async () => {
    const { dir, cleanup } = tempDir("scanner-");
    try {
      let run = 0;
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(entryArb, layout), { minLength: 1, maxLength: 25 }),
          fc.integer({ min: 16, max: 9000 }),
          async (items, chunkBytes) => {
            const file = path.join(dir, `s${run++}.jsonl`);
            const lines = items.map(([e, l]) => lineOf(e, l));
            writeSession(file, lines);
            const want = lines.map(expected).filter((f) => f !== undefined);
            // Both readers of a line: the entry scanner (big files), JSON.parse for short lines (small ones).
            for (const parseShort of [false, true])
              for (const strict of [false, true]) {
                const scan = scanSessionFile(file, { chunkBytes, strict, parseShort });
                assert.equal(scan.entries.length, want.length);
                want.forEach((w, i) => {
                  assert.deepEqual(scan.entries.envs[i], w.env);
                  assert.deepEqual(metaAnswers(scan.entries.metas[i]), metaAnswers(w.meta));
                });
              }
            fs.rmSync(file);
          },
        ),
        { numRuns: 150 },
      );
    } finally {
      cleanup();
    }
  });

  test("a chunk read over the one before does not change the names read from it", () => {
    // Two lines of one length, each read alone into the same chunk buffer: their model and tool names sit at
    // the same offsets of the buffer. Names the scanner remembers by their bytes must keep the bytes they had,
    // not show the next chunk's (the second line would then get the first line's names, and so would any later
    // line naming what the buffer last held at that place, in any file).
    const { dir, cleanup } = tempDir("scanner-");
    try {
      const file = path.join(dir, "s.jsonl");
      const line = (id: string, parentId: string, name: string): string =>
        JSON.stringify({
          type: "message",
          id,
          parentId,
          timestamp: "2026-01-05T09:00:04.000Z",
          message: {
            role: "assistant",
            content: [{ type: "toolCall", id: "t1", name: `tool-${name}`, arguments: {} }],
            provider: "chunk-test",
            model: `model-${name}`,
          },
        });
      const lines = [line("a", "z", "aaaa"), line("b", "a", "bbbb")];
      assert.equal(lines[0].length, lines[1].length);
      writeSession(file, lines);
      const scan = scanSessionFile(file, { chunkBytes: lines[0].length + 1, parseShort: false });
      const want = lines.map((l) => expected(l));
      assert.deepEqual(scan.entries.envs, [want[0]?.env, want[1]?.env]);
      assert.deepEqual(
        scan.entries.metas.map(metaAnswers),
        [want[0], want[1]].map((w) => metaAnswers(w?.meta ?? {})),
      );
    } finally {
      cleanup();
    }
  });

  test("a damaged line with non-ASCII characters is reported as JSON.parse reports its UTF-8 text", () => {
    const { dir, cleanup } = tempDir("scanner-");
    try {
      const file = path.join(dir, "s.jsonl");
      const good = (id: string, parentId: string | null): string =>
        JSON.stringify({ type: "message", id, parentId, timestamp: "t", message: { role: "user", content: "é" } });
      // Cut inside a string of two-byte characters: read as Latin-1 they would be twice as many characters,
      // and JSON.parse would report another position.
      const damaged = '{"type":"message","id":"b","parentId":"a","message":{"role":"user","content":"ééé';
      writeSession(file, [good("a", null), damaged, good("c", "a")]);
      let reason = "";
      try {
        JSON.parse(damaged);
      } catch (e) {
        reason = (e as Error).message;
      }
      const scan = scanSessionFile(file, { parseShort: true });
      assert.deepEqual(
        scan.entries.envs.map((e) => e.id),
        ["a", "c"],
      );
      assert.deepEqual(scan.issues, [{ line: 3, reason: `not valid JSON: ${reason}` }]);
    } finally {
      cleanup();
    }
  });

  test("a session of random pi lines opens with envelopes and context equal to a full parse", async () => {
    const { dir, cleanup } = tempDir("scanner-open-");
    try {
      const file = path.join(dir, "s.jsonl");
      const entries = fc
        .sample(fc.tuple(message, layout), { numRuns: 200, seed: 7 })
        .filter(([m]) => typeof m === "object" && m !== null && (m as { role?: string }).role !== "system");
      let parent: string | null = null;
      const lines = [JSON.stringify({ type: "session", version: 3, id: "s1", timestamp: "t", cwd: dir })];
      const parsed: SessionEntry[] = [];
      entries.forEach(([m, l], i) => {
        const entry = {
          type: "message",
          id: `e${String(i).padStart(7, "0")}`,
          parentId: parent,
          timestamp: "2026-01-05T09:00:04.000Z",
          message: m,
        };
        parent = entry.id;
        const line = lineOf(entry, l);
        lines.push(line);
        parsed.push(JSON.parse(line) as SessionEntry);
      });
      fs.writeFileSync(file, lines.join("\n") + "\n");
      const sm = await SessionManager.open(file, { readOnly: true });
      assert.deepEqual(sm.getLoadIssues(), []);
      const envs = sm.getEnvelopes();
      parsed.forEach((e, i) => assert.deepEqual(envs[i], factsOfEntry(e).env, `envelope of line ${i + 2}`));
      parsed.forEach((e, i) => assert.deepEqual(sm.getUsage(e.id), metaOf(e).usage, `usage of line ${i + 2}`));
      assert.ok(
        parsed.some((e) => metaOf(e).usage),
        "some lines record token use",
      );
      assert.deepEqual(sm.getPathEnvelopes(), envs);
      const settings = sm.getLeafSettings();
      const context = sm.buildSessionContext();
      assert.deepEqual([settings.model, settings.thinkingLevel], [context.model, context.thinkingLevel]);
      assert.deepEqual(sm.getEntries(), parsed);
      await sm.close();
    } finally {
      cleanup();
    }
  });
});
