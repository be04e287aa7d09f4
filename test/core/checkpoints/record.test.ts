/** What a checkpoint records: ignore rules, the size cap, binary files, modes, links, empty folders, nested repos. */
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import { FolderCheckpoints } from "../../../src/core/checkpoints/index.js";
import { tempWorkspacePerTest, userGit, writeFiles } from "./helpers.js";

const t = tempWorkspacePerTest();

async function open(limits = {}): Promise<FolderCheckpoints> {
  return t.open({ limits });
}

describe("recording a folder", { timeout: 60_000 }, () => {
  it("records every file once and reports what changed since the previous checkpoint", async () => {
    writeFiles(t.ws, { "a.txt": "one\n", "src/b.ts": "export {}\n" });
    const cp = await open();
    const first = await cp.checkpoint({ reason: "first" });
    assert.equal(first.created, true);
    assert.deepEqual(
      first.changes.map((c) => `${c.status} ${c.path}`),
      ["added a.txt", "added src/b.ts"],
    );
    assert.equal(first.fileCount, 2);

    const again = await cp.checkpoint();
    assert.equal(again.created, false, "nothing changed: no new checkpoint");
    assert.equal(again.id, first.id);
    assert.deepEqual(again.changes, []);

    writeFiles(t.ws, { "a.txt": "two\n", "c.txt": "new\n" });
    fs.rmSync(path.join(t.ws, "src/b.ts"));
    const third = await cp.checkpoint();
    assert.equal(third.previousId, first.id);
    assert.deepEqual(
      third.changes.map((c) => `${c.status} ${c.path}`),
      ["modified a.txt", "added c.txt", "deleted src/b.ts"],
    );
    assert.equal((await cp.readFileAt(first.id, "a.txt"))?.toString(), "one\n");
    assert.equal((await cp.readFileAt(third.id, "a.txt"))?.toString(), "two\n");
    assert.equal(await cp.readFileAt(third.id, "src/b.ts"), undefined);
    assert.deepEqual(await cp.listFiles(third.id), ["a.txt", "c.txt"]);
  });

  it("honours .gitignore (nested ones too), the repository's info/exclude, and the rules above a sub-folder", async () => {
    // The workspace folder is a sub-folder of the user's repository.
    userGit(t.root, "init", "-q");
    fs.writeFileSync(path.join(t.root, ".gitignore"), "*.tmp\n/ws/generated/\n/other/\n");
    fs.writeFileSync(path.join(t.root, ".git", "info", "exclude"), "secret.env\n");
    writeFiles(t.ws, {
      ".gitignore": "*.log\nbuild/\n",
      "keep.txt": "k",
      "debug.log": "ignored by the folder's .gitignore",
      "build/out.js": "ignored folder",
      "pkg/.gitignore": "local.json\n",
      "pkg/local.json": "ignored by a nested .gitignore",
      "pkg/index.js": "kept",
      "notes.tmp": "ignored by the repository root's .gitignore",
      "generated/x.js": "ignored by an anchored rule above the folder",
      "secret.env": "ignored by info/exclude",
    });
    const cp = await open();
    const first = await cp.checkpoint();
    assert.deepEqual(await cp.listFiles(first.id), [".gitignore", "keep.txt", "pkg/.gitignore", "pkg/index.js"]);
  });

  it("skips and reports files over the size cap, and drops a recorded file that grew over it", async () => {
    writeFiles(t.ws, { "small.bin": Buffer.alloc(100, 1), "big.bin": Buffer.alloc(2048, 2), "grows.txt": "x" });
    const cp = await open({ maxFileBytes: 1024 });
    const first = await cp.checkpoint();
    assert.deepEqual(await cp.listFiles(first.id), ["grows.txt", "small.bin"]);
    assert.deepEqual(first.skipped, [{ path: "big.bin", reason: "too-large", size: 2048 }]);

    fs.writeFileSync(path.join(t.ws, "grows.txt"), Buffer.alloc(4096, 3));
    const second = await cp.checkpoint();
    assert.deepEqual(await cp.listFiles(second.id), ["small.bin"]);
    assert.deepEqual(
      second.skipped.map((s) => s.path),
      ["big.bin", "grows.txt"],
    );
  });

  it("records binary content byte for byte, the executable bit, and links as links", async () => {
    const bytes = Buffer.from([0, 255, 1, 254, 0, 10, 13, 0]);
    writeFiles(t.ws, { "blob.bin": bytes, "run.sh": "#!/bin/sh\necho hi\n", "crlf.txt": "a\r\nb\r\n" });
    fs.chmodSync(path.join(t.ws, "run.sh"), 0o755);
    fs.symlinkSync("../../etc/passwd", path.join(t.ws, "escape"));
    fs.symlinkSync("run.sh", path.join(t.ws, "alias"));
    const cp = await open();
    const first = await cp.checkpoint();
    assert.deepEqual(await cp.readFileAt(first.id, "blob.bin"), bytes);
    assert.equal((await cp.readFileAt(first.id, "crlf.txt"))?.toString(), "a\r\nb\r\n", "no line-ending conversion");
    assert.equal((await cp.readFileAt(first.id, "escape"))?.toString(), "../../etc/passwd", "the link, not its target");
    const modes = userGitLsTree(cp, first.id);
    assert.equal(modes["run.sh"], "100755");
    assert.equal(modes["blob.bin"], "100644");
    assert.equal(modes.escape, "120000");
    assert.equal(modes.alias, "120000");

    fs.chmodSync(path.join(t.ws, "run.sh"), 0o644);
    const second = await cp.checkpoint();
    assert.deepEqual(second.changes, [{ path: "run.sh", status: "modified" }], "a mode change is a change");
  });

  it("records content as it is whatever the user's git config and .gitattributes say, and honours global excludes", async () => {
    const home = path.join(t.root, "home");
    writeFiles(home, {
      ".gitconfig": [
        '[filter "upper"]',
        "\tclean = tr a-z A-Z",
        "\tsmudge = cat",
        "[core]",
        "\tautocrlf = true",
        `\texcludesFile = ${path.join(home, "global-ignore")}`,
        "[commit]",
        "\tgpgSign = true",
        "",
      ].join("\n"),
      "global-ignore": "*.bak\n",
    });
    writeFiles(t.ws, {
      ".gitattributes": "*.txt filter=upper\n*.md text eol=lf\n",
      "a.txt": "lower case\n",
      "doc.md": "windows\r\nlines\r\n",
      "old.bak": "ignored by the global excludes file",
    });
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, ".config") };
    const cp = await t.open({ env });
    const first = await cp.checkpoint();
    assert.deepEqual(await cp.listFiles(first.id), [".gitattributes", "a.txt", "doc.md"]);
    assert.equal((await cp.readFileAt(first.id, "a.txt"))?.toString(), "lower case\n", "no clean filter ran");
    assert.equal((await cp.readFileAt(first.id, "doc.md"))?.toString(), "windows\r\nlines\r\n", "no eol conversion");
  });

  it("records empty folders and skips nested repositories", async () => {
    writeFiles(t.ws, { "a.txt": "a" });
    fs.mkdirSync(path.join(t.ws, "empty/deeper"), { recursive: true });
    fs.mkdirSync(path.join(t.ws, "vendor/lib"), { recursive: true });
    userGit(path.join(t.ws, "vendor/lib"), "init", "-q");
    fs.writeFileSync(path.join(t.ws, "vendor/lib/inner.txt"), "inner");
    const cp = await open();
    const first = await cp.checkpoint();
    assert.deepEqual(await cp.listFiles(first.id), ["a.txt"]);
    assert.deepEqual(first.skipped, [{ path: "vendor/lib", reason: "nested-repository" }]);

    fs.rmdirSync(path.join(t.ws, "empty/deeper"));
    const second = await cp.checkpoint();
    assert.equal(second.created, true, "an empty folder going away is a change");
    assert.notEqual(second.id, first.id);
  });
});

/** path → mode of a checkpoint, read through the engine's own listing of the shadow repository. */
function userGitLsTree(cp: FolderCheckpoints, id: string): Record<string, string> {
  const out = userGit(t.root, `--git-dir=${path.join(cp.storeDir, "git")}`, "ls-tree", "-r", "--full-tree", id).trim();
  return Object.fromEntries(
    out.split("\n").map((line) => {
      const [meta, p] = line.split("\t");
      return [p, meta.split(" ")[0]];
    }),
  );
}
