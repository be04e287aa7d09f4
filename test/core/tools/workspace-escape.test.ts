/**
 * The file tools never reach outside the workspace through links: dangling ones (whose target does not exist
 * yet, so a write would create it), links at any component, and links swapped in while a tool runs (a
 * check-then-open race): once at every step of a call, deterministically, and by a real racing process.
 */
import assert from "node:assert/strict";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { createWorkspaceTools } from "../../../src/core/tools/workspace-tools.js";
import type { AgentTool, ToolResult } from "../../../src/core/tools/types.js";
import { tempDir } from "../../util/temp-dir.js";

function text(r: ToolResult): string {
  return r.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

async function exists(p: string): Promise<boolean> {
  return fs.lstat(p).then(
    () => true,
    () => false,
  );
}

/**
 * Swaps `race` between an empty folder and a link to `outside` as fast as it can, until killed or after a
 * bounded number of swaps. Prints "ready" once it runs.
 */
const RACER = `
const fs = require("node:fs");
const [race, outside] = process.argv.slice(1);
for (let i = 0; i < 5000000; i++) {
  try {
    if (i % 2) {
      fs.unlinkSync(race);
      fs.mkdirSync(race);
    } else {
      try { fs.rmdirSync(race); } catch { fs.rmSync(race, { recursive: true, force: true }); }
      fs.symlinkSync(outside, race);
    }
  } catch {}
  if (i === 1) process.stdout.write("ready\\n");
}
`;

/** Rounds of the race tests; each runs PARALLEL tool calls at once, so the calls also race each other. */
const ROUNDS = 400;
const PARALLEL = 8;

describe("workspace tools and links", { timeout: 120_000 }, () => {
  let base: string;
  let root: string;
  let outside: string;
  let tools: Map<string, AgentTool>;
  const run = (name: string, args: Record<string, unknown>): Promise<ToolResult> => {
    const tool = tools.get(name);
    assert.ok(tool, `tool ${name}`);
    return tool.execute(args, { cwd: root });
  };
  /** Outside's entries and their contents, to compare before/after. */
  const outsideState = async (): Promise<Record<string, string>> => {
    const out: Record<string, string> = {};
    for (const name of (await fs.readdir(outside)).sort()) {
      const p = path.join(outside, name);
      out[name] = (await fs.lstat(p)).isFile() ? await fs.readFile(p, "utf8") : "<not a file>";
    }
    return out;
  };

  before(async () => {
    base = tempDir("agent-tree-escape-").dir;
    root = path.join(base, "ws");
    outside = path.join(base, "outside");
    await fs.mkdir(path.join(root, "real-dir"), { recursive: true });
    await fs.mkdir(outside);
    await fs.writeFile(path.join(outside, "outside-only.txt"), "TOP SECRET\n");
    await fs.writeFile(path.join(outside, "target.txt"), "ORIGINAL\n");
    tools = new Map(createWorkspaceTools(root).map((t) => [t.name, t]));
  });
  after(async () => {
    await fs.rm(base, { recursive: true, force: true });
  });

  it("write, edit and read refuse a dangling link to a missing file outside", async () => {
    const before = await outsideState();
    await fs.symlink(path.join(outside, "created.txt"), path.join(root, "notes.txt"));
    await fs.symlink("../outside/relative.txt", path.join(root, "rel.txt"));
    // A chain of links whose last one dangles outside.
    await fs.symlink("hop2", path.join(root, "hop1"));
    await fs.symlink(path.join(outside, "chained.txt"), path.join(root, "hop2"));
    for (const p of ["notes.txt", "rel.txt", "hop1", "@notes.txt"]) {
      const w = await run("write", { path: p, content: "escaped" });
      assert.equal(w.isError, true, p);
      assert.match(text(w), /outside the workspace/, p);
      const e = await run("edit", { path: p, oldText: "a", newText: "b" });
      assert.match(text(e), /outside the workspace/, p);
      const r = await run("read", { path: p });
      assert.match(text(r), /outside the workspace/, p);
    }
    assert.deepEqual(await outsideState(), before, "nothing was created outside");
  });

  it("write refuses a dangling folder link in the middle of the path (mkdir -p would follow it)", async () => {
    await fs.symlink(path.join(outside, "newdir"), path.join(root, "sub"));
    await fs.mkdir(path.join(root, "deep"));
    await fs.symlink(path.join(outside, "other"), path.join(root, "deep", "link"));
    for (const p of ["sub/a/b.txt", "sub/file.txt", "deep/link/x/y.txt"]) {
      const w = await run("write", { path: p, content: "escaped" });
      assert.equal(w.isError, true, p);
      assert.match(text(w), /outside the workspace/, p);
    }
    assert.equal(await exists(path.join(outside, "newdir")), false);
    assert.equal(await exists(path.join(outside, "other")), false);
  });

  it("links that stay inside keep working, dangling ones included", async () => {
    await fs.symlink("real-dir", path.join(root, "alias"));
    await fs.symlink(path.join(root, "real-dir", "later.txt"), path.join(root, "later.txt"));
    const a = await run("write", { path: "alias/new/file.txt", content: "via alias" });
    assert.equal(a.isError, undefined, text(a));
    assert.equal(await fs.readFile(path.join(root, "real-dir", "new", "file.txt"), "utf8"), "via alias");
    const l = await run("write", { path: "later.txt", content: "created behind the link" });
    assert.equal(l.isError, undefined, text(l));
    assert.equal(await fs.readFile(path.join(root, "real-dir", "later.txt"), "utf8"), "created behind the link");
    const e = await run("edit", { path: "later.txt", oldText: "behind", newText: "through" });
    assert.equal(e.isError, undefined, text(e));
    assert.equal(text(await run("read", { path: "alias/later.txt" })), "created through the link");
    assert.equal(text(await run("ls", { path: "alias" })), "later.txt\nnew/");
  });

  it("a link loop and a FIFO give clear errors instead of hanging", async () => {
    await fs.symlink("loop", path.join(root, "loop"));
    const loop = await run("write", { path: "loop", content: "x" });
    assert.equal(loop.isError, true);
    assert.match(text(loop), /Too many levels of symbolic links/);
    execFileSync("mkfifo", [path.join(root, "pipe")]);
    for (const [tool, args] of [
      ["read", { path: "pipe" }],
      ["write", { path: "pipe", content: "x" }],
      ["edit", { path: "pipe", oldText: "a", newText: "b" }],
    ] as const) {
      const r = await run(tool, args);
      assert.equal(r.isError, true, tool);
      assert.match(text(r), /not a regular file/, tool);
    }
  });

  describe("with one swap injected after each file-system step of a call", () => {
    // The tools call node:fs/promises through this very object. Wrapping its path functions lets the test turn
    // `flip` from a folder into a link to outside right after the call's k-th step that names it, for k = 1, 2, …:
    // every point where one swap can land, without depending on timing.
    const fsp = fs as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    const STEPS = ["lstat", "stat", "realpath", "readlink", "open", "readFile", "writeFile", "mkdir", "readdir"];
    const originals = new Map<string, (...args: unknown[]) => Promise<unknown>>();
    let flip: string;
    let countdown = 0;
    before(() => {
      flip = path.join(root, "flip");
      for (const name of STEPS) {
        const original = fsp[name];
        originals.set(name, original);
        fsp[name] = async (...args: unknown[]) => {
          try {
            return await original.apply(fs, args);
          } finally {
            if (countdown > 0 && String(args[0]).startsWith(flip) && --countdown === 0) {
              rmSync(flip, { recursive: true, force: true });
              symlinkSync(outside, flip);
            }
          }
        };
      }
    });
    after(() => {
      for (const [name, original] of originals) fsp[name] = original;
    });

    const calls: [string, Record<string, unknown>][] = [
      ["write", { path: "flip/target.txt", content: "EDITED" }],
      ["write", { path: "flip/new/deeper.txt", content: "EDITED" }],
      ["edit", { path: "flip/target.txt", oldText: "ORIGINAL", newText: "EDITED" }],
      ["read", { path: "flip/target.txt" }],
      ["read", { path: "flip/outside-only.txt" }],
      ["ls", { path: "flip" }],
      ["find", { pattern: "*.txt", path: "flip" }],
      ["grep", { pattern: "SECRET|ORIGINAL", path: "flip" }],
    ];
    for (const [tool, args] of calls) {
      it(`${tool} ${JSON.stringify(args)}`, async () => {
        const before = await outsideState();
        let swapped = 0;
        for (let k = 1; k <= 30; k++) {
          rmSync(flip, { recursive: true, force: true });
          mkdirSync(flip);
          writeFileSync(path.join(flip, "target.txt"), "ORIGINAL inside\n");
          countdown = k;
          const out = text(await run(tool, args));
          const reached = countdown === 0;
          countdown = 0;
          assert.deepEqual(await outsideState(), before, `swap after step ${k}: nothing outside changed`);
          // Outside's files: "TOP SECRET" (outside-only.txt) and a line "ORIGINAL" (target.txt; inside it is "ORIGINAL inside").
          const leaked =
            out.includes("TOP SECRET") ||
            /(^|\s)ORIGINAL$/m.test(out) ||
            (tool !== "read" && out.includes("outside-only"));
          assert.ok(!leaked, `swap after step ${k}: ${out}`);
          if (!reached) break; // the call had fewer than k steps: every swap point was tried
          swapped++;
        }
        assert.ok(swapped > 0);
      });
    }
  });

  describe("while another process swaps a folder and a link to outside", () => {
    let racer: ChildProcess;
    before(async () => {
      racer = spawn(process.execPath, ["-e", RACER, path.join(root, "race"), outside], {
        stdio: ["ignore", "pipe", "inherit"],
      });
      await new Promise<void>((resolve, reject) => {
        racer.stdout?.once("data", () => resolve());
        racer.once("exit", () => reject(new Error("the racer ended before it started")));
      });
    });
    after(() => {
      racer.kill("SIGKILL");
    });

    /** Runs `call` PARALLEL times at once, ROUNDS times. */
    const rounds = async (call: (j: number) => Promise<ToolResult>): Promise<ToolResult[]> => {
      const all: ToolResult[] = [];
      for (let i = 0; i < ROUNDS; i++)
        all.push(...(await Promise.all(Array.from({ length: PARALLEL }, (_, j) => call(j)))));
      return all;
    };

    it("write never lands outside", async () => {
      const before = await outsideState();
      const results = await rounds((j) => run("write", { path: `race/new-${j}.txt`, content: "escaped" }));
      assert.deepEqual(await outsideState(), before, "nothing outside was created or changed");
      for (const r of results.filter((x) => x.isError)) {
        assert.match(text(r), /outside the workspace|kept changing|not found|not a directory/);
      }
      assert.ok(
        results.some((r) => !r.isError),
        "some writes went through while the folder was a folder",
      );
    });

    it("edit never reads or changes a file outside", async () => {
      const before = await outsideState();
      const results = await rounds(() =>
        run("edit", { path: "race/target.txt", oldText: "ORIGINAL", newText: "EDITED" }),
      );
      assert.deepEqual(await outsideState(), before);
      // Only the file outside holds "ORIGINAL": an edit that found it read outside (and showed it in its diff).
      for (const r of results) assert.equal(r.isError, true, text(r));
    });

    it("read, grep, find and ls never show anything from outside", async () => {
      const calls: [string, Record<string, unknown>][] = [
        ["read", { path: "race/outside-only.txt" }],
        ["grep", { pattern: "SECRET", path: "race" }],
        ["find", { pattern: "*.txt", path: "race" }],
        ["ls", { path: "race" }],
      ];
      const seen: [string, string][] = [];
      await rounds(async (j) => {
        const [tool, args] = calls[j % calls.length];
        const r = await run(tool, args);
        seen.push([tool, text(r)]);
        return r;
      });
      for (const [tool, out] of seen) {
        assert.ok(!out.includes("TOP SECRET"), out);
        // read's errors name the file it was asked for; listings and searches of "race" must never name it.
        if (tool !== "read") assert.ok(!out.includes("outside-only"), `${tool}: ${out}`);
      }
    });
  });
});
