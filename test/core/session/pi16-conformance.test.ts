/**
 * pi 1.6 conformance of the session store: one test per defect of the issue (each fails without its fix), and pi
 * 1.6's API beside ours. What pi itself reads of these files is in test/interop/pi16-conformance.test.ts.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { createRequire } from "node:module";
import * as path from "node:path";
import { describe, test } from "node:test";
import {
  defaultSessionDir,
  SessionLockLostError,
  SessionManager,
  type FileEntry,
  type LockLossReason,
  type SessionEntry,
} from "../../../src/core/index.js";
import { uuidv7 } from "../../../src/core/session/ids.js";
import { assistant, headerLine, readJsonl, user } from "../../util/session-builder.js";
import { faultyDisk } from "../../util/faulty-disk.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { lockDirOf } from "./lock-helpers.js";

const tmp = tempDirPerTest("pi16-");

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function sessionOf(cwd: string, sessionDir: string, text: string): Promise<string> {
  const sm = await SessionManager.create(cwd, sessionDir);
  sm.appendMessage(user(text));
  await sm.close();
  return sm.getSessionFile() as string;
}

describe("defects of issue 22", () => {
  test("1. a folder shared by two projects: list, findMostRecent and continueRecent keep to the cwd", async () => {
    const shared = path.join(tmp.dir, "shared");
    const a1 = await sessionOf("/work/a", shared, "a, older");
    const a2 = await sessionOf("/work/a", shared, "a, newer");
    const b = await sessionOf("/work/b", shared, "b, written last");
    const t = Date.now() / 1000;
    fs.utimesSync(a1, t - 30, t - 30);
    fs.utimesSync(a2, t - 20, t - 20);
    fs.utimesSync(b, t - 10, t - 10);

    assert.deepEqual((await SessionManager.list("/work/a", shared)).map((s) => s.path).sort(), [a1, a2].sort());
    assert.deepEqual(
      (await SessionManager.list("/work/b", shared)).map((s) => s.path),
      [b],
    );
    assert.equal(await SessionManager.findMostRecent("/work/a", shared), a2);
    assert.equal(await SessionManager.findMostRecent("/work/c", shared), undefined);
    const resumed = await SessionManager.continueRecent("/work/a", shared);
    assert.equal(resumed.getSessionFile(), a2);
    assert.equal(resumed.getCwd(), "/work/a");
    await resumed.close();
    // The all-folders listing still lists everything.
    assert.deepEqual((await SessionManager.listAll(shared)).map((s) => s.path).sort(), [a1, a2, b].sort());
  });

  test("2. a write that fails partway leaves no glued line: the next entry starts on a clean line", async () => {
    const disk = faultyDisk();
    const sm = await SessionManager.create("/p", tmp.dir, { io: disk.io });
    const u1 = sm.appendMessage(user("first"));
    const a1 = sm.appendMessage(assistant("answer"));
    disk.failNextWritePartway(0.5);
    assert.throws(() => sm.appendMessage(user("lost to a full disk")), /ENOSPC/);
    assert.equal(sm.getLeafId(), a1, "the failed entry is not in memory");
    const u2 = sm.appendMessage(user("after the failure"));
    await sm.close();
    const file = sm.getSessionFile() as string;
    const text = fs.readFileSync(file, "utf8");
    for (const line of text.trimEnd().split("\n")) JSON.parse(line);
    assert.deepEqual(
      readJsonl(file)
        .slice(1)
        .map((l) => [l.id, l.parentId]),
      [
        [u1, null],
        [a1, u1],
        [u2, a1],
      ],
    );
    const again = await SessionManager.open(file, { readOnly: true });
    assert.deepEqual(again.getLoadIssues(), []);
    await again.close();
  });

  test("2. when the partial bytes cannot be cut, the next append starts with a newline", async () => {
    const disk = faultyDisk();
    const sm = await SessionManager.create("/p", tmp.dir, { io: disk.io });
    const u1 = sm.appendMessage(user("first"));
    // The node:fs module itself (the store's import reads through to it): its ftruncate fails too.
    const nodeFs = createRequire(__filename)("node:fs") as typeof fs;
    const ftruncate = nodeFs.ftruncateSync;
    disk.failNextWritePartway(0.5);
    nodeFs.ftruncateSync = () => {
      throw Object.assign(new Error("EIO: i/o error, ftruncate"), { code: "EIO" });
    };
    try {
      assert.throws(() => sm.appendMessage(user("half written")), /ENOSPC/);
    } finally {
      nodeFs.ftruncateSync = ftruncate;
    }
    const u2 = sm.appendMessage(user("after"));
    await sm.close();
    const again = await SessionManager.open(sm.getSessionFile() as string, { readOnly: true });
    assert.deepEqual(
      again.getEntries().map((e) => [e.id, e.parentId]),
      [
        [u1, null],
        [u2, u1],
      ],
    );
    assert.equal(again.getLoadIssues().length, 1, "the half-written line is a damaged line of its own");
    await again.close();
  });

  test("3. a fork keeps each label's time, and tree nodes carry it as labelTimestamp", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const u1 = sm.appendMessage(user("first"));
    const a1 = sm.appendMessage(assistant("answer"));
    sm.appendLabelChange(u1, "start");
    const labelTime = (readJsonl(sm.getSessionFile() as string).at(-1) as { timestamp: string }).timestamp;
    await new Promise((r) => setTimeout(r, 20));
    const node = sm.getTree()[0];
    assert.equal(node.label, "start");
    assert.equal(node.labelTimestamp, labelTime);
    const forked = await sm.createBranchedSession(a1);
    await sm.close();
    const label = readJsonl(forked as string).find((l) => l.type === "label");
    assert.equal(label?.timestamp, labelTime);
    const branch = await SessionManager.open(forked as string, { readOnly: true });
    assert.equal(branch.getTree()[0].labelTimestamp, labelTime);
    await branch.close();
  });

  test("4. session ids are UUIDv7, in the order they were made; entry ids stay 8 hex characters", async () => {
    const before = Date.now();
    const sm = await SessionManager.create("/p", tmp.dir);
    assert.match(sm.getSessionId(), UUID_V7);
    const millis = parseInt(sm.getSessionId().replace(/-/g, "").slice(0, 12), 16);
    assert.ok(millis >= before && millis <= Date.now(), "the id starts with the time it was made");
    assert.match(sm.appendMessage(user("hi")), /^[0-9a-f]{8}$/);
    await sm.close();
    const ids = Array.from({ length: 5000 }, () => uuidv7());
    assert.deepEqual([...ids].sort(), ids, "ids made in one millisecond keep their order");
    assert.equal(new Set(ids).size, ids.length);
    assert.match(SessionManager.inMemory("/p").getSessionId(), UUID_V7);
  });

  test("5. the folder deleted under an open session: says so, keeps everything, saves it again", async () => {
    const folder = path.join(tmp.dir, "sessions");
    const sm = await SessionManager.create("/p", folder);
    const u1 = sm.appendMessage(user("keep me"));
    const a1 = sm.appendMessage(assistant("and me"));
    const file = sm.getSessionFile() as string;
    const before = fs.readFileSync(file);
    const heard: LockLossReason[] = [];
    sm.onLockLost((_holder, reason) => heard.push(reason));
    fs.rmSync(folder, { recursive: true, force: true });
    assert.throws(
      () => sm.appendMessage(user("too late")),
      (e: unknown) => e instanceof SessionLockLostError && e.reason === "file-gone" && /was deleted/.test(e.message),
    );
    assert.deepEqual(heard, ["file-gone"]);
    assert.equal(sm.getLockLossReason(), "file-gone");
    assert.ok(sm.isReadOnly());
    // Nothing in memory is lost: every body is still readable.
    assert.deepEqual(
      sm.getEntries().map((e) => e.id),
      [u1, a1],
    );
    assert.equal(sm.buildSessionContext().messages.length, 2);

    await sm.saveAgain();
    assert.ok(!sm.isReadOnly());
    assert.deepEqual(fs.readFileSync(file), before);
    const u2 = sm.appendMessage(user("written after saving again"));
    await sm.close();
    const reopened = await SessionManager.open(file);
    assert.deepEqual(
      reopened.getEntries().map((e) => e.id),
      [u1, a1, u2],
    );
    await reopened.close();
  });

  test("5. a lock taken over is still 'taken-over' (the file is there)", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    sm.appendMessage(user("hi"));
    const lock = lockDirOf(sm.getSessionFile() as string);
    for (const f of fs.readdirSync(lock)) fs.rmSync(path.join(lock, f));
    assert.throws(
      () => sm.appendMessage(user("late")),
      (e: unknown) => e instanceof SessionLockLostError && e.reason === "taken-over",
    );
    await assert.rejects(sm.saveAgain(), /did not lose its file/);
    await sm.close();
  });

  test("8. a message entry whose message is null is a load issue and left out of the context", async () => {
    const file = path.join(tmp.dir, "null-message.jsonl");
    const lines = [
      { type: "session", version: 3, id: "s", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" },
      { type: "message", id: "aaaaaaaa", parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: user("a") },
      { type: "message", id: "bbbbbbbb", parentId: "aaaaaaaa", timestamp: "2026-01-01T00:00:02.000Z", message: null },
      { type: "message", id: "cccccccc", parentId: "bbbbbbbb", timestamp: "2026-01-01T00:00:03.000Z", message: 7 },
      {
        type: "message",
        id: "dddddddd",
        parentId: "cccccccc",
        timestamp: "2026-01-01T00:00:04.000Z",
        message: user("d"),
      },
    ];
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const sm = await SessionManager.open(file);
    assert.deepEqual(
      sm.getLoadIssues().map((i) => i.line),
      [3, 4],
    );
    assert.match(sm.getLoadIssues()[0].reason, /bbbbbbbb holds no message object/);
    // The tree keeps them (the entry after hangs off them); the context leaves them out.
    assert.equal(sm.getLeafId(), "dddddddd");
    assert.deepEqual(
      sm.buildSessionContext().messages.map((m) => (m as { content: unknown }).content),
      ["a", "d"],
    );
    sm.appendMessage(assistant("still works"));
    await sm.close();
  });

  test("9. an old-format lock file removed by another opener right as the rename fails: no raw ENOTDIR", async () => {
    const file = await sessionOf("/p", tmp.dir, "hello");
    const oldLock = lockDirOf(file);
    fs.writeFileSync(oldLock, JSON.stringify({ pid: 1, hostname: "elsewhere", time: new Date().toISOString() }));
    const codes: unknown[] = [];
    const afterInstallFailed = (lockPath: string, error: unknown): void => {
      codes.push((error as NodeJS.ErrnoException).code);
      // The other opener judged the old lock gone and removed it, and has not installed its own yet.
      if (lockPath === oldLock) fs.rmSync(oldLock, { force: true });
    };
    const sm = await SessionManager.open(file, { lock: { hooks: { afterInstallFailed } } });
    assert.deepEqual(codes, ["ENOTDIR"]);
    assert.ok(fs.statSync(oldLock).isDirectory(), "the lock is a folder lock now");
    await sm.close();
  });
});

describe("pi 1.6's API beside ours", () => {
  test("open() of a path where nothing is yet starts a session there, written with its first message", async () => {
    const file = path.join(tmp.dir, "new", "chosen.jsonl");
    const sm = await SessionManager.open(file, undefined, "/work/p");
    assert.equal(sm.getSessionFile(), file);
    assert.equal(sm.getCwd(), "/work/p");
    assert.match(sm.getSessionId(), UUID_V7);
    assert.ok(!fs.existsSync(file), "no file before the first message");
    sm.appendMessage(user("hello"));
    await sm.close();
    const [header] = readJsonl(file);
    assert.equal(header.cwd, "/work/p");
    assert.equal(header.id, sm.getSessionId());
  });

  test("newSession() goes on with an empty session in the same folder and lets the old one go", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    sm.appendMessage(user("old"));
    const oldFile = sm.getSessionFile() as string;
    const changes: string[] = [];
    sm.subscribe((c) => changes.push(c.type));
    const next = sm.newSession({ parentSession: oldFile });
    assert.ok(next !== undefined && next !== oldFile && path.dirname(next) === tmp.dir);
    assert.equal(sm.getEntryCount(), 0);
    assert.equal(sm.getLeafId(), null);
    assert.deepEqual(changes, ["rewrite"]);
    assert.match(sm.getSessionId(), UUID_V7);
    sm.appendMessage(user("new"));
    await sm.close();
    assert.equal(readJsonl(next)[0].parentSession, oldFile);
    // The old session's lock was released: it opens for writing.
    const old = await SessionManager.open(oldFile);
    assert.equal(old.getEntryCount(), 1);
    await old.close();
  });

  test("forkFrom() copies every entry into a new session of another cwd; the source is untouched", async () => {
    const src = await SessionManager.create("/from", path.join(tmp.dir, "from"));
    const u1 = src.appendMessage(user("q"));
    src.appendMessage(assistant("one"));
    src.branch(u1);
    src.appendMessage(assistant("two"));
    await src.close();
    const source = src.getSessionFile() as string;
    const before = fs.readFileSync(source, "utf8");
    const fork = await SessionManager.forkFrom(source, "/to", path.join(tmp.dir, "to"));
    assert.equal(fork.getCwd(), "/to");
    assert.equal(fork.getHeader().parentSession, source);
    assert.notEqual(fork.getSessionId(), src.getSessionId());
    const reread = await SessionManager.open(source, { readOnly: true });
    assert.deepEqual(fork.getEntries(), reread.getEntries());
    assert.equal(fork.getLeafId(), reread.getLeafId());
    fork.appendMessage(user("goes on here"));
    await fork.close();
    await reread.close();
    assert.equal(fs.readFileSync(source, "utf8"), before);
    const empty = path.join(tmp.dir, "empty.jsonl");
    fs.writeFileSync(empty, "");
    await assert.rejects(SessionManager.forkFrom(empty, "/to", path.join(tmp.dir, "to")), /empty or invalid/);
  });

  test("forkFrom() of a session with a header and no entries writes the fork, as pi 1.6 does", async () => {
    // Ours: createBranchedSession(null) of a file session writes a header-only file.
    const src = await SessionManager.create("/from", path.join(tmp.dir, "from"));
    src.appendMessage(user("q"));
    const branched = (await src.createBranchedSession(null)) as string;
    await src.close();
    // pi 1.6's: it writes the header into an empty file it opens (no entry yet).
    const piLike = path.join(tmp.dir, "pi-header-only.jsonl");
    const piHeader = headerLine("0b0d9f9c-1111-7222-8333-444455556666", {
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/from",
    });
    fs.writeFileSync(piLike, JSON.stringify(piHeader) + "\n");
    for (const source of [branched, piLike]) {
      assert.equal(readJsonl(source).length, 1, "the source is a header alone");
      const fork = await SessionManager.forkFrom(source, "/to", path.join(tmp.dir, "to"));
      const forkFile = fork.getSessionFile() as string;
      assert.equal(fork.getEntryCount(), 0);
      assert.equal(fork.getLeafId(), null);
      assert.equal(fork.getCwd(), "/to");
      assert.equal(fork.getHeader().parentSession, source);
      await fork.close();
      const lines = readJsonl(forkFile);
      assert.equal(lines.length, 1, "the fork is written: its header alone");
      assert.equal(lines[0].type, "session");
      assert.equal(lines[0].parentSession, source);
    }
  });

  test("an empty session file keeps one session id across reopenings (its header is written on open, as pi 1.6 does)", async () => {
    const file = path.join(tmp.dir, "empty.jsonl");
    fs.writeFileSync(file, "");
    const first = await SessionManager.open(file, undefined, "/work/empty");
    const id = first.getSessionId();
    await first.close();
    const second = await SessionManager.open(file);
    assert.equal(second.getSessionId(), id, "the second opening names the same session");
    assert.equal(second.getCwd(), "/work/empty");
    await second.close();
    const lines = readJsonl(file);
    assert.equal(lines.length, 1);
    assert.equal(lines[0].id, id);
    const view = await SessionManager.open(file, { readOnly: true });
    assert.equal(view.getSessionId(), id);
    await view.close();
  });

  test("inMemory(cwd, options, entries) starts from given entries, under their header or a new one", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    const u1 = sm.appendMessage(user("q"));
    sm.appendMessage(assistant("a"));
    sm.appendLabelChange(u1, "here");
    await sm.close();
    const lines = readJsonl(sm.getSessionFile() as string) as unknown as FileEntry[];
    const withHeader = SessionManager.inMemory("/elsewhere", undefined, lines);
    assert.equal(withHeader.getSessionId(), sm.getSessionId());
    assert.equal(withHeader.getCwd(), "/p");
    assert.equal(withHeader.getLabel(u1), "here");
    assert.equal(withHeader.buildSessionContext().messages.length, 2);
    const entries = lines.slice(1) as SessionEntry[];
    const bare = SessionManager.inMemory("/q", { id: "my-id" }, entries);
    assert.equal(bare.getSessionId(), "my-id");
    assert.equal(bare.getCwd(), "/q");
    assert.deepEqual(bare.getEntries(), entries);
    bare.appendMessage(user("more"));
    assert.equal(bare.getEntryCount(), entries.length + 1);
  });

  test("listAll() without a folder lists every project folder of pi's sessions folder", async () => {
    const saved = process.env.PI_CODING_AGENT_DIR;
    process.env.PI_CODING_AGENT_DIR = path.join(tmp.dir, "agent");
    try {
      const a = await sessionOf("/x", defaultSessionDir("/x"), "x");
      const b = await sessionOf("/y", defaultSessionDir("/y"), "y");
      assert.deepEqual((await SessionManager.listAll()).map((s) => s.path).sort(), [a, b].sort());
    } finally {
      if (saved === undefined) delete process.env.PI_CODING_AGENT_DIR;
      else process.env.PI_CODING_AGENT_DIR = saved;
    }
  });

  test("flush() waits until what was appended is on the disk", async () => {
    const sm = await SessionManager.create("/p", tmp.dir);
    await sm.flush();
    sm.appendMessage(user("q"));
    for (let i = 0; i < 20; i++) sm.appendMessage(assistant(`a${i}`));
    await sm.flush();
    assert.equal(readJsonl(sm.getSessionFile() as string).length, 22);
    await sm.close();
  });
});
