/**
 * What a cloned repository can put where instructions, skills and templates are read: links to `/proc/self/environ`
 * and to folders outside the workspace, FIFOs. A child process stands in for the extension host, started with a
 * canary key in its environment; it loads the workspace's instructions and templates and sends a prompt through the
 * real openai client to the fake server. The canary must appear nowhere — not in the prompt, the session file or a
 * request body — every hostile file is skipped with a message naming it, the load ends (a FIFO does not block it),
 * and the rest still loads. In a trusted and in an untrusted workspace.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import type { InstructionIssue } from "../../../src/core/prompt/instruction-files.js";
import type { SkillInfo } from "../../../src/core/prompt/prompt-options.js";
import { startFakeOpenAI, type FakeServer } from "../../util/fake-openai-server.js";
import { tempDir } from "../../util/temp-dir.js";

const CANARY = `sk-canary-${randomBytes(16).toString("hex")}`;

interface ChildResult {
  sessionFile: string;
  prompt: string;
  contextFiles: { path: string; content: string }[];
  skills: SkillInfo[];
  issues: InstructionIssue[];
  templates: { name: string; content: string }[];
  templateDiagnostics: { path: string; message: string }[];
}

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

function link(target: string, at: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  fs.symlinkSync(target, at);
}

function fifo(at: string): void {
  fs.mkdirSync(path.dirname(at), { recursive: true });
  execFileSync("mkfifo", [at]);
}

/**
 * <dir>/outside/evil/SKILL.md (and a secret beside it), <dir>/repo/.git, a FIFO <dir>/repo/AGENTS.md, the workspace
 * <dir>/repo/ws full of hostile files, and pi's agent folder <dir>/agent with one ordinary skill.
 */
function hostileLayout(dir: string): { ws: string; agent: string; sessions: string } {
  const repo = path.join(dir, "repo");
  const ws = path.join(repo, "ws");
  const agent = path.join(dir, "agent");
  const sessions = path.join(dir, "sessions");
  fs.mkdirSync(path.join(repo, ".git"), { recursive: true });
  fs.mkdirSync(sessions, { recursive: true });
  write(path.join(dir, "outside", "evil", "SKILL.md"), "---\nname: evil\ndescription: OUTSIDE-SKILL-GECKO\n---\n");
  write(path.join(dir, "outside", "evil", "secret.txt"), "OUTSIDE-SECRET");
  fifo(path.join(repo, "AGENTS.md"));
  link("/proc/self/environ", path.join(ws, "AGENTS.md"));
  fifo(path.join(ws, ".github", "copilot-instructions.md"));
  link("/proc/self/environ", path.join(ws, ".pi", "SYSTEM.md"));
  fifo(path.join(ws, ".pi", "APPEND_SYSTEM.md"));
  link("/proc/self/environ", path.join(ws, ".pi", "skills", "env", "SKILL.md"));
  link(path.join("..", "..", "..", "..", "outside"), path.join(ws, ".pi", "skills", "out"));
  fifo(path.join(ws, ".claude", "skills", "fifo", "SKILL.md"));
  link("/proc/self/environ", path.join(ws, ".pi", "prompts", "env.md"));
  fifo(path.join(ws, ".pi", "prompts", "fifo.md"));
  write(path.join(agent, "skills", "ok", "SKILL.md"), "---\nname: ok\ndescription: An ordinary skill.\n---\n");
  return { ws, agent, sessions };
}

/** Runs the child (killed after a bound: a FIFO that blocks the load fails the test instead of hanging it). */
async function runChild(baseURL: string, dir: string, trusted: boolean): Promise<ChildResult & { ws: string }> {
  const { ws, agent, sessions } = hostileLayout(dir);
  const out = path.join(dir, "out.json");
  const child = spawn(
    process.execPath,
    [
      "--import",
      "tsx",
      path.join(__dirname, "hostile-instructions-child.ts"),
      baseURL,
      sessions,
      ws,
      agent,
      trusted ? "1" : "0",
      out,
    ],
    { env: { ...process.env, OPENAI_API_KEY: CANARY }, stdio: ["ignore", "pipe", "pipe"], timeout: 30_000 },
  );
  let stderr = "";
  child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
    child.on("close", (c, s) => resolve([c, s])),
  );
  assert.equal(signal, null, `the load must end (a FIFO must not block it); the child was killed: ${stderr}`);
  assert.equal(code, 0, stderr);
  return { ...(JSON.parse(fs.readFileSync(out, "utf8")) as ChildResult), ws };
}

