/** The system prompt's sections: names, order (stable first), the tool list from the tools given, patches. */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  DEFAULT_PREAMBLE,
  STABLE_SECTIONS,
  applySectionPatch,
  buildPromptSections,
  diffPromptSections,
  normalizePromptOptions,
  systemPromptText,
  type SystemPromptOptions,
} from "../../../src/core/index.js";
import { createWorkspaceTools } from "../../../src/core/tools/index.js";
import { promptToolOf } from "../../../src/core/agent/system-prompt-sync.js";

function options(over: Partial<SystemPromptOptions> = {}): SystemPromptOptions {
  return normalizePromptOptions({
    cwd: "/work/project",
    tools: createWorkspaceTools("/work/project").map(promptToolOf),
    contextFiles: [{ path: "/work/project/AGENTS.md", content: "Use tabs." }],
    skills: [
      { name: "pdf-tools", description: "Extract text from PDFs.", filePath: "/work/project/.pi/skills/pdf/SKILL.md" },
    ],
    appendSystemPrompt: "Answer in English.",
    date: "2026-11-27",
    platform: "linux x64",
    ...over,
  });
}

describe("system prompt sections", () => {
  it("come in a fixed order, stable ones first, each but the preamble wrapped in its name", () => {
    const sections = buildPromptSections(options());
    assert.deepEqual(Object.keys(sections), [
      "preamble",
      "tools",
      "rules",
      "cwd",
      "addendum",
      "project_context",
      "skills",
      "environment",
    ]);
    assert.deepEqual(Object.keys(sections).slice(0, STABLE_SECTIONS.length), [...STABLE_SECTIONS]);
    assert.equal(sections.preamble, DEFAULT_PREAMBLE);
    assert.match(sections.preamble, /coding agent/);
    assert.match(sections.preamble, /VS Code/);
    for (const [name, text] of Object.entries(sections)) {
      if (name !== "preamble") assert.ok(text.startsWith(`<${name}>\n`) && text.endsWith(`\n</${name}>`), name);
    }
    assert.equal(sections.cwd, "<cwd>\n/work/project\n</cwd>");
    assert.match(sections.environment, /Current date: 2026-11-27/);
    assert.match(sections.environment, /Platform: linux x64/);
    assert.match(sections.project_context, /<project_instructions path="\/work\/project\/AGENTS.md">\nUse tabs.\n/);
    assert.match(sections.skills, /<name>pdf-tools<\/name>/);
    assert.match(sections.skills, /<location>\/work\/project\/.pi\/skills\/pdf\/SKILL.md<\/location>/);
    assert.match(sections.skills, /Use the read tool/);
    assert.equal(sections.addendum, "<addendum>\nAnswer in English.\n</addendum>");
  });

  it("lists every tool given, one line each, with its guidelines among the rules", () => {
    const mcp = { name: "mcp_weather", description: "Get the weather for a city.\nLong details follow." };
    const sections = buildPromptSections(options({ tools: [...options().tools, mcp] }));
    const lines = sections.tools.split("\n").slice(1, -1);
    assert.deepEqual(
      lines.map((l) => l.split(":")[0]),
      ["- read", "- write", "- edit", "- bash", "- grep", "- find", "- ls", "- todo", "- web_fetch", "- mcp_weather"],
    );
    assert.ok(lines.includes("- read: Read file contents"));
    assert.ok(lines.includes("- mcp_weather: Get the weather for a city."), "a tool without a snippet: its first line");
    assert.match(sections.rules, /- Use read to examine files instead of cat or sed\./);
    assert.match(sections.rules, /- Use todo to plan tasks of three or more steps/);
    assert.match(sections.rules, /- Read a file before you edit it/);
    assert.match(sections.rules, /- Be concise in your responses/);
    assert.match(sections.rules, /- Show file paths clearly when working with files/);
  });

  it("SYSTEM.md replaces only the preamble; empty parts leave their section out", () => {
    const sections = buildPromptSections(
      options({ customPrompt: "You are MY agent.", contextFiles: [], skills: [], appendSystemPrompt: "" }),
    );
    assert.equal(sections.preamble, "You are MY agent.");
    assert.deepEqual(Object.keys(sections), ["preamble", "tools", "rules", "cwd", "environment"]);
  });

  it("a hook's extra section goes before the date; a built-in or invalid name is refused", () => {
    const sections = buildPromptSections(options({ sections: { team_rules: "No Fridays." } }));
    assert.deepEqual(Object.keys(sections).slice(-2), ["team_rules", "environment"]);
    assert.throws(
      () => buildPromptSections(options({ sections: { rules: "x" } })),
      /Invalid system prompt section name: rules/,
    );
    assert.throws(() => buildPromptSections(options({ sections: { "Bad Name": "x" } })), /Invalid/);
  });

  it("multi-root: the other folders are named after the working one", () => {
    const sections = buildPromptSections(options({ workspaceFolders: ["/work/project", "/work/lib"] }));
    assert.match(
      sections.cwd,
      /^<cwd>\n\/work\/project\n\nOther folders of the workspace[^\n]*\n- \/work\/lib\n<\/cwd>$/,
    );
  });

  it("a patch holds only the sections that changed; applying it gives the new prompt", () => {
    const before = buildPromptSections(options());
    const after = buildPromptSections(options({ contextFiles: [], date: "2026-11-28" }));
    const patch = diffPromptSections(before, after);
    assert.deepEqual(Object.keys(patch ?? {}).sort(), ["environment", "project_context"]);
    assert.equal(patch?.project_context, null);
    assert.deepEqual(applySectionPatch(before, patch ?? {}), after);
    assert.equal(diffPromptSections(after, after), undefined);
    const text = systemPromptText({ role: "system", content: "", sections: after, timestamp: 0 });
    assert.ok(text.startsWith(DEFAULT_PREAMBLE + "\n\n<tools>\n"));
  });
});
