import assert from "node:assert/strict";
import { test } from "node:test";
import { parseSearchQuery } from "../../../src/core/search/search-query.js";

test("words are split and lower-cased like the tree's search; the longest safe piece is the anchor", () => {
  assert.deepEqual(parseSearchQuery("  Zanzibar   RELAY "), { tokens: ["zanzibar", "relay"], anchor: "zanzibar" });
  assert.deepEqual(parseSearchQuery(""), { tokens: [], anchor: undefined });
});

test("words a kind answers to give no anchor: an entry may match them without holding them", () => {
  assert.equal(parseSearchQuery("tool summary").anchor, undefined);
  assert.equal(parseSearchQuery("tool quokkas").anchor, "quo");
});

test("the anchor leaves out what a JSON writer may escape or lower-casing may produce", () => {
  // Quotes, backslashes, slashes and HTML characters may be escaped; non-ASCII may be \u-escaped.
  assert.equal(parseSearchQuery('"<div>"').anchor, "div");
  assert.equal(parseSearchQuery("src/host\\x").anchor, "host");
  assert.equal(parseSearchQuery("café").anchor, "caf");
  // K (Kelvin sign) lower-cases to k; İ to i + a combining dot, so a final i may come from it.
  assert.equal(parseSearchQuery("kelvin").anchor, "elvin");
  assert.equal(parseSearchQuery("wiki").anchor, "wi");
  assert.equal(parseSearchQuery("ilk").anchor, "il");
  assert.equal(parseSearchQuery("日本").anchor, undefined);
});

test("an anchor that is part of every line's field names is the last choice", () => {
  // "parent" is in "parentId" on every line; "index" decodes only the lines that say it.
  assert.equal(parseSearchQuery("parent index").anchor, "index");
  assert.equal(parseSearchQuery("parent").anchor, "parent");
  assert.equal(parseSearchQuery("message quux").anchor, "quux");
  assert.equal(parseSearchQuery("timestamps quux").anchor, "timestamps");
});
