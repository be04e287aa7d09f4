import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as os from "node:os";
import * as path from "node:path";
import { describe, test } from "node:test";
import { SessionFormatError, SessionLockedError, SessionManager } from "../../../src/core/index.js";
import { assistant, readJsonl, toolResult, user } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { deadPid, lockHolder } from "./lock-helpers.js";

/** Runs `script` in another Node process (bounded), with `SessionManager` from the core in scope. */
function inOtherProcess(script: string): SpawnSyncReturns<string> {
  const core = `const { SessionManager } = require(${JSON.stringify(path.resolve("src/core/index.ts"))});`;
  return spawnSync(process.execPath, ["--import", "tsx", "-e", `${core}\n${script}`], {
    encoding: "utf8",
    timeout: 60_000,
  });
}

const tmp = tempDirPerTest();

async function sessionWith(n: number): Promise<{ file: string; ids: string[] }> {
  const sm = await SessionManager.create("/p", tmp.dir);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(sm.appendMessage(i % 2 ? assistant(`a${i}`) : user(`u${i}`)));
  await sm.close();
  return { file: sm.getSessionFile() as string, ids };
}

describe("durability and bad input", () => {
  test("a torn last line is ignored, kept aside and cut before the next append", async () => {
    const { file, ids } = await sessionWith(4);
    const torn =
      '{"type":"message","id":"deadbeef","parentId":"' +
      ids[3] +
      '","timestamp":"2025-01-01T00:00:00.000Z","message":{"role":"us';
    fs.appendFileSync(file, torn);
    const sm = await SessionManager.open(file);
    assert.deepEqual(
      sm.getEntries().map((e) => e.id),
      ids,
    );
    const issues = sm.getLoadIssues();
    assert.equal(issues.length, 1);
    assert.equal(issues[0].torn, true);
    assert.equal(issues[0].line, 6);
    assert.equal(sm.getLeafId(), ids[3]);
    const next = sm.appendMessage(user("after repair"));
    await sm.close();
    const lines = readJsonl(file);
    assert.deepEqual(
      lines.slice(1).map((l) => l.id),
      [...ids, next],
    );
    const aside = fs.readdirSync(tmp.dir).filter((f) => f.includes(".torn-"));
    assert.equal(aside.length, 1);
    assert.equal(fs.readFileSync(path.join(tmp.dir, aside[0]), "utf8"), torn);
    const re = await SessionManager.open(file);
    assert.deepEqual(re.getLoadIssues(), []);
    await re.close();
  });

  test("a complete last line without newline is kept and the next append starts a new line", async () => {
    const { file, ids } = await sessionWith(2);
    fs.truncateSync(file, fs.statSync(file).size - 1);
    const sm = await SessionManager.open(file);
    assert.equal(sm.getEntryCount(), 2);
    const c = sm.appendMessage(user("c"));
    await sm.close();
    assert.deepEqual(
      readJsonl(file)
        .slice(1)
        .map((l) => l.id),
      [...ids, c],
    );
    const re = await SessionManager.open(file);
    assert.equal(re.getEntry(c)?.parentId, ids[1]);
    await re.close();
  });

  test("corrupt lines in the middle are skipped, reported with line numbers, and left in the file", async () => {
    const { file, ids } = await sessionWith(4);
    const lines = fs.readFileSync(file, "utf8").split("\n");
    lines.splice(2, 0, "{broken json");
    lines.splice(4, 0, '{"type":"message","parentId":null}');
    lines.splice(5, 0, "[1,2]");
    fs.writeFileSync(file, lines.join("\n"));
    const sm = await SessionManager.open(file);
    assert.deepEqual(
      sm.getLoadIssues().map((i) => i.line),
      [3, 5, 6],
    );
    assert.match(sm.getLoadIssues()[0].reason, /not valid JSON/);
    assert.match(sm.getLoadIssues()[1].reason, /'id'/);
    assert.deepEqual(
      sm.getEntries().map((e) => e.id),
      ids,
    );
    sm.appendMessage(user("more"));
    await sm.close();
    assert.ok(fs.readFileSync(file, "utf8").includes("{broken json\n"));
  });

  test("missing or garbled header: clear SessionFormatError, file untouched", async () => {
    const { file } = await sessionWith(2);
    const body = fs.readFileSync(file, "utf8").split("\n").slice(1).join("\n");
    fs.writeFileSync(file, body);
    await assert.rejects(
      SessionManager.open(file),
      (e: unknown) => e instanceof SessionFormatError && /line 1 is not a session header/.test(e.message),
    );
    fs.writeFileSync(file, "{garbage\n" + body);
    await assert.rejects(
      SessionManager.open(file),
      (e: unknown) => e instanceof SessionFormatError && /not JSON/.test(e.message),
    );
    assert.equal(fs.readFileSync(file, "utf8"), "{garbage\n" + body);
    // The lock was released on failure: a valid file at the same path opens.
    fs.writeFileSync(file, JSON.stringify({ type: "session", version: 3, id: "x", timestamp: "t", cwd: "/" }) + "\n");
    const ok = await SessionManager.open(file);
    assert.equal(ok.getEntryCount(), 0);
    await ok.close();
    // Read-only, a path where nothing is stays an error (pi 1.6 creates a session there only to write it).
    await assert.rejects(SessionManager.open(path.join(tmp.dir, "nope.jsonl"), { readOnly: true }), /file not found/);
  });

  test("an empty file opens as a new session, named after the file; its header is written at once (pi 1.6)", async () => {
    const file = path.join(tmp.dir, "2025-01-01T00-00-00-000Z_0b0d9f9c-1111-4222-8333-444455556666.jsonl");
    fs.writeFileSync(file, "");
    const sm = await SessionManager.open(file);
    assert.equal(sm.getSessionId(), "0b0d9f9c-1111-4222-8333-444455556666");
    assert.equal(readJsonl(file)[0].id, "0b0d9f9c-1111-4222-8333-444455556666");
    sm.appendMessage(user("x"));
    await sm.close();
    const lines = readJsonl(file);
    assert.equal(lines[0].type, "session");
    assert.equal(lines.length, 2);
  });

  test("unknown entry types and fields survive, also through a fork", async () => {
    const { file, ids } = await sessionWith(2);
    const odd = {
      type: "future_thing",
      id: "f00dfeed",
      parentId: ids[1],
      timestamp: "2030-01-01T00:00:00.000Z",
      payload: { deep: [1, "x"] },
    };
    fs.appendFileSync(file, JSON.stringify(odd) + "\n");
    const sm = await SessionManager.open(file);
    assert.deepEqual(sm.getEntry("f00dfeed"), odd);
    assert.equal(sm.getLeafId(), "f00dfeed");
    assert.equal(sm.getEnvelopes()[2].type, "future_thing");
    const fork = (await sm.createBranchedSession("f00dfeed")) as string;
    assert.deepEqual(readJsonl(fork).at(-1), odd);
    assert.deepEqual(sm.buildSessionContext().messages.length, 2);
    await sm.close();
  });

  test("second writer gets SessionLockedError; read-only works; close() frees the lock", async () => {
    const { file } = await sessionWith(1);
    const a = await SessionManager.open(file);
    await assert.rejects(
      SessionManager.open(file),
      (e: unknown) => e instanceof SessionLockedError && /read-only/.test(e.message),
    );
    const ro = await SessionManager.open(file, { readOnly: true });
    assert.equal(ro.getEntryCount(), 1);
    // Another process: also locked out.
    const child = inOtherProcess(
      `SessionManager.open(${JSON.stringify(file)}).then(() => console.log("opened"), (e) => console.log(e.name));`,
    );
    assert.equal(child.stdout.trim(), "SessionLockedError");
    await a.close();
    const b = await SessionManager.open(file);
    b.appendMessage(user("writable again"));
    await b.close();
    await ro.close();
  });

  test("appends are flushed to the disk in the background, coalesced, and close() waits for the flush", async () => {
    const calls: number[] = [];
    // The store reads fdatasync from node's fs module at call time: count the flushes it asks for.
    const nodeFs = createRequire(__filename)("node:fs") as { fdatasync: typeof fs.fdatasync };
    const real = nodeFs.fdatasync;
    nodeFs.fdatasync = ((fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => {
      calls.push(fd);
      real(fd, cb);
    }) as typeof fs.fdatasync;
    try {
      const sm = await SessionManager.create(tmp.dir, tmp.dir);
      for (let i = 0; i < 50; i++) sm.appendMessage(user(`line ${i}`));
      // One flush runs; the 49 appends made meanwhile wait for one more, not 49.
      assert.equal(calls.length, 1);
      await sm.close();
      assert.ok(calls.length >= 1 && calls.length <= 2, `flushes: ${calls.length}`);
      assert.equal(readJsonl(sm.getSessionFile() as string).length, 51);
    } finally {
      nodeFs.fdatasync = real;
    }
  });

  test("a stale lock of an earlier version (a plain file naming a dead pid) is taken over", async () => {
    const { file } = await sessionWith(1);
    const pid = deadPid();
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid, hostname: os.hostname(), time: new Date().toISOString() }));
    const sm = await SessionManager.open(file);
    assert.equal(lockHolder(file)?.pid, process.pid);
    await sm.close();
    assert.equal(fs.existsSync(`${file}.lock`), false);
    // A fresh lock from another host is respected.
    fs.writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, hostname: "elsewhere", time: new Date().toISOString() }));
    await assert.rejects(SessionManager.open(file), SessionLockedError);
  });

  test("large bodies load lazily and identically; envelopes match", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const big = "line of output\n".repeat(2000);
    const u = sm.appendMessage(user("x".repeat(9000)));
    const t = sm.appendMessage(toolResult(big, "read"));
    const b = sm.appendMessage({
      role: "bashExecution",
      command: "ls -la",
      output: big,
      exitCode: 0,
      cancelled: false,
      truncated: false,
      timestamp: 1,
    });
    const a = sm.appendMessage(assistant("y".repeat(10000), ["write"]));
    const inMem = sm.getEntries();
    await sm.close();
    const re = await SessionManager.open(sm.getSessionFile() as string);
    assert.deepEqual(re.getEntries(), inMem);
    const envs = re.getEnvelopes();
    assert.equal(envs[1].toolName, "read");
    assert.equal(envs[1].preview.length, 200);
    assert.equal(envs[2].preview, "$ ls -la");
    assert.equal(envs[3].toolCallsOnly, false);
    assert.deepEqual(
      [u, t, b, a],
      envs.map((e) => e.id),
    );
    await re.close();
  });
});