function issueFor(issues: readonly InstructionIssue[], file: string): string {
  const found = issues.find((i) => i.path === file);
  assert.ok(found, `an issue names ${file}; issues: ${JSON.stringify(issues.map((i) => i.message))}`);
  return found.message;
}

describe("hostile instruction, skill and template files", { timeout: 120_000 }, () => {
  let fake: FakeServer;
  const dirs: ReturnType<typeof tempDir>[] = [];
  before(async () => {
    fake = await startFakeOpenAI();
  });
  after(async () => {
    await fake.close();
    for (const d of dirs) d.cleanup();
  });

  const check = async (trusted: boolean): Promise<ChildResult & { ws: string }> => {
    const tmp = tempDir("hostile-");
    dirs.push(tmp);
    fake.reset();
    const r = await runChild(fake.baseURL, tmp.dir, trusted);
    const sessionText = fs.readFileSync(r.sessionFile, "utf8");
    assert.ok(!JSON.stringify(r).includes(CANARY), "not in the prompt, the instructions or the templates");
    assert.ok(!sessionText.includes(CANARY), "not in the session file");
    assert.equal(fake.requests.length, 1, "the prompt was sent");
    assert.ok(!JSON.stringify(fake.requests).includes(CANARY), "not in a request body");
    assert.ok(
      !r.prompt.includes("OUTSIDE-SKILL-GECKO"),
      "a skill reached through a link leading outside is not listed",
    );
    assert.deepEqual(
      r.skills.map((s) => s.name),
      ["ok"],
      "the agent folder's skill still loads",
    );
    const repo = path.dirname(r.ws);
    assert.match(issueFor(r.issues, path.join(repo, "AGENTS.md")), /not a regular file/);
    assert.match(issueFor(r.issues, path.join(r.ws, "AGENTS.md")), /link/);
    assert.match(issueFor(r.issues, path.join(r.ws, ".github", "copilot-instructions.md")), /not a regular file/);
    return r;
  };

  it("trusted: every hostile file is skipped with its reason, nothing leaks, the load ends", async () => {
    const r = await check(true);
    const ws = r.ws;
    assert.match(issueFor(r.issues, path.join(ws, ".pi", "SYSTEM.md")), /outside/);
    assert.match(issueFor(r.issues, path.join(ws, ".pi", "APPEND_SYSTEM.md")), /not a regular file/);
    assert.match(issueFor(r.issues, path.join(ws, ".pi", "skills", "env", "SKILL.md")), /outside/);
    assert.match(issueFor(r.issues, path.join(ws, ".pi", "skills", "out")), /outside/);
    assert.match(issueFor(r.issues, path.join(ws, ".claude", "skills", "fifo", "SKILL.md")), /not a regular file/);
    assert.deepEqual(r.templates, [], "neither template loads");
    assert.deepEqual(r.templateDiagnostics.map((d) => path.basename(d.path)).sort(), ["env.md", "fifo.md"]);
    assert.match(r.templateDiagnostics.find((d) => d.path.endsWith("env.md"))?.message ?? "", /outside/);
    assert.match(r.templateDiagnostics.find((d) => d.path.endsWith("fifo.md"))?.message ?? "", /not a regular file/);
  });

  it("untrusted: the same, and the workspace's .pi files are not even opened", async () => {
    const r = await check(false);
    assert.ok(
      r.issues.every((i) => !i.path.includes(`${path.sep}.pi${path.sep}`)),
      "Restricted Mode does not look at .pi/",
    );
    assert.deepEqual(r.templates, []);
  });
});
