/**
 * Bad paths and files: a FIFO, a folder and a v1 file nested 100k levels deep are refused or reported with
 * typed errors, never a hang or a stack overflow (each opened in a child process under a time limit); a
 * header without its newline; the temp file of a migration killed midway.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { SessionManager } from "../../../src/core/index.js";
import { headerLine, readJsonl, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { deadPid } from "./lock-helpers.js";

const tmp = tempDirPerTest("session-bad-");

interface OpenOutcome {
  ok: boolean;
  name?: string;
  message?: string;
  issues?: { line: number; reason: string }[];
  entries?: number;
}

/**
 * Open `file` in a child process killed after 30 s (a blocking open would otherwise hang the test run);
 * appends one entry when it opens writable.
 */
function openInChild(file: string, readOnly: boolean): OpenOutcome {
  const script = `
    const { SessionManager } = require(${JSON.stringify(path.resolve("src/core/index.ts"))});
    SessionManager.open(${JSON.stringify(file)}, { readOnly: ${readOnly} }).then(
      async (sm) => {
        if (!sm.isReadOnly()) sm.appendMessage({ role: "user", content: "after", timestamp: 1 });
        const out = { ok: true, issues: sm.getLoadIssues(), entries: sm.getEntryCount() };
        await sm.close();
        console.log(JSON.stringify(out));
      },
      (e) => console.log(JSON.stringify({ ok: false, name: e.name, message: e.message })),
    );`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "-e", script], { encoding: "utf8", timeout: 30_000 });
  assert.equal(r.signal, null, `the open did not finish within 30 s (${r.signal}); stderr: ${r.stderr}`);
  const last = r.stdout.trim().split("\n").at(-1) ?? "";
  assert.ok(last.startsWith("{"), `no answer from the child: ${r.stdout} ${r.stderr}`);
  return JSON.parse(last) as OpenOutcome;
}

describe("paths that are not session files", () => {
  test("a FIFO is refused at once with SessionFileTypeError, for writing and read-only", (t) => {
    const fifo = path.join(tmp.dir, "pipe.jsonl");
    const made = spawnSync("mkfifo", [fifo]);
    if (made.status !== 0) return t.skip("mkfifo is not available");
    for (const readOnly of [false, true]) {
      const r = openInChild(fifo, readOnly);
      assert.equal(r.name, "SessionFileTypeError", JSON.stringify(r));
      assert.match(r.message ?? "", /FIFO/);
    }
    assert.deepEqual(fs.readdirSync(tmp.dir), ["pipe.jsonl"], "something was left beside the FIFO");
  });

  test("a folder is refused with SessionFileTypeError, not a raw EISDIR", () => {
    const folder = path.join(tmp.dir, "folder.jsonl");
    fs.mkdirSync(folder);
    for (const readOnly of [false, true]) {
      const r = openInChild(folder, readOnly);
      assert.equal(r.name, "SessionFileTypeError", JSON.stringify(r));
      assert.match(r.message ?? "", /directory/);
    }
  });

  test("a v1 file with a line nested 100k levels deep opens; that line is reported and kept", () => {
    const file = path.join(tmp.dir, "deep.jsonl");
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const header = JSON.stringify({ type: "session", id: "v1-deep", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" });
    const lines = [
      header,
      JSON.stringify({
        type: "message",
        timestamp: "2025-01-01T00:00:01.000Z",
        message: { role: "user", content: "a" },
      }),
      `{"type":"message","timestamp":"2025-01-01T00:00:02.000Z","message":{"role":"user","content":${deep}}}`,
      JSON.stringify({
        type: "message",
        timestamp: "2025-01-01T00:00:03.000Z",
        message: { role: "user", content: "b" },
      }),
    ];
    fs.writeFileSync(file, lines.join("\n") + "\n");
    for (const readOnly of [true, false]) {
      const r = openInChild(file, readOnly);
      assert.equal(r.ok, true, JSON.stringify(r).slice(0, 500));
      assert.ok(
        r.issues?.some((i) => i.line === 3 && /nested too deeply/.test(i.reason)),
        JSON.stringify(r.issues),
      );
      assert.equal(r.entries, readOnly ? 2 : 3);
    }
    // The deep line is still in the (migrated) file, byte for byte.
    assert.ok(fs.readFileSync(file, "utf8").includes(lines[2]));
    assert.equal(fs.readFileSync(`${file}.v1.bak`, "utf8"), lines.join("\n") + "\n");
  });
});

describe("damaged files", () => {
  test("a header without its final newline: the first append starts a new line", async () => {
    const file = path.join(tmp.dir, "2025-01-01T00-00-00-000Z_0b0d9f9c-1111-4222-8333-444455556666.jsonl");
    const header = headerLine("0b0d9f9c-1111-4222-8333-444455556666", { timestamp: "t", cwd: "/" });
    fs.writeFileSync(file, JSON.stringify(header));
    const sm = await SessionManager.open(file);
    const id = sm.appendMessage(user("first"));
    await sm.close();
    const lines = readJsonl(file);
    assert.deepEqual(lines[0], header);
    assert.equal(lines[1].id, id);
    const re = await SessionManager.open(file);
    assert.deepEqual(re.getLoadIssues(), []);
    assert.equal(re.getLeafId(), id);
    await re.close();
  });

  test("a migration killed midway leaves <file>.migrating-<pid>: removed on the next writable open", async () => {
    const file = path.join(tmp.dir, "old.jsonl");
    const v1 = [
      JSON.stringify({ type: "session", id: "v1", timestamp: "2025-01-01T00:00:00.000Z", cwd: "/" }),
      JSON.stringify({
        type: "message",
        timestamp: "2025-01-01T00:00:01.000Z",
        message: { role: "user", content: "a" },
      }),
    ].join("\n");
    fs.writeFileSync(file, v1 + "\n");
    // What a migration killed before its rename leaves: the whole new file under a temp name.
    const leftover = `${file}.migrating-${deadPid()}`;
    fs.writeFileSync(leftover, v1 + "\n");
    const unrelated = path.join(tmp.dir, "other.jsonl.migrating-1");
    fs.writeFileSync(unrelated, "");
    const ro = await SessionManager.open(file, { readOnly: true });
    await ro.close();
    assert.ok(fs.existsSync(leftover), "a read-only view removed a file while another process might migrate");
    // Only a holder of the writer lock removes them: a session closed at once leaves them to the next open.
    const closedAtOnce = await SessionManager.open(file);
    await closedAtOnce.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(fs.existsSync(leftover), "a temp file was removed without the writer lock");
    const sm = await SessionManager.open(file);
    // Removed once the open has returned (housekeeping the open does not wait for).
    assert.ok(fs.existsSync(leftover), "the open waited for the folder's housekeeping");
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(fs.existsSync(leftover), false, "the stale migration temp file is still there");
    assert.ok(fs.existsSync(unrelated), "another file's temp was removed");
    assert.equal(sm.getEntryCount(), 1);
    await sm.close();
  });
});
