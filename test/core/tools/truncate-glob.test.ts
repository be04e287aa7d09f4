import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { globMatch, globToRegExp } from "../../../src/core/tools/glob.js";
import { truncateHead, truncateTail } from "../../../src/core/tools/truncate.js";

/**
 * Property: for any text and limits, `truncate` keeps whole lines within both limits, the kept text is the
 * part `keeps` says (a prefix or a suffix of the input), and `truncated` says whether anything was lost.
 */
function assertTruncation(truncate: typeof truncateHead, keeps: (input: string, kept: string) => boolean): void {
  fc.assert(
    fc.property(
      fc.array(fc.string({ maxLength: 40 }), { maxLength: 60 }),
      fc.integer({ min: 1, max: 30 }),
      fc.integer({ min: 10, max: 400 }),
      (lines, maxLines, maxBytes) => {
        const input = lines.join("\n");
        const t = truncate(input, maxLines, maxBytes);
        assert.ok(keeps(input, t.text));
        assert.ok(t.keptLines <= maxLines);
        assert.ok(Buffer.byteLength(t.text) <= maxBytes);
        assert.equal(t.truncated, t.text !== input);
      },
    ),
  );
}

describe("truncation", () => {
  it("head keeps a prefix of whole lines within both limits", () => {
    assertTruncation(truncateHead, (input, kept) => input.startsWith(kept));
  });
  it("tail keeps a suffix within the limits and flags any loss", () => {
    assertTruncation(truncateTail, (input, kept) => input.endsWith(kept));
  });
});

describe("glob", () => {
  const m = (glob: string, p: string): boolean => globMatch(globToRegExp(glob), p);
  it("matches like fd/ripgrep globs", () => {
    assert.ok(m("*.ts", "src/deep/a.ts"));
    assert.ok(!m("*.ts", "src/a.tsx"));
    assert.ok(m("src/**/*.ts", "src/a.ts"));
    assert.ok(m("src/**/*.ts", "src/x/y/a.ts"));
    assert.ok(!m("src/*.ts", "src/x/a.ts"));
    assert.ok(m("*.{ts,tsx}", "a.tsx"));
    assert.ok(m("file?.txt", "file1.txt"));
    assert.ok(m("[ab].md", "b.md"));
    assert.ok(!m("[!ab].md", "b.md"));
    assert.ok(m("a+b(1).txt", "a+b(1).txt"), "regex characters are literal");
  });
  it("never throws on arbitrary patterns", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ maxLength: 30 }), (g, p) => {
        globMatch(globToRegExp(g), p);
      }),
    );
  });
});
