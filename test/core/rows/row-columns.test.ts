/**
 * The columns rows travel in (src/core/rows/row-columns.ts): binary (typed arrays, UTF-8 bytes) and lossless for
 * every well-formed string, after the structured clone a webview's message gets.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import fc from "fast-check";
import {
  columnString,
  columnText,
  decodeRows,
  encodeTreeRows,
  indexOfId,
  type RowColumns,
} from "../../../src/core/rows/row-columns.js";
import { rowPreview, type TreeRow } from "../../../src/core/rows/tree-row.js";
import { ENTRY_KINDS } from "../../../src/core/session/entry-kinds.js";

const row = (id: string, parentId: string | null, extra: Partial<TreeRow> = {}): TreeRow => ({
  id,
  parentId,
  kind: "user",
  timestamp: "2026-01-01T00:00:00.000Z",
  preview: `text of ${id}`,
  ...extra,
});

/** Strings of any code points (astral ones as surrogate pairs), often empty or short. */
const text = fc.oneof(
  fc.string({ unit: "binary", maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.constantFrom("", "<b>&amp;</b>", "🌲 tree", "é", "İstanbul", "a\u0000b", "𝒳𝒴"),
);

/** Rows whose parents come earlier (or are missing, or null), with every optional field now and then. */
const rowsArb = fc
  .uniqueArray(text, { minLength: 0, maxLength: 30 })
  .chain((ids) =>
    fc.tuple(
      ...ids.map((id, i) =>
        fc.record({
          id: fc.constant(id),
          parent: i === 0 ? fc.constant(-1) : fc.integer({ min: -2, max: i - 1 }),
          kind: fc.constantFrom(...ENTRY_KINDS),
          timestamp: fc.oneof(fc.constant("2026-01-01T00:00:00.000Z"), text),
          preview: text,
          toolName: fc.option(text, { nil: undefined }),
          label: fc.option(
            text.filter((s) => s !== ""),
            { nil: undefined },
          ),
          tokens: fc.option(fc.nat(), { nil: undefined }),
          fromId: fc.option(text, { nil: undefined }),
          flags: fc.nat({ max: 15 }),
        }),
      ),
    ),
  )
  .map((recs) =>
    recs.map((r): TreeRow => {
      const out: TreeRow = {
        id: r.id,
        // -1: a root; -2: a parent that is not in the batch (an append's earlier row, an orphan's missing one).
        parentId: r.parent === -1 ? null : r.parent === -2 ? `missing:${r.id}` : recs[r.parent].id,
        kind: r.kind,
        timestamp: r.timestamp,
        preview: r.preview,
      };
      if (r.label !== undefined) out.label = r.label;
      if (r.flags & 1) out.toolCallsOnly = true;
      if (r.toolName !== undefined && r.toolName !== "") out.toolName = r.toolName;
      if (r.tokens !== undefined) out.tokens = r.tokens;
      if (r.flags & 2) out.failed = true;
      if (r.flags & 4 && r.parent === -2) out.orphan = true;
      if (r.flags & 8) out.hidden = true;
      if (r.fromId !== undefined) out.fromId = r.fromId;
      return out;
    }),
  );

/** The message's copy as a webview receives it. */
const received = (cols: RowColumns): RowColumns => structuredClone(cols);

test("rows → columns → structured clone → rows is the identity for any well-formed strings", () => {
  fc.assert(
    fc.property(rowsArb, (rows) => {
      const back = decodeRows(received(encodeTreeRows(rows)));
      assert.deepEqual(
        back,
        rows.map((r) => ({ ...r, preview: rowPreview(r.preview) })),
      );
    }),
    { numRuns: 300 },
  );
});

test("a string decodes the same from its own bytes and from the column decoded whole", () => {
  fc.assert(
    fc.property(fc.array(text, { maxLength: 40 }), (strings) => {
      const cols = received(encodeTreeRows(strings.map((s, i) => row(`r${i}`, null, { preview: s, toolName: s }))));
      const own = strings.map((_, i) => columnString(cols.previews, i));
      const whole = columnText(cols.previews);
      assert.equal(whole.text, strings.map(rowPreview).join(""));
      const sliced = strings.map((_, i) => columnString(cols.previews, i));
      assert.deepEqual(own, strings.map(rowPreview));
      assert.deepEqual(sliced, own);
      assert.deepEqual(
        [...whole.ends],
        strings.map(rowPreview).map((_, i, all) => all.slice(0, i + 1).join("").length),
        "the whole column's ends count UTF-16 units",
      );
    }),
    { numRuns: 300 },
  );
});

test("the big columns are typed arrays, each owning a buffer of exactly its size, so they leave the JSON", () => {
  const rows = Array.from({ length: 1000 }, (_, i) =>
    row(`id-${i}`, i === 0 ? null : `id-${i - 1}`, { preview: `préview ${i} 🌲 <b>${"x".repeat(i % 150)}</b>` }),
  );
  const cols = encodeTreeRows(rows);
  const views: ArrayBufferView[] = [
    cols.parents,
    cols.kinds,
    cols.flags,
    cols.ids.bytes,
    cols.ids.ends,
    cols.timestamps.bytes,
    cols.timestamps.ends,
    cols.previews.bytes,
    cols.previews.ends,
    cols.toolNames.bytes,
    cols.toolNames.ends,
  ];
  for (const v of views) {
    assert.ok(ArrayBuffer.isView(v));
    assert.equal(v.byteOffset, 0);
    assert.equal(v.byteLength, v.buffer.byteLength, "VS Code posts a view's whole buffer: no slack, no neighbours");
  }
  assert.equal(new Set(views.map((v) => v.buffer)).size, views.length, "no two columns share a buffer");
  // What is left as JSON once VS Code lifts the typed arrays out (each becomes a small reference).
  const json = JSON.stringify(cols, (_k, v: unknown) => (ArrayBuffer.isView(v) ? { ref: 0 } : v));
  assert.ok(json.length < 1000, `JSON of 1,000 rows without their buffers: ${json.length} characters`);
  assert.deepEqual(decodeRows(received(cols)), rows);
});

test("an id is found by its UTF-16 place even after multi-byte ids", () => {
  const cols = received(
    encodeTreeRows([row("é", null), row("🌲", "é"), row("ab", "🌲"), row("b", "ab"), row("", "b")]),
  );
  assert.equal(indexOfId(cols, "b"), 3);
  assert.equal(indexOfId(cols, "ab"), 2);
  assert.equal(indexOfId(cols, "🌲"), 1);
  assert.equal(indexOfId(cols, "é"), 0);
  assert.equal(indexOfId(cols, "a"), -1, "a piece of an id is no id");
  assert.equal(indexOfId(cols, ""), -1);
  assert.deepEqual(
    decodeRows(cols).map((r) => [r.id, r.parentId]),
    [
      ["é", null],
      ["🌲", "é"],
      ["ab", "🌲"],
      ["b", "ab"],
      ["", "b"],
    ],
  );
});

test("sparse columns stay small plain arrays; an empty batch encodes and decodes", () => {
  const cols = encodeTreeRows([row("a", null), row("b", "a", { label: "mark", tokens: 5 }), row("c", "gone")]);
  assert.deepEqual(cols.labels, { at: [1], values: ["mark"] });
  assert.deepEqual(cols.tokens, { at: [1], values: [5] });
  assert.deepEqual(cols.parentIds, { at: [2], values: ["gone"] });
  const empty = received(encodeTreeRows([]));
  assert.equal(empty.count, 0);
  assert.equal(empty.previews.bytes.length, 0);
  assert.deepEqual(decodeRows(empty), []);
});

test("an id holding a lone surrogate travels as it is (rawIds); its stand-in U+FFFD is no other id", () => {
  const odd = "id-\ud800";
  const rows = [row("\ufffd", null), row(odd, "\ufffd"), row("c", odd), row("id-\udc00x", "c")].map((r) => ({
    ...r,
    preview: "plain",
  }));
  const cols = received(encodeTreeRows(rows));
  assert.deepEqual(cols.rawIds, { at: [1, 3], values: [odd, "id-\udc00x"] });
  assert.deepEqual(decodeRows(cols), rows);
  assert.equal(indexOfId(cols, odd), 1);
  assert.equal(indexOfId(cols, "\ufffd"), 0);
  assert.equal(indexOfId(cols, "id-\ufffd"), -1, "the stand-in is not an id");
  assert.equal(encodeTreeRows([row("🌲", null), row("ab", "🌲")]).rawIds, undefined, "pairs are well-formed");
});

test("a lone surrogate (not valid UTF-16) in a preview arrives as U+FFFD, the rest of the string intact", () => {
  const cols = received(encodeTreeRows([row("a", null, { preview: "x\ud800y" }), row("b", "a", { preview: "z" })]));
  assert.deepEqual(
    decodeRows(cols).map((r) => r.preview),
    ["x\ufffdy", "z"],
  );
  assert.equal(columnText(cols.previews).text, "x\ufffdyz");
});