describe("lock lifetime", () => {
  test("a process that exits without close() leaves no lock behind", async () => {
    const d = tmp.dir;
    const file = path.join(d, "s.jsonl");
    fs.writeFileSync(file, JSON.stringify({ type: "session", version: 3, id: "x", timestamp: "t", cwd: "/" }) + "\n");
    const child = inOtherProcess(
      `const fs = require("node:fs");
       SessionManager.open(${JSON.stringify(file)}).then(() => console.log(fs.existsSync(${JSON.stringify(file + ".lock")})));`,
    );
    assert.equal(child.stdout.trim(), "true", "the lock existed while the process ran");
    assert.equal(fs.existsSync(`${file}.lock`), false);
  });
});

describe("file replaced while open", () => {
  test("appending after the file was deleted or replaced is a clear error, not a silent loss", async () => {
    const d = tmp.dir;
    const sm = await SessionManager.create("/p", d);
    sm.appendMessage(user("a"));
    const file = sm.getSessionFile() as string;
    fs.renameSync(file, file + ".moved");
    assert.throws(() => sm.appendMessage(user("b")), /deleted or replaced/);
    fs.copyFileSync(file + ".moved", file);
    assert.throws(() => sm.appendMessage(user("c")), /deleted or replaced/);
    await sm.close();
  });
});

