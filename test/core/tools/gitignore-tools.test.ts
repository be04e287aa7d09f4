/**
 * grep and find honour .gitignore. The expected sets are written out by hand, and are also checked
 * against git itself (`git ls-files --others --exclude-standard`) and ripgrep (`rg --files`), when
 * those are installed, so the pure-Node matcher agrees with the tools users know.
 */
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createFindTool } from "../../../src/core/tools/find-tool.js";
import { createGrepTool } from "../../../src/core/tools/grep-tool.js";
import type { ToolResult } from "../../../src/core/tools/types.js";
import { tempDir } from "../../util/temp-dir.js";

function text(r: ToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

/** Workspace files (content "TODO <path>") and .gitignore files of the fixture. */
const FILES: Record<string, string> = {
  ".gitignore": [
    "# build output",
    "dist/",
    "!dist/keep.js", // cannot re-include below an ignored folder
    "*.log",
    "!keep.log",
    "/root-only.txt",
    "secret/**",
    "!secret/public.txt",
    "docs/**/draft-*.md",
    "build/",
    "",
  ].join("\n"),
  "pkg/.gitignore": "generated/\n!*.log\n/local.ts\n",
  "src/a.ts": "",
  "src/app.log": "",
  "src/keep.log": "",
  "src/root-only.txt": "",
  "src/dist/x.js": "",
  "dist/bundle.js": "",
  "dist/keep.js": "",
  "root-only.txt": "",
  "secret/hidden.txt": "",
  "secret/public.txt": "",
  "docs/draft-1.md": "",
  "docs/a/b/draft-2.md": "",
  "docs/final.md": "",
  build: "", // a file: "build/" only ignores folders
  "out/build/x.ts": "",
  "pkg/debug.log": "",
  "pkg/local.ts": "",
  "pkg/sub/local.ts": "",
  "pkg/generated/g.ts": "",
  "pkg/dist/z.js": "",
  ".hidden/thing.ts": "",
  "info-excluded.txt": "",
  "src/info-excluded.txt": "",
};

/** The repository's own exclude file (root-level rules, below every .gitignore). */
const INFO_EXCLUDE = "/info-excluded.txt\n";

/** What git would list (hand-written). */
const VISIBLE = [
  ".gitignore",
  ".hidden/thing.ts",
  "build",
  "docs/final.md",
  "pkg/.gitignore",
  "pkg/debug.log",
  "pkg/sub/local.ts",
  "secret/public.txt",
  "src/a.ts",
  "src/info-excluded.txt",
  "src/keep.log",
  "src/root-only.txt",
];

/** Environment for git/rg that ignores the user's global excludes and config. */
function isolatedEnv(home: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith("GIT_")) env[k] = v;
  return { ...env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config"), GIT_CONFIG_NOSYSTEM: "1" };
}

const has = (cmd: string): boolean => spawnSync(cmd, ["--version"], { stdio: "ignore" }).status === 0;

function lines(out: string): string[] {
  return out
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .sort();
}

describe("grep and find honour .gitignore", () => {
  let base: string;
  let root: string;
  let env: NodeJS.ProcessEnv;
  const find = async (args: Record<string, unknown>): Promise<string[]> => {
    const r = await createFindTool(root).execute(args, { cwd: root });
    assert.notEqual(r.isError, true, text(r));
    return /^No files found/.test(text(r)) ? [] : lines(text(r));
  };
  const grepFiles = async (args: Record<string, unknown>): Promise<string[]> => {
    const r = await createGrepTool(root).execute(args, { cwd: root });
    assert.notEqual(r.isError, true, text(r));
    if (/^No matches/.test(text(r))) return [];
    return [...new Set(lines(text(r)).map((l) => l.slice(0, l.indexOf(":"))))].sort();
  };

  before(async () => {
    base = tempDir("agent-tree-gitignore-").dir;
    root = path.join(base, "ws");
    env = isolatedEnv(path.join(base, "home"));
    await fs.mkdir(path.join(base, "home"));
    for (const [rel, content] of Object.entries(FILES)) {
      await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await fs.writeFile(path.join(root, rel), content || `TODO ${rel}\n`);
    }
    // A .git folder is always skipped, with or without a rule for it.
    await fs.mkdir(path.join(root, ".git", "info"), { recursive: true });
    await fs.writeFile(path.join(root, ".git", "config.txt"), "TODO in git\n");
    await fs.writeFile(path.join(root, ".git", "info", "exclude"), INFO_EXCLUDE);
  });
  after(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  it("find lists exactly what git would not ignore, .git never", async () => {
    assert.deepEqual(await find({ pattern: "*" }), VISIBLE);
    assert.deepEqual(await find({ pattern: "**/*.log" }), ["pkg/debug.log", "src/keep.log"]);
  });

  it("grep searches only files git would not ignore, .git never", async () => {
    assert.deepEqual(
      await grepFiles({ pattern: "TODO" }),
      VISIBLE.filter((f) => !f.endsWith(".gitignore")),
    );
  });

  it("a searched subfolder inherits the rules of the .gitignore files above it", async () => {
    assert.deepEqual(await find({ pattern: "*", path: "pkg" }), [
      "pkg/.gitignore",
      "pkg/debug.log",
      "pkg/sub/local.ts",
    ]);
    assert.deepEqual(await grepFiles({ pattern: "TODO", path: "src" }), [
      "src/a.ts",
      "src/info-excluded.txt",
      "src/keep.log",
      "src/root-only.txt",
    ]);
  });

  it("an ignored folder or file named explicitly is still searched, as ripgrep does", async () => {
    assert.deepEqual(await find({ pattern: "*", path: "dist" }), ["dist/bundle.js", "dist/keep.js"]);
    assert.deepEqual(await grepFiles({ pattern: "TODO", path: "src/app.log" }), ["src/app.log"]);
  });

  it("agrees with git ls-files --others --exclude-standard", { skip: !has("git") && "git not installed" }, async () => {
    // A throwaway repository in the temp fixture (never the checkout); ls-files lists untracked,
    // non-ignored files, which is every visible file here.
    const repo = path.join(base, "repo");
    await fs.cp(root, repo, { recursive: true });
    await fs.rm(path.join(repo, ".git"), { recursive: true, force: true });
    execFileSync("git", ["init", "-q"], { cwd: repo, env, stdio: "ignore" });
    await fs.writeFile(path.join(repo, ".git", "info", "exclude"), INFO_EXCLUDE);
    const fromGit = lines(
      execFileSync("git", ["ls-files", "--others", "--exclude-standard"], { cwd: repo, env }).toString(),
    );
    assert.deepEqual(fromGit, VISIBLE);
    const r = await createFindTool(repo).execute({ pattern: "*" }, { cwd: repo });
    assert.deepEqual(lines(text(r)), fromGit);
  });

  it("agrees with ripgrep (rg --files), whole tree and a subfolder", { skip: !has("rg") && "rg not installed" }, () => {
    const rg = (...args: string[]): string[] => {
      const res = spawnSync(
        "rg",
        ["--files", "--hidden", "--no-require-git", "--no-ignore-global", "--glob", "!.git", ...args],
        { cwd: root, env },
      );
      assert.ok(res.status === 0 || res.status === 1, res.stderr.toString());
      return lines(res.stdout.toString());
    };
    return (async () => {
      assert.deepEqual(await find({ pattern: "*" }), rg());
      assert.deepEqual(await find({ pattern: "*", path: "pkg" }), rg("pkg"));
      assert.deepEqual(await find({ pattern: "*", path: "dist" }), rg("dist"));
      // rg reads stdin when given no path and stdin is not a terminal: name "." and drop its "./".
      const grepRg = spawnSync(
        "rg",
        ["-l", "--hidden", "--no-require-git", "--no-ignore-global", "--glob", "!.git", "TODO", "."],
        { cwd: root, env },
      );
      assert.deepEqual(
        await grepFiles({ pattern: "TODO" }),
        lines(grepRg.stdout.toString()).map((l) => l.replace(/^\.\//, "")),
      );
    })();
  });
});
