/**
 * Pure parts of the windowed chat list: which messages become rows, estimates, row offsets and ranges,
 * and the per-message parse cache.
 */
import assert from "node:assert/strict";
import { test } from "node:test";
import { chatRows, estimateRowHeight, RowOffsets } from "../../webview/chat/chat-window.js";
import { DerivedTextCache } from "../../webview/chat/markdown-cache.js";
import { call, msg } from "./chat-fixtures.js";

test("paired tool results are no rows; orphans are", () => {
  const rows = chatRows([
    msg("u", "user", "hi"),
    msg("a", "assistant", "", { toolCalls: [call("c1", "ls", "{}")] }),
    msg("r1", "toolResult", "out", { toolCallId: "c1" }),
    msg("r2", "toolResult", "lost", { toolCallId: "c9" }),
  ]);
  assert.deepEqual(
    rows.map((r) => [r.key, r.orphan]),
    [
      ["u", false],
      ["a", false],
      ["r2", true],
    ],
  );
});

test("estimates grow with wrapped lines and narrow widths; huge texts are extrapolated", () => {
  const [short] = chatRows([msg("u", "user", "one line")]);
  const [long] = chatRows([msg("u", "user", "x".repeat(2000))]);
  assert.ok(estimateRowHeight(long, 400) > estimateRowHeight(short, 400));
  assert.ok(estimateRowHeight(long, 200) > estimateRowHeight(long, 800));
  const [huge] = chatRows([msg("u", "user", "line\n".repeat(20000))]);
  const h = estimateRowHeight(huge, 400);
  assert.ok(h > 18 * 15000 && h < 18 * 25000, `extrapolated estimate ${h}`);
});

test("row offsets: index at a position, ranges intersecting a band, spans", () => {
  const o = new RowOffsets([10, 20, 30, 40]);
  assert.equal(o.total, 100);
  assert.equal(o.indexAt(-5), 0);
  assert.equal(o.indexAt(0), 0);
  assert.equal(o.indexAt(10), 1);
  assert.equal(o.indexAt(29.9), 1);
  assert.equal(o.indexAt(1000), 3);
  assert.deepEqual(o.range(15, 35), { start: 1, end: 3 });
  assert.deepEqual(o.range(-100, 1000), { start: 0, end: 4 });
  assert.deepEqual(new RowOffsets([]).range(0, 100), { start: 0, end: 0 });
  assert.equal(o.span(1, 3), 50);
  assert.equal(o.span(3, 1), 0);
});

test("parse cache: same key and text derive once; new text re-derives; least recently used leave first", () => {
  const calls: string[] = [];
  const cache = new DerivedTextCache((t: string) => {
    calls.push(t);
    return t.toUpperCase();
  }, 2);
  assert.equal(cache.get("a", "x"), "X");
  assert.equal(cache.get("a", "x"), "X");
  assert.deepEqual(calls, ["x"]);
  assert.equal(cache.get("a", "xy"), "XY", "a streamed message's longer text is parsed again");
  assert.equal(cache.size, 1, "the older text of the same key is dropped");
  cache.get("b", "b");
  cache.get("a", "xy");
  cache.get("c", "c"); // evicts b, the least recently used
  assert.equal(cache.size, 2);
  cache.get("a", "xy");
  cache.get("b", "b");
  assert.deepEqual(calls, ["x", "xy", "b", "c", "b"]);
});
