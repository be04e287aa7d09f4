/**
 * Finding the project's instructions as pi does: context files up the folder tree (override, CLAUDE.md fallback),
 * the agent folder's, Copilot's file, SYSTEM.md / APPEND_SYSTEM.md, skills in their four places; Workspace Trust,
 * the size cap, unreadable files, and the cache that only a watcher's invalidate() refreshes.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { InstructionLoader, loadInstructions, type InstructionSources } from "../../../src/core/index.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function skill(dir: string, name: string, description = `Does ${name}.`): string {
  const file = path.join(dir, "SKILL.md");
  write(file, `---\nname: ${name}\ndescription: ${description}\n---\n\n# ${name}\n`);
  return file;
}

describe("project instructions", () => {
  const tmp = tempDirPerTest();
  /** <tmp>/repo/.git, <tmp>/repo/pkg (the workspace), <tmp>/agent (pi's agent folder). */
  const layout = (): { root: string; repo: string; ws: string; agent: string; sources: InstructionSources } => {
    const root = tmp.dir;
    const repo = path.join(root, "repo");
    const ws = path.join(repo, "pkg");
    const agent = path.join(root, "agent");
    fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
    fs.mkdirSync(ws, { recursive: true });
    fs.mkdirSync(agent, { recursive: true });
    return { root, repo, ws, agent, sources: { workspaceFolders: [ws], agentDir: agent, trusted: true } };
  };

  it("context files: the agent folder's, then each folder from the root down; override and CLAUDE.md per folder", async () => {
    const { root, repo, ws, agent, sources } = layout();
    write(path.join(agent, "AGENTS.md"), "user-wide");
    write(path.join(root, "CLAUDE.md"), "root claude");
    write(path.join(repo, "AGENTS.md"), "repo agents");
    write(path.join(repo, "CLAUDE.md"), "repo claude: not used, AGENTS.md is there");
    write(path.join(ws, "AGENTS.md"), "pkg agents: not used");
    write(path.join(ws, "AGENTS.override.md"), "pkg override");
    write(path.join(ws, ".github", "copilot-instructions.md"), "copilot says");
    const loaded = await loadInstructions(sources);
    const found = loaded.contextFiles.filter((f) => f.path.startsWith(root));
    assert.deepEqual(
      found.map((f) => [path.relative(root, f.path), f.content]),
      [
        ["agent/AGENTS.md", "user-wide"],
        ["CLAUDE.md", "root claude"],
        ["repo/AGENTS.md", "repo agents"],
        ["repo/pkg/AGENTS.override.md", "pkg override"],
        ["repo/pkg/.github/copilot-instructions.md", "copilot says"],
      ],
    );
    assert.deepEqual(loaded.issues, []);
  });

  it("SYSTEM.md and APPEND_SYSTEM.md: the project's win over the agent folder's; untrusted, only the agent folder's", async () => {
    const { ws, agent, sources } = layout();
    write(path.join(agent, "SYSTEM.md"), "agent system");
    write(path.join(agent, "APPEND_SYSTEM.md"), "agent append");
    write(path.join(ws, ".pi", "SYSTEM.md"), "project system\n");
    write(path.join(ws, ".pi", "APPEND_SYSTEM.md"), "project append");
    const trusted = await loadInstructions(sources);
    assert.equal(trusted.customPrompt, "project system");
    assert.equal(trusted.appendSystemPrompt, "project append");
    assert.equal(trusted.restrictedByTrust, false);
    const untrusted = await loadInstructions({ ...sources, trusted: false });
    assert.equal(untrusted.customPrompt, "agent system");
    assert.equal(untrusted.appendSystemPrompt, "agent append");
    assert.equal(untrusted.restrictedByTrust, true);
  });

  it("skills in .pi/skills, .agents/skills (up to the repository root), .claude/skills and the agent folder", async () => {
    const { root, repo, ws, agent, sources } = layout();
    skill(path.join(agent, "skills", "user-skill"), "user-skill");
    skill(path.join(ws, ".pi", "skills", "group", "pi-skill"), "pi-skill");
    skill(path.join(ws, ".agents", "skills", "agents-skill"), "agents-skill");
    skill(path.join(repo, ".agents", "skills", "repo-skill"), "repo-skill");
    skill(path.join(root, ".agents", "skills", "outside"), "outside-repo");
    skill(path.join(ws, ".claude", "skills", "claude-skill"), "claude-skill");
    write(path.join(ws, ".claude", "skills", "broken", "SKILL.md"), "---\nname: broken\n---\nno description");
    skill(path.join(ws, ".claude", "skills", "dup"), "pi-skill", "A second pi-skill.");
    const loaded = await loadInstructions(sources);
    assert.deepEqual(
      loaded.skills.map((s) => s.name),
      ["user-skill", "pi-skill", "agents-skill", "repo-skill", "claude-skill"],
    );
    assert.equal(loaded.skills[1].filePath, path.join(ws, ".pi", "skills", "group", "pi-skill", "SKILL.md"));
    assert.equal(loaded.skills[1].description, "Does pi-skill.");
    assert.deepEqual(loaded.issues.map((i) => path.relative(ws, i.path)).sort(), [
      ".claude/skills/broken/SKILL.md",
      ".claude/skills/dup/SKILL.md",
    ]);
    assert.match(loaded.issues.find((i) => i.path.includes("broken"))?.message ?? "", /no description/);
    assert.match(loaded.issues.find((i) => i.path.includes("dup"))?.message ?? "", /"pi-skill" is taken/);

    const untrusted = await loadInstructions({ ...sources, trusted: false });
    assert.deepEqual(
      untrusted.skills.map((s) => s.name),
      ["user-skill"],
      "an untrusted workspace's skills are not loaded",
    );
  });

  it("a file over the cap and an unreadable one are skipped with a message naming them; the rest loads", async () => {
    const { repo, ws, sources } = layout();
    write(path.join(repo, "AGENTS.md"), "x".repeat(2048));
    fs.symlinkSync("AGENTS.md", path.join(ws, "AGENTS.md")); // a link to itself: ELOOP on open
    write(path.join(ws, ".github", "copilot-instructions.md"), "small");
    const loaded = await loadInstructions({ ...sources, maxFileBytes: 1024 });
    assert.deepEqual(
      loaded.contextFiles.map((f) => f.content),
      ["small"],
    );
    assert.equal(loaded.issues.length, 2);
    const big = loaded.issues.find((i) => i.path === path.join(repo, "AGENTS.md"));
    assert.match(
      big?.message ?? "",
      new RegExp(`Skipped ${path.join(repo, "AGENTS.md")}: 2 KB is over the 1 KB limit`),
    );
    const loop = loaded.issues.find((i) => i.path === path.join(ws, "AGENTS.md"));
    assert.match(loop?.message ?? "", /Skipped .*pkg\/AGENTS\.md: .*(ELOOP|too many)/i);
  });

  it("the loader caches until invalidate(); then a change is picked up", async () => {
    const { ws, sources } = layout();
    const file = path.join(ws, "AGENTS.md");
    write(file, "first version");
    const loader = new InstructionLoader(sources);
    const first = await loader.load();
    assert.equal(first.contextFiles.at(-1)?.content, "first version");
    assert.ok(first.watchFiles.includes(file), "the file is among the watched paths");
    write(file, "second version");
    assert.equal(await loader.load(), first, "cached: nothing is read again");
    loader.invalidate();
    assert.equal((await loader.load()).contextFiles.at(-1)?.content, "second version");
    loader.setSources({ trusted: false });
    assert.equal((await loader.load()).restrictedByTrust, true);
  });
});
