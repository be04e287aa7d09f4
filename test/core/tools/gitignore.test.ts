import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { isIgnored, parseGitignore, type IgnoreRule } from "../../../src/core/tools/gitignore.js";

/** Ignored paths among `paths` ("x/" marks a folder). */
function ignoredOf(rules: IgnoreRule[], paths: string[]): string[] {
  return paths.filter((p) => isIgnored(rules, p.replace(/\/$/, ""), p.endsWith("/")));
}

describe("gitignore matcher", () => {
  it("skips comments and blank lines; \\# and \\! are literal", () => {
    const rules = parseGitignore("# a comment\n\n   \n\\#hash\n\\!bang\n");
    assert.equal(rules.length, 2, "a line of spaces is empty too");
    assert.deepEqual(ignoredOf(rules, ["#hash", "!bang", "a comment", "hash", "bang"]), ["#hash", "!bang"]);
  });

  it("a pattern without a slash matches the name at any depth, files and folders", () => {
    const rules = parseGitignore("*.log\nbuild\n");
    assert.deepEqual(ignoredOf(rules, ["a.log", "x/y/b.log", "log", "a.log.txt", "build/", "src/build", "builds"]), [
      "a.log",
      "x/y/b.log",
      "build/",
      "src/build",
    ]);
  });

  it("a trailing slash matches folders only", () => {
    const rules = parseGitignore("out/\n");
    assert.deepEqual(ignoredOf(rules, ["out/", "a/out/", "out", "a/out"]), ["out/", "a/out/"]);
  });

  it("a leading or inner slash anchors the pattern to the .gitignore's folder", () => {
    const rules = parseGitignore("/root.txt\ndoc/*.txt\n");
    assert.deepEqual(ignoredOf(rules, ["root.txt", "a/root.txt", "doc/a.txt", "doc/x/a.txt", "a/doc/a.txt"]), [
      "root.txt",
      "doc/a.txt",
    ]);
  });

  it("** spans folders: leading, inner and trailing; other star runs stay inside one segment", () => {
    const lead = parseGitignore("**/foo\n");
    assert.deepEqual(ignoredOf(lead, ["foo", "a/foo", "a/b/foo/", "a/foox"]), ["foo", "a/foo", "a/b/foo/"]);
    const inner = parseGitignore("a/**/b\n");
    assert.deepEqual(ignoredOf(inner, ["a/b", "a/x/b", "a/x/y/b", "a/xb", "c/a/b"]), ["a/b", "a/x/b", "a/x/y/b"]);
    const trail = parseGitignore("abc/**\n");
    assert.deepEqual(ignoredOf(trail, ["abc/", "abc/x", "abc/x/y/", "x/abc/y"]), ["abc/x", "abc/x/y/"]);
    const plain = parseGitignore("a**z\n");
    assert.deepEqual(ignoredOf(plain, ["az", "abcz", "a/z", "a/b/z"]), ["az", "abcz"]);
    assert.deepEqual(ignoredOf(parseGitignore("**\n"), ["a", "a/b/c"]), ["a", "a/b/c"]);
  });

  it("? and [classes] never match a slash", () => {
    const rules = parseGitignore("file?.md\n[ab]x\n[!0-9]y\n[[:digit:]]z\nq[\\d]\n[]]w\n");
    assert.deepEqual(
      ignoredOf(rules, ["file1.md", "file.md", "file/.md", "ax", "cx", "ay", "5y", "5z", "az", "qd", "q5", "]w"]),
      ["file1.md", "ax", "ay", "5z", "qd", "]w"],
    );
    assert.equal(parseGitignore("[abc\n").length, 0, "an unterminated class never matches, as in git");
  });

  it("negation re-includes; the last matching rule wins", () => {
    const rules = parseGitignore("*.log\n!keep.log\nkeep.log.bak\n!*.bak\n");
    assert.deepEqual(ignoredOf(rules, ["a.log", "keep.log", "x/keep.log", "keep.log.bak"]), ["a.log"]);
  });

  it("rules of a nested .gitignore apply below its folder only and beat the outer ones", () => {
    const rules = [...parseGitignore("*.txt\n/top\n", ""), ...parseGitignore("!*.txt\n/local\n", "pkg")];
    assert.deepEqual(
      ignoredOf(rules, ["a.txt", "pkg/a.txt", "pkg/deep/b.txt", "pkgx/a.txt", "top", "pkg/top", "pkg/local", "local"]),
      ["a.txt", "pkgx/a.txt", "top", "pkg/local"],
    );
    assert.deepEqual(parseGitignore("x\n", "."), parseGitignore("x\n", ""), '"." is the root');
  });

  it("trailing spaces are trimmed unless escaped; CRLF files work", () => {
    const rules = parseGitignore("trail   \r\nkeep\\ \r\n");
    assert.deepEqual(ignoredOf(rules, ["trail", "trail   ", "keep ", "keep"]), ["trail", "keep "]);
  });

  it("regex metacharacters in names are literal", () => {
    const rules = parseGitignore("a+b(c).txt\n$x^\n");
    assert.deepEqual(ignoredOf(rules, ["a+b(c).txt", "aab(c)xtxt", "$x^"]), ["a+b(c).txt", "$x^"]);
  });
});