describe("pi appends while the session is open here", () => {
  test("pi's lines and ours both stay whole in the file, as branches; our next write takes pi's in first", async () => {
    const d = tmp.dir;
    const sm = await SessionManager.create("/p", d);
    const q = sm.appendMessage(user("question"));
    const a = sm.appendMessage(assistant("answer"));
    const file = sm.getSessionFile() as string;
    // pi 1.6 appends one JSON line with appendFileSync, parented to the leaf it knows.
    const piEntry = {
      type: "message",
      id: "pi000001",
      parentId: a,
      timestamp: new Date().toISOString(),
      message: user("from pi"),
    };
    const noticed: string[][] = [];
    sm.onAppendedByOther((r) => noticed.push(r.added.map((e) => e.id)));
    const mine = sm.appendMessage(assistant("not noticed: nobody else wrote"));
    assert.deepEqual(noticed, []);
    fs.appendFileSync(file, `${JSON.stringify(piEntry)}\n`);
    const ours = sm.appendMessage(user("from here"));
    sm.appendMessage(assistant("taken in once"));
    assert.deepEqual(noticed, [["pi000001"]], "the foreign append is taken in once, at our next write");
    assert.equal(sm.getEntry(ours)?.parentId, mine, "ours goes on from our leaf");
    assert.equal(sm.getEnvelope("pi000001")?.parentId, a);
    await sm.close();

    const again = await SessionManager.open(file);
    try {
      assert.deepEqual(again.getLoadIssues(), []);
      const byId = new Map(again.getEntries().map((e) => [e.id, e]));
      assert.equal(byId.get("pi000001")?.parentId, a, "pi's entry kept, under the leaf pi knew");
      assert.notEqual(byId.get(ours)?.parentId, "pi000001", "ours kept beside it: two branches, nothing overwritten");
      assert.ok(byId.has(q));
    } finally {
      await again.close();
    }
  });

  test("a torn last line cut off by the repair is no foreign write", async () => {
    const d = tmp.dir;
    const sm = await SessionManager.create("/p", d);
    sm.appendMessage(user("q"));
    sm.appendMessage(assistant("a"));
    const file = sm.getSessionFile() as string;
    await sm.close();
    fs.appendFileSync(file, '{"type":"message","id":"torn00","parentId":null,"mess');
    const again = await SessionManager.open(file);
    const noticed: unknown[] = [];
    again.onAppendedByOther((c) => noticed.push(c));
    again.appendMessage(user("after the repair"));
    again.appendMessage(assistant("and on"));
    await again.close();
    assert.deepEqual(noticed, []);
  });
});
