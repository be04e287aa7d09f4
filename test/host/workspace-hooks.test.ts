import { test } from "node:test";
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { HookRegistry } from "../../src/host/hooks/hook-registry.js";
import { HOOKS_DIR, loadWorkspaceHooks } from "../../src/host/hooks/workspace-hooks.js";
import { loadIssuesMessage } from "../../src/host/session/load-issues.js";
import { tempDir } from "../util/temp-dir.js";

function workspace(files: Record<string, string>): string {
  const { dir } = tempDir("agent-tree-hooks-");
  fs.mkdirSync(path.join(dir, HOOKS_DIR), { recursive: true });
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, HOOKS_DIR, name), text);
  return dir;
}

test("hook files load in trusted workspaces only, and register through the host registry", async () => {
  const dir = workspace({
    "a.js": "module.exports = function (api) { api.registerCommand('hello', { handler() {} }); };",
    "b.cjs": "exports.default = async (api) => { api.on('session_tree', () => {}); };",
    "c.js": "throw new Error('broken hook');",
    "d.js": "module.exports = { notAFunction: true };",
    "notes.txt": "ignored",
  });
  try {
    const reg = new HookRegistry();
    const untrusted = await loadWorkspaceHooks(dir, reg.api, false);
    assert.deepEqual(untrusted.loaded, []);
    assert.equal(untrusted.skipped, "workspace is not trusted");
    assert.equal(reg.size(), 0);

    const report = await loadWorkspaceHooks(dir, reg.api, true);
    assert.deepEqual(
      report.loaded.map((f) => path.basename(f)),
      ["a.js", "b.cjs"],
    );
    assert.deepEqual(
      report.failed.map((f) => [path.basename(f.file), /broken hook|exports no function/.test(f.error)]),
      [
        ["c.js", true],
        ["d.js", true],
      ],
    );
    assert.equal(reg.size(), 2);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("a folder without hooks loads nothing", async () => {
  const { dir, cleanup } = tempDir("agent-tree-nohooks-");
  try {
    assert.deepEqual(await loadWorkspaceHooks(dir, new HookRegistry().api, true), { loaded: [], failed: [] });
  } finally {
    cleanup();
  }
});

test("load issues are reported with line numbers", () => {
  assert.equal(loadIssuesMessage("s.jsonl", []), undefined);
  const msg = loadIssuesMessage("s.jsonl", [
    { line: 4, reason: "not JSON" },
    { line: 9, reason: "no id" },
  ]);
  assert.match(msg ?? "", /skipped 2 damaged lines \(lines 4, 9\)\. First problem: not JSON/);
  const many = loadIssuesMessage(
    "s.jsonl",
    Array.from({ length: 15 }, (_, i) => ({ line: i + 2, reason: "bad" })),
  );
  assert.match(many ?? "", /lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 5 more/);
});
