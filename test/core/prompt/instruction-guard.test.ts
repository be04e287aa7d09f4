/**
 * Instruction and skill files are read as the tools read files: Restricted Mode leaves symlinked workspace files
 * out, the size cap counts the bytes read (not what stat says), the skills scan is bounded (link cycles, wide
 * trees, a link to `/`), the `.agents` climb stops below the home folder, and only skills of pi's agent folder
 * widen `read`.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { loadInstructions, workspacePromptProvider, InstructionLoader } from "../../../src/core/index.js";
import { MAX_FOLDERS_PER_SKILLS_DIR, scanSkillsDir } from "../../../src/core/prompt/skills.js";
import { SessionManager } from "../../../src/core/session/session-manager.js";
import { fakeServerForSuite } from "../../util/fake-server-suite.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { newAgent, openAIModel } from "../agent/helpers.js";

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function skill(dir: string, name: string): void {
  write(path.join(dir, "SKILL.md"), `---\nname: ${name}\ndescription: Does ${name}.\n---\n`);
}

describe("instruction files through the path guard", () => {
  const tmp = tempDirPerTest();

  it("Restricted Mode leaves a symlinked AGENTS.md out (with the reason); trusted, a link inside is followed", async () => {
    const ws = path.join(tmp.dir, "ws");
    write(path.join(ws, "docs", "rules.md"), "Linked rules: HERON");
    fs.symlinkSync(path.join("docs", "rules.md"), path.join(ws, "AGENTS.md"));
    const sources = { workspaceFolders: [ws], agentDir: path.join(tmp.dir, "agent") };
    const trusted = await loadInstructions({ ...sources, trusted: true });
    assert.deepEqual(
      trusted.contextFiles.map((f) => f.content),
      ["Linked rules: HERON"],
    );
    assert.deepEqual(trusted.issues, []);
    const untrusted = await loadInstructions({ ...sources, trusted: false });
    assert.deepEqual(untrusted.contextFiles, []);
    assert.equal(untrusted.issues.length, 1);
    assert.equal(untrusted.issues[0].path, path.join(ws, "AGENTS.md"));
    assert.match(untrusted.issues[0].message, /link.*Restricted Mode/);
  });

  it("the cap counts the bytes actually read: a file whose stat says 0 bytes but holds more is skipped", async () => {
    const agent = path.join(tmp.dir, "agent");
    fs.mkdirSync(agent, { recursive: true });
    // pi's agent folder is the user's own: its links are followed, and the cap still holds.
    fs.symlinkSync("/proc/self/status", path.join(agent, "AGENTS.md"));
    assert.equal(fs.statSync(path.join(agent, "AGENTS.md")).size, 0, "what stat says");
    const loaded = await loadInstructions({
      workspaceFolders: [path.join(tmp.dir, "ws")],
      agentDir: agent,
      trusted: true,
      maxFileBytes: 64,
    });
    assert.deepEqual(loaded.contextFiles, []);
    assert.match(loaded.issues[0]?.message ?? "", /AGENTS\.md: .*over the 1 KB limit/);
  });
});

describe("the skills scan", () => {
  const tmp = tempDirPerTest();

  it("does not follow a workspace skills link out of the workspace, even to /", async () => {
    const ws = path.join(tmp.dir, "ws");
    fs.mkdirSync(path.join(ws, ".pi", "skills"), { recursive: true });
    fs.symlinkSync("/", path.join(ws, ".pi", "skills", "root"));
    const scan = await scanSkillsDir(path.join(ws, ".pi", "skills"), 64 * 1024, { root: ws });
    assert.deepEqual(scan.folders, [path.join(ws, ".pi", "skills")], "one folder looked into");
    assert.deepEqual(scan.skills, []);
    assert.match(scan.issues[0]?.message ?? "", /root: .*outside/);
  });

  it("enters each real folder once: link cycles in the agent folder's skills cost one visit each", async () => {
    const skills = path.join(tmp.dir, "agent", "skills");
    fs.mkdirSync(path.join(skills, "group"), { recursive: true });
    for (const n of ["a", "b", "c", "d"]) fs.symlinkSync("..", path.join(skills, "group", n));
    skill(path.join(skills, "group", "real"), "real");
    const scan = await scanSkillsDir(skills, 64 * 1024);
    assert.deepEqual(
      scan.skills.map((s) => s.name),
      ["real"],
    );
    assert.ok(scan.folders.length <= 3, `folders looked into: ${scan.folders.length}`);
  });

  it("stops after MAX_FOLDERS_PER_SKILLS_DIR folders and says so", async () => {
    const skills = path.join(tmp.dir, "agent", "skills");
    // 13 + 169 + 2197 folders, more than the bound, none a skill.
    const names = Array.from({ length: 13 }, (_, i) => `d${i}`);
    for (const a of names)
      for (const b of names) for (const c of names) fs.mkdirSync(path.join(skills, a, b, c), { recursive: true });
    const scan = await scanSkillsDir(skills, 64 * 1024);
    assert.ok(scan.folders.length <= MAX_FOLDERS_PER_SKILLS_DIR, `folders looked into: ${scan.folders.length}`);
    assert.match(scan.issues.at(-1)?.message ?? "", /stopped after/);
  });

  it("the .agents climb stops below the home folder", async () => {
    const home = path.join(tmp.dir, "home");
    const ws = path.join(home, "proj", "sub");
    fs.mkdirSync(ws, { recursive: true });
    skill(path.join(home, "proj", ".agents", "skills", "proj-skill"), "proj-skill");
    skill(path.join(home, ".agents", "skills", "home-skill"), "home-skill");
    skill(path.join(tmp.dir, ".agents", "skills", "above-home"), "above-home");
    const loaded = await loadInstructions({
      workspaceFolders: [ws],
      agentDir: path.join(tmp.dir, "agent"),
      trusted: true,
      homeDir: home,
    });
    assert.deepEqual(
      loaded.skills.map((s) => s.name),
      ["proj-skill"],
    );
  });
});

describe("skills and the read tool", { timeout: 60_000 }, () => {
  const fake = fakeServerForSuite();
  const tmp = tempDirPerTest();

  it("only the agent folder's skills add read roots: a parent folder's .agents skill does not", async () => {
    const repo = path.join(tmp.dir, "repo");
    const ws = path.join(repo, "pkg");
    const agentDir = path.join(tmp.dir, "agent");
    fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
    fs.mkdirSync(ws, { recursive: true });
    skill(path.join(repo, ".agents", "skills", "parent"), "parent");
    write(path.join(repo, ".agents", "skills", "parent", "notes.txt"), "PARENT-NOTES-LYNX");
    skill(path.join(agentDir, "skills", "mine"), "mine");
    write(path.join(agentDir, "skills", "mine", "steps.txt"), "MY-STEPS-OTTER");
    const loader = new InstructionLoader({ workspaceFolders: [ws], agentDir, trusted: true });
    const sm = await SessionManager.create(ws, path.join(tmp.dir, "sessions"));
    const { agent } = newAgent(sm, {
      model: openAIModel(fake),
      systemPrompt: workspacePromptProvider({ loader }),
      tools: undefined,
    });
    const results: string[] = [];
    agent.subscribe((e) => {
      if (e.type === "message_end" && e.message.role === "toolResult") results.push(JSON.stringify(e.message.content));
    });
    const read = (file: string): Promise<void> => agent.prompt(`/tool read {"path": ${JSON.stringify(file)}}`);
    await read(path.join(agentDir, "skills", "mine", "steps.txt"));
    assert.match(results[0] ?? "", /MY-STEPS-OTTER/, "the agent folder's skill folder is readable");
    await read(path.join(repo, ".agents", "skills", "parent", "notes.txt"));
    assert.doesNotMatch(results[1] ?? "", /LYNX/);
    assert.match(results[1] ?? "", /outside/i, "a parent folder's skill does not widen read");
    await sm.close();
  });
});
