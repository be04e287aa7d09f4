/**
 * Prompt templates as pi 1.6 documents them (docs/prompt-templates.md of its package): loading from the agent
 * folder and the workspace's .pi/prompts, frontmatter, and argument expansion with pi's quoting.
 */
import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import {
  expandPromptTemplate,
  loadPromptTemplates,
  MAX_TEMPLATE_BYTES,
  templateOf,
} from "../../../src/core/prompt/prompt-templates.js";
import { parseCommandArgs, substituteArgs } from "../../../src/core/prompt/template-args.js";
import { tempDir } from "../../util/temp-dir.js";

describe("template arguments (pi's quoting)", () => {
  it("reads the documented examples", () => {
    assert.deepEqual(parseCommandArgs('"API compatibility"'), ["API compatibility"]);
    assert.deepEqual(parseCommandArgs("doesn't matter"), ["doesn't", "matter"]);
    assert.deepEqual(parseCommandArgs('"the \\"fast\\" path"'), ['the "fast" path']);
    assert.deepEqual(parseCommandArgs('"API compat" fast'), ["API compat", "fast"]);
    assert.deepEqual(parseCommandArgs("a\\b 'x y'"), ["a\\b", "x y"]);
    assert.deepEqual(parseCommandArgs('"" x'), ["", "x"]);
  });

  it("keeps an unclosed quote as text", () => {
    assert.deepEqual(parseCommandArgs('"open and more'), ['"open', "and", "more"]);
    assert.deepEqual(parseCommandArgs("one 'two"), ["one", "'two"]);
  });

  it("substitutes every placeholder form", () => {
    const args = ["a", "b c", "d", "e"];
    assert.equal(substituteArgs("$1|$2|$9", args), "a|b c|");
    assert.equal(substituteArgs("$@ / $ARGUMENTS", args), "a b c d e / a b c d e");
    assert.equal(substituteArgs("${1:-x} ${5:-dflt}", args), "a dflt");
    assert.equal(substituteArgs("${@:2}", args), "b c d e");
    assert.equal(substituteArgs("${@:2:2}", args), "b c d");
    assert.equal(substituteArgs("${@:0}", args), "a b c d e");
    assert.equal(substituteArgs("${@:-none}", []), "none");
    assert.equal(substituteArgs("${ARGUMENTS:-none}", ["z"]), "z");
    // Values are not substituted again.
    assert.equal(substituteArgs("$1 $2", ["$2", "x"]), "$2 x");
  });

  it("expands pi's review example", () => {
    const review = templateOf(
      "/p/review.md",
      '---\ndescription: Review staged git changes\nargument-hint: "[focus]"\n---\nReview the staged changes. Focus on ${1:-correctness, security, and error handling}.\n',
      "user",
    );
    assert.equal(review.name, "review");
    assert.equal(review.description, "Review staged git changes");
    assert.equal(review.argumentHint, "[focus]");
    assert.equal(
      expandPromptTemplate("/review", [review]),
      "Review the staged changes. Focus on correctness, security, and error handling.",
    );
    assert.equal(
      expandPromptTemplate('/review "API compat" fast', [review]),
      "Review the staged changes. Focus on API compat.",
    );
    assert.equal(expandPromptTemplate("/unknown x", [review]), "/unknown x");
    assert.equal(expandPromptTemplate("no slash", [review]), "no slash");
  });

  it("takes the first non-empty line as description when there is none", () => {
    const t = templateOf("/p/x.md", `\n\n${"w".repeat(70)}\nmore`, "project");
    assert.equal(t.description, `${"w".repeat(60)}...`);
    assert.equal(t.argumentHint, undefined);
  });
});

describe("loading templates", () => {
  let dir: string;
  before(async () => {
    dir = tempDir("templates-").dir;
    await fs.mkdir(path.join(dir, "agent", "prompts"), { recursive: true });
    await fs.mkdir(path.join(dir, "ws", ".pi", "prompts", "nested"), { recursive: true });
    await fs.writeFile(path.join(dir, "agent", "prompts", "mine.md"), "---\ndescription: Mine\n---\nMy $1");
    await fs.writeFile(path.join(dir, "agent", "prompts", "notes.txt"), "not a template");
    await fs.writeFile(path.join(dir, "ws", ".pi", "prompts", "team.md"), "Team body $@");
    await fs.writeFile(path.join(dir, "ws", ".pi", "prompts", "mine.md"), "Shadowed");
    await fs.writeFile(path.join(dir, "ws", ".pi", "prompts", "nested", "deep.md"), "not loaded");
    await fs.writeFile(path.join(dir, "ws", ".pi", "prompts", "bad.md"), "---\ndescription: [unclosed\n---\nx");
    await fs.writeFile(path.join(dir, "ws", ".pi", "prompts", "huge.md"), "x".repeat(MAX_TEMPLATE_BYTES + 1));
  });
  after(() => fs.rm(dir, { recursive: true, force: true }));

  it("reads the agent folder's and the workspace's direct .md children", async () => {
    const { templates, diagnostics } = await loadPromptTemplates({
      agentDir: path.join(dir, "agent"),
      projectDirs: [path.join(dir, "ws")],
    });
    assert.deepEqual(
      templates.map((t) => `${t.scope}:${t.name}`),
      ["user:mine", "project:mine", "project:team"],
    );
    assert.deepEqual(diagnostics.map((d) => path.basename(d.path)).sort(), ["bad.md", "huge.md"]);
    assert.match(diagnostics.find((d) => d.path.endsWith("huge.md"))?.message ?? "", /256 KiB/);
    // The user's template wins over the workspace's of the same name, as in pi.
    assert.equal(expandPromptTemplate("/mine x", templates), "My x");
    assert.equal(expandPromptTemplate("/team a b", templates), "Team body a b");
  });

  it("reads no workspace templates when none are asked for (untrusted workspace)", async () => {
    const { templates } = await loadPromptTemplates({ agentDir: path.join(dir, "agent"), projectDirs: [] });
    assert.deepEqual(
      templates.map((t) => t.name),
      ["mine"],
    );
  });
});
