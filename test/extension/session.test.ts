/** Opening a session file, moving in it from a context-menu command, and hooks across sessions. */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import * as vscode from "vscode";
import { claudeTranscriptPathOf } from "../../src/core/import/claude-session.js";
import type { AgentTreeApi, SessionChangeEvent } from "../../src/host/extension.js";
import { tempDir } from "../util/temp-dir.js";
// The transcript travels in the test bundle (esbuild's text loader): the installed extension has no test fixtures.
import claudeFixture from "../fixtures/claude/branching-tools.jsonl";
import { activateApi, writeSession } from "./helpers.js";

function nextSessionChange(api: AgentTreeApi): Promise<SessionChangeEvent> {
  return new Promise((resolve) => {
    const sub = api.onDidChangeSession((e) => {
      sub.dispose();
      resolve(e);
    });
  });
}

describe("Agent Tree: sessions", () => {
  let dir: string;
  let cleanup: () => void;
  let api: AgentTreeApi;

  before(async () => {
    api = await activateApi();
    ({ dir, cleanup } = tempDir("agent-tree-ext-"));
  });

  after(async () => {
    // Release the lock before deleting the folder.
    await vscode.commands.executeCommand("agentTree.newSession");
    cleanup();
  });

  it("opening a session file makes it current and fills the tree", async () => {
    const { file, ids } = writeSession(dir);
    const changed = nextSessionChange(api);
    await vscode.commands.executeCommand("agentTree.openSession", vscode.Uri.file(file));
    const e = await changed;
    assert.equal(e.sessionFile, file);
    assert.equal(e.readOnly, false);
    const sm = api.getSessionManager();
    assert.ok(sm);
    assert.deepEqual(
      sm.getEnvelopes().map((x) => x.id),
      ids,
    );
    assert.equal(sm.getLeafId(), "aaaa0007");
    assert.equal(sm.getLabel("aaaa0001"), "start");
    // Resolving the tree view must not disturb the session.
    await vscode.commands.executeCommand("agentTree.tree.focus");
    assert.equal(api.getSessionManager(), sm);
  });

  it("a file with damaged lines opens with the rest intact and the issues reported", async () => {
    const { file } = writeSession(dir, "2026-01-03T00-00-00-000Z_damaged.jsonl");
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.splice(3, 0, "{not json");
    fs.writeFileSync(file, lines.join("\n"));
    await vscode.commands.executeCommand("agentTree.openSession", file);
    const sm = api.getSessionManager();
    assert.equal(sm?.getSessionFile(), file);
    assert.deepEqual(
      sm?.getLoadIssues().map((i) => i.line),
      [4],
    );
    assert.equal(sm?.getEnvelopes().length, 7);
  });

  it("New Session makes a fresh, empty session current", async () => {
    const changed = nextSessionChange(api);
    await vscode.commands.executeCommand("agentTree.newSession");
    const e = await changed;
    assert.equal(e.sessionManager.getEnvelopes().length, 0);
    assert.equal(api.getSessionManager(), e.sessionManager);
  });

  it("context-menu commands move the leaf and edit labels; hooks see the move", async () => {
    const seen: (string | null)[] = [];
    const off = api.hooks.on("session_tree", (ev) => {
      seen.push(ev.newLeafId);
    });
    try {
      const { file } = writeSession(dir, "2026-01-02T00-00-00-000Z_second.jsonl");
      await vscode.commands.executeCommand("agentTree.openSession", vscode.Uri.file(file));
      const sm = api.getSessionManager();
      assert.equal(sm?.getSessionFile(), file, "hooks registered before the switch still apply");
      await vscode.commands.executeCommand("agentTree.switchHere", { webviewSection: "entry", entryId: "aaaa0004" });
      assert.equal(sm?.getLeafId(), "aaaa0004");
      assert.deepEqual(seen, ["aaaa0004"]);
      await vscode.commands.executeCommand("agentTree.removeLabel", { webviewSection: "entry", entryId: "aaaa0001" });
      assert.equal(sm?.getLabel("aaaa0001"), undefined);
      // An unknown id from the webview is ignored, not thrown.
      await vscode.commands.executeCommand("agentTree.switchHere", { entryId: "deadbeef" });
      assert.equal(sm?.getLeafId(), "aaaa0004");
    } finally {
      off();
    }
  });

  it("a Claude Code transcript opens read-only and continues in a new writable session", async () => {
    const transcript = path.join(dir, "3f6b2c1e-claude.jsonl");
    fs.writeFileSync(transcript, claudeFixture);
    const changed = nextSessionChange(api);
    await vscode.commands.executeCommand("agentTree.openSession", transcript);
    const e = await changed;
    assert.equal(e.readOnly, true);
    assert.equal(claudeTranscriptPathOf(e.sessionManager), transcript);
    assert.ok(e.sessionManager.getEnvelopes().length > 5, "the tree has the transcript's entries");
    const leaf = e.sessionManager.getLeafId();
    assert.ok(leaf);

    const continued = nextSessionChange(api);
    await vscode.commands.executeCommand("agentTree.continueInNewSession");
    const c = await continued;
    assert.equal(c.readOnly, false);
    assert.ok(c.sessionFile && fs.existsSync(c.sessionFile));
    assert.equal(claudeTranscriptPathOf(c.sessionManager), undefined);
    assert.ok(c.sessionManager.getPath().some((x) => x.type === "message" && x.message.role === "assistant"));
    // The source transcript is untouched.
    assert.equal(fs.readFileSync(transcript, "utf8"), claudeFixture);
    // Continuing a writable session does nothing.
    await vscode.commands.executeCommand("agentTree.continueInNewSession");
    assert.equal(api.getSessionManager(), c.sessionManager);
  });
});
