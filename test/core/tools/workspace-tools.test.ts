import assert from "node:assert/strict";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createWorkspaceTools } from "../../../src/core/tools/workspace-tools.js";
import type { AgentTool, ToolResult } from "../../../src/core/tools/types.js";
import { tempDir } from "../../util/temp-dir.js";

function text(r: ToolResult): string {
  return r.content
    .filter((c) => c.type === "text")
    .map((c) => (c.type === "text" ? c.text : ""))
    .join("\n");
}

describe("workspace tools", () => {
  let root: string;
  let outside: string;
  let tools: Map<string, AgentTool>;
  const run = (name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult> => {
    const tool = tools.get(name);
    assert.ok(tool, `tool ${name}`);
    return tool.execute(args, { cwd: root, signal });
  };

  before(async () => {
    const base = tempDir("agent-tree-tools-").dir;
    root = path.join(base, "ws");
    outside = path.join(base, "outside");
    await fs.mkdir(path.join(root, "src", "deep"), { recursive: true });
    await fs.mkdir(path.join(root, "node_modules", "pkg"), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, "secret.txt"), "TOP SECRET\n");
    await fs.writeFile(path.join(root, "src", "a.ts"), "export const a = 1;\n// TODO one\nexport const b = 2;\n");
    await fs.writeFile(path.join(root, "src", "deep", "b.ts"), "function f() {\n  return 'todo two';\n}\n");
    await fs.writeFile(path.join(root, "README.md"), "# Title\nTODO docs\n");
    await fs.writeFile(path.join(root, "node_modules", "pkg", "index.ts"), "TODO hidden\n");
    await fs.writeFile(path.join(root, "long.txt"), Array.from({ length: 3000 }, (_, i) => `line ${i + 1}`).join("\n"));
    await fs.symlink(outside, path.join(root, "escape-link"));
    await fs.symlink(path.join(outside, "secret.txt"), path.join(root, "secret-link.txt"));
    tools = new Map(createWorkspaceTools(root).map((t) => [t.name, t]));
  });
  after(async () => {
    await fs.rm(path.dirname(root), { recursive: true, force: true });
  });

  it("has pi's names (and todo, web_fetch), marks write/edit/bash as mutating and web_fetch as asking", () => {
    assert.deepEqual([...tools.keys()], ["read", "write", "edit", "bash", "grep", "find", "ls", "todo", "web_fetch"]);
    assert.deepEqual(
      [...tools.values()].filter((t) => t.mutates).map((t) => t.name),
      ["write", "edit", "bash"],
    );
    assert.deepEqual(
      [...tools.values()].filter((t) => t.asks === true).map((t) => t.name),
      ["web_fetch"],
    );
    for (const t of tools.values()) assert.equal(t.parameters.type, "object");
  });

  it("read returns content with 1-based offset/limit and notes truncation", async () => {
    const r = await run("read", { path: "long.txt", offset: 10, limit: 3 });
    assert.equal(r.isError, undefined);
    assert.match(text(r), /^line 10\nline 11\nline 12\n\n\[2988 more lines in file\. Use offset=13 to continue\.\]$/);
    const all = await run("read", { path: "long.txt" });
    assert.match(text(all), /\[Showing lines 1-2000 of 3000\. Use offset=2001 to continue\.\]$/);
    const missing = await run("read", { path: "nope.txt" });
    assert.equal(missing.isError, true);
    assert.match(text(missing), /File not found: nope\.txt/);
  });

  it("read streams a window of a file larger than the whole-file threshold", async () => {
    const big = path.join(root, "big.log");
    const line = "x".repeat(99);
    // ~9.6MB: over the 8MB whole-file limit
    await fs.writeFile(big, Array.from({ length: 96_000 }, (_, i) => `${i + 1} ${line}`).join("\n") + "\n");
    const r = await run("read", { path: "big.log", offset: 50_000, limit: 2 });
    assert.equal(text(r).split("\n").slice(0, 2).join("\n"), `50000 ${line}\n50001 ${line}`);
    assert.equal((r.details as { totalLines: number }).totalLines, 96_001);
    await fs.rm(big);
  });

  it("refuses paths that escape the workspace", async () => {
    for (const p of [
      "../outside/secret.txt",
      path.join(outside, "secret.txt"),
      "escape-link/secret.txt",
      "secret-link.txt",
      "src/../../outside/secret.txt",
    ]) {
      const r = await run("read", { path: p });
      assert.equal(r.isError, true, p);
      assert.match(text(r), /outside the workspace/, p);
      assert.ok(!text(r).includes("TOP SECRET"));
    }
    const w = await run("write", { path: "escape-link/new.txt", content: "x" });
    assert.equal(w.isError, true);
    await assert.rejects(fs.access(path.join(outside, "new.txt")));
    const l = await run("ls", { path: ".." });
    assert.equal(l.isError, true);
    const g = await run("grep", { pattern: "SECRET", path: "escape-link" });
    assert.equal(g.isError, true);
  });

  it("write creates folders; edit replaces unique text and explains missing/ambiguous text", async () => {
    const w = await run("write", { path: "new/dir/file.txt", content: "alpha\nbeta\nalpha\n" });
    assert.equal(w.isError, undefined);
    assert.equal(await fs.readFile(path.join(root, "new/dir/file.txt"), "utf8"), "alpha\nbeta\nalpha\n");
    const amb = await run("edit", { path: "new/dir/file.txt", oldText: "alpha", newText: "gamma" });
    assert.equal(amb.isError, true);
    assert.match(text(amb), /occurs 2 times/);
    const miss = await run("edit", { path: "new/dir/file.txt", oldText: "delta", newText: "x" });
    assert.equal(miss.isError, true);
    assert.match(text(miss), /Could not find the text/);
    const ok = await run("edit", { path: "new/dir/file.txt", oldText: "beta\nalpha", newText: "BETA" });
    assert.equal(ok.isError, undefined);
    assert.equal(await fs.readFile(path.join(root, "new/dir/file.txt"), "utf8"), "alpha\nBETA\n");
    assert.equal((ok.details as { firstChangedLine: number }).firstChangedLine, 2);
  });

  it("edit matches LF text in a CRLF file", async () => {
    await fs.writeFile(path.join(root, "crlf.txt"), "one\r\ntwo\r\nthree\r\n");
    const r = await run("edit", { path: "crlf.txt", oldText: "one\ntwo", newText: "1\n2" });
    assert.equal(r.isError, undefined, text(r));
    assert.equal(await fs.readFile(path.join(root, "crlf.txt"), "utf8"), "1\r\n2\r\nthree\r\n");
    // The recorded diff (pi's format, context around the change) shows the lines without their CR.
    assert.equal((r.details as { diff: string }).diff, "-1 one\n-2 two\n+1 1\n+2 2\n 3 three");
  });

  it("bad or unparseable arguments give error results, not exceptions", async () => {
    const r = await run("read", {});
    assert.equal(r.isError, true);
    assert.match(text(r), /Missing or invalid "path"/);
    const raw = await run("write", { _raw: '{"path": "x' });
    assert.equal(raw.isError, true);
    assert.match(text(raw), /not valid JSON/);
  });

  it("bash runs in the workspace, reports exit codes and keeps the tail of long output", async () => {
    const r = await run("bash", { command: "pwd && echo err 1>&2" });
    assert.equal(r.isError, undefined);
    assert.equal(text(r), `${await fs.realpath(root)}\nerr`);
    const fail = await run("bash", { command: "echo nope; exit 3" });
    assert.equal(fail.isError, true);
    assert.match(text(fail), /nope\n\nCommand exited with code 3\./);
    const long = await run("bash", { command: "seq 1 5000" });
    const t = text(long);
    assert.match(t, /^\[Output truncated: showing the last 2000 lines/);
    assert.ok(t.endsWith("\n5000"));
    assert.ok(!t.includes("\n2999\n"));
  });

  it("bash does not expose the model API keys to commands", async () => {
    const names = ["OPENAI_API_KEY", "OPENROUTER_API_KEY"];
    const saved = names.map((n) => process.env[n]);
    for (const n of names) process.env[n] = "sk-should-not-leak";
    try {
      const r = await run("bash", {
        command: 'echo "key=[$OPENAI_API_KEY$OPENROUTER_API_KEY]"; echo "home=[${HOME:+set}]"',
      });
      assert.equal(text(r), "key=[]\nhome=[set]");
    } finally {
      names.forEach((n, i) => {
        if (saved[i] === undefined) delete process.env[n];
        else process.env[n] = saved[i];
      });
    }
  });

  it("bash timeout and abort kill the whole process group", async () => {
    const marker = path.join(root, "grandchild-survived");
    const timed = await run("bash", { command: `(sleep 2; touch ${marker}) & sleep 30`, timeout: 1 });
    assert.equal(timed.isError, true);
    assert.match(text(timed), /timed out after 1 seconds/);
    const ac = new AbortController();
    const p = run("bash", { command: "echo started; sleep 30" }, ac.signal);
    setTimeout(() => ac.abort(), 200);
    const aborted = await p;
    assert.equal(aborted.isError, true);
    assert.match(text(aborted), /Command aborted/);
    await new Promise((r) => setTimeout(r, 1500));
    await assert.rejects(fs.access(marker), "the backgrounded grandchild was killed with the group");
  });

  it("grep searches recursively, skips node_modules, supports glob, literal, ignoreCase, context and limit", async () => {
    const r = await run("grep", { pattern: "TODO" });
    assert.deepEqual(text(r).split("\n"), ["README.md:2: TODO docs", "src/a.ts:2: // TODO one"]);
    const ci = await run("grep", { pattern: "todo", ignoreCase: true, glob: "*.ts" });
    assert.deepEqual(text(ci).split("\n"), ["src/a.ts:2: // TODO one", "src/deep/b.ts:2:   return 'todo two';"]);
    const ctx = await run("grep", { pattern: "TODO one", path: "src/a.ts", context: 1 });
    assert.deepEqual(text(ctx).split("\n"), [
      "src/a.ts-1- export const a = 1;",
      "src/a.ts:2: // TODO one",
      "src/a.ts-3- export const b = 2;",
    ]);
    const lit = await run("grep", { pattern: "f()", literal: true });
    assert.equal(text(lit), "src/deep/b.ts:1: function f() {");
    const lim = await run("grep", { pattern: "line", path: "long.txt", limit: 2 });
    assert.match(text(lim), /^long\.txt:1: line 1\nlong\.txt:2: line 2\n\n\[Stopped at 2 matches/);
    const bad = await run("grep", { pattern: "(" });
    assert.equal(bad.isError, true);
    assert.match(text(bad), /Invalid regular expression/);
  });

  it("find matches globs at any depth and skips node_modules; ls lists a folder", async () => {
    const f = await run("find", { pattern: "*.ts" });
    assert.deepEqual(text(f).split("\n"), ["src/a.ts", "src/deep/b.ts"]);
    const f2 = await run("find", { pattern: "**/deep/*.ts" });
    assert.equal(text(f2), "src/deep/b.ts");
    const f3 = await run("find", { pattern: "*.ts", path: "src/deep" });
    assert.equal(text(f3), "src/deep/b.ts");
    const none = await run("find", { pattern: "*.py" });
    assert.match(text(none), /No files found/);
    const l = await run("ls", { path: "src" });
    assert.equal(text(l), "a.ts\ndeep/");
    const lr = await run("ls", { limit: 2 });
    assert.match(text(lr), /\[Showing 2 of \d+ entries/);
  });
});
