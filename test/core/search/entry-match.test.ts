/** The snippet a search result shows: where it is cut. */
import assert from "node:assert/strict";
import { test } from "node:test";
import { snippetOf } from "../../../src/core/search/entry-match.js";

const PROSE =
  "The CLI reads `process.argv` by hand, which is fine for a tiny tool but breaks down quickly. Options: (A) a tiny " +
  "hand-written parser, (B) `node:util` `parseArgs`, (C) no flag at all, a `DEBUG` environment variable. Which do you " +
  "prefer, given that the tool has to stay small and readable for the next person who maintains it after us?";

test("a snippet cut inside prose starts and ends at a word, not in one or at a stray full stop", () => {
  const { text, ranges } = snippetOf(PROSE, ["parseargs"]);
  assert.match(text, /^…\S/, "starts right after the ellipsis");
  assert.doesNotMatch(text, /^…[.,;:]/, "no punctuation left over from the word before");
  const firstWord = text.slice(1).split(" ")[0];
  assert.ok(PROSE.includes(` ${firstWord} `), `"${firstWord}" is a whole word of the text`);
  const lastWord = text.slice(0, -1).split(" ").at(-1) ?? "";
  assert.ok(text.endsWith("…") && PROSE.includes(` ${lastWord} `), `"${lastWord}" is a whole word of the text`);
  assert.equal(text.slice(ranges[0][0], ranges[0][1]), "parseArgs");
});

test("a text without spaces near the cut is cut where it must be", () => {
  const text = `${"x".repeat(300)} zanzibar`;
  assert.match(snippetOf(text, ["zanzibar"]).text, /^…x+ zanzibar$/);
});
