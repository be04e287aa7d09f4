/** Ignore rules written for a folder above the workspace, rebased onto the workspace folder. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { rebaseIgnorePatterns } from "../../../src/core/checkpoints/ignore-rules.js";

describe("rebaseIgnorePatterns", () => {
  it("keeps patterns that match at any depth, and negations", () => {
    assert.deepEqual(rebaseIgnorePatterns("# comment\n\nnode_modules/\n*.log\n!keep.log\n**/dist\n", "pkg"), [
      "node_modules/",
      "*.log",
      "!keep.log",
      "**/dist",
    ]);
  });

  it("rebases anchored patterns whose leading segments lead to the folder, and drops the others", () => {
    const text = "/packages/app/build/\npackages/*/tmp\n/packages/lib/out\n/top-level.txt\npackages/app\n";
    assert.deepEqual(rebaseIgnorePatterns(text, "packages/app"), ["/build/", "/tmp"]);
  });

  it("keeps `**` patterns going through the folder", () => {
    assert.deepEqual(rebaseIgnorePatterns("a/**/cache\n", "a/b/c"), ["/**/cache"]);
  });

  it("handles escapes, character classes and CRLF files", () => {
    assert.deepEqual(rebaseIgnorePatterns("pkg[0-9]/x\r\n\\#literal\r\n", "pkg1"), ["/x", "\\#literal"]);
    assert.deepEqual(rebaseIgnorePatterns("pkg[!0-9]/x\n", "pkg1"), []);
  });
});
