/**
 * The session listing's reader (session-info-reader.ts): worker threads give the same SessionInfo as the reading in
 * the caller's thread, damaged files included; a worker that cannot start or dies leaves the files to the caller's
 * thread with nothing lost; an aborted listing stops, a worker stuck on a file included.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { after, test } from "node:test";
import {
  readSessionInfo,
  SessionInfoReader,
  SessionManager,
  type InfoOutcome,
  type SkippedSessionFile,
} from "../../../src/core/index.js";
import { assistant, entryLine, headerLine, toolResult, user, writeLines } from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";
import { copyFixture } from "./helpers.js";
import { writeSyntheticSession } from "./generate.js";

const WORKER_TSX = path.join(__dirname, "..", "..", "util", "list-worker-tsx.mjs");
const FAULTY_WORKER = path.join(__dirname, "..", "..", "util", "list-worker-faulty.mjs");
const tmp = tempDirPerTest();
const readers: SessionInfoReader[] = [];
after(() => Promise.all(readers.map((r) => r.dispose())));

function reader(workerScript: string | undefined, workers = 2): SessionInfoReader {
  const r = new SessionInfoReader({ workerScript, workers });
  readers.push(r);
  return r;
}

const T = Date.parse("2026-02-01T12:00:00.000Z");
const at = (n: number): string => new Date(T + n * 1000).toISOString();

/**
 * A folder like the tests' sessions: generated big ones, hand-written ones with a name, damaged lines in the middle,
 * a torn last line, a pi v1 fixture (migrated when read), and files that are no session.
 */
function corpus(dir: string): string[] {
  writeSyntheticSession(path.join(dir, "synthetic-a.jsonl"), { entries: 400, toolOutputBytes: 3000 });
  writeSyntheticSession(path.join(dir, "synthetic-b.jsonl"), { entries: 150, compactEvery: 40, branchEvery: 60 });
  writeLines(dir, "named.jsonl", [
    headerLine("named", { timestamp: at(0), cwd: "/p" }),
    entryLine("message", "n1", null, at(1), { message: { ...user("  the   first\nquestion "), timestamp: T + 1000 } }),
    entryLine("session_info", "n2", "n1", at(2), { name: "A name" }),
    entryLine("message", "n3", "n2", at(3), { message: { ...assistant("x".repeat(70_000)), timestamp: T + 3000 } }),
    entryLine("message", "n4", "n3", at(4), { message: { ...toolResult("out"), timestamp: T + 4000 } }),
  ]);
  writeLines(dir, "damaged.jsonl", [
    headerLine("damaged", { timestamp: at(0), cwd: "/p" }),
    entryLine("message", "d1", null, at(1), { message: { ...user("kept"), timestamp: T + 1000 } }),
    '{"type":"message","id":"d2","parentId":"d1",',
    "\u0000\u0001 not json",
    '["an array"]',
    entryLine("message", "d3", "d1", at(3), { message: { ...assistant("after the damage"), timestamp: T + 3000 } }),
  ]);
  writeLines(
    dir,
    "torn.jsonl",
    [
      headerLine("torn", { timestamp: "not a time", cwd: "/p" }),
      entryLine("message", "t1", null, at(1), { message: { role: "user", content: "no timestamp of its own" } }),
      '{"type":"message","id":"t2","parentId":"t1","mess',
    ],
    { torn: true },
  );
  writeLines(dir, "header-only.jsonl", [headerLine("header-only", { timestamp: at(9), cwd: "/elsewhere" })]);
  copyFixture("before-compaction.v1.jsonl", dir);
  fs.writeFileSync(path.join(dir, "garbage.jsonl"), "\u0000\u0001 not json at all\n");
  fs.writeFileSync(path.join(dir, "empty.jsonl"), "");
  fs.writeFileSync(path.join(dir, "no-header.jsonl"), JSON.stringify({ type: "message", id: "x" }) + "\n");
  return fs
    .readdirSync(dir)
    .filter((n) => n.endsWith(".jsonl"))
    .map((n) => path.join(dir, n));
}

async function outcomes(r: SessionInfoReader, files: string[]): Promise<InfoOutcome[]> {
  return Promise.all(files.map((f) => r.read(f, fs.statSync(f))));
}

test("worker threads give the same SessionInfo as this thread, damaged files and old versions included", async () => {
  const files = corpus(tmp.dir);
  const here = files.map((f) => readSessionInfo(f, fs.statSync(f)));
  const r = reader(WORKER_TSX);
  assert.deepEqual(await outcomes(r, files), here);
  assert.equal(r.readInWorkers, files.length, "every file was read by a worker");
  // The corpus holds what it should: sessions with their counts, and files that are none.
  const byName = new Map(files.map((f, i) => [path.basename(f), here[i]]));
  const info = (name: string) => {
    const o = byName.get(name);
    assert.ok(o && "info" in o && typeof o.info !== "string", `${name} is a session`);
    return o.info;
  };
  assert.equal(info("named.jsonl").name, "A name");
  assert.equal(info("named.jsonl").firstMessage, "the first question");
  assert.equal(info("named.jsonl").messageCount, 3);
  assert.equal(info("damaged.jsonl").messageCount, 2);
  assert.equal(info("torn.jsonl").messageCount, 1);
  assert.ok(info("synthetic-a.jsonl").messageCount > 100);
  assert.ok(info("before-compaction.jsonl").messageCount > 0);
  assert.deepEqual(byName.get("empty.jsonl"), { info: "the file is empty" });
  assert.match(String((byName.get("garbage.jsonl") as { info: string }).info), /^line 1 is not JSON/);
});

test("a listing through worker threads lists what one in this thread lists, and keeps it for the next", async () => {
  const threadDir = path.join(tmp.dir, "thread");
  const workerDir = path.join(tmp.dir, "worker");
  fs.mkdirSync(threadDir);
  fs.mkdirSync(workerDir);
  corpus(threadDir);
  corpus(workerDir);
  fs.mkdirSync(path.join(workerDir, "folder.jsonl"));
  fs.mkdirSync(path.join(threadDir, "folder.jsonl"));
  const r = reader(WORKER_TSX);
  const list = async (dir: string, withReader: boolean) => {
    const skipped: SkippedSessionFile[] = [];
    const sessions = await SessionManager.listAll(dir, { skipped, reader: withReader ? r : undefined });
    // The same listing but for the folder it is in.
    const rel = (p: string): string => path.relative(dir, p);
    return {
      sessions: sessions.map((s) => ({ ...s, path: rel(s.path) })),
      skipped: skipped.map((s) => ({ ...s, path: rel(s.path) })),
    };
  };
  const inThread = await list(threadDir, false);
  const inWorkers = await list(workerDir, true);
  // Times from the files differ between the two folders; the rest is the same.
  const mask = (l: typeof inThread) => ({
    ...l,
    sessions: l.sessions.map((s) => ({ ...s, created: 0, modified: s.id === "torn" ? 0 : s.modified })),
  });
  assert.deepEqual(mask(inWorkers), mask(inThread));
  assert.equal(inWorkers.skipped.length, 4, "empty, garbage, no header, a folder");
  const read = r.readInWorkers;
  assert.equal(read, inWorkers.sessions.length + 3, "the files were read in workers");
  assert.deepEqual(await list(workerDir, true), inWorkers);
  assert.equal(r.readInWorkers, read, "an unchanged folder is not read again");
});

test("a worker script that cannot start leaves the files to this thread, nothing lost", async () => {
  const files = corpus(tmp.dir);
  const r = reader(path.join(tmp.dir, "missing-worker.js"));
  assert.deepEqual(
    await outcomes(r, files),
    files.map((f) => readSessionInfo(f, fs.statSync(f))),
  );
  assert.equal(r.readInWorkers, 0);
  assert.equal(r.parallel, 1, "read one at a time from now on");
});

test("a worker that dies on a file: that file is read here, a new worker reads the rest", async () => {
  const files = corpus(tmp.dir);
  fs.copyFileSync(files[0], path.join(tmp.dir, "crash.jsonl"));
  files.push(path.join(tmp.dir, "crash.jsonl"));
  const r = reader(FAULTY_WORKER, 1);
  const got = await outcomes(r, files);
  assert.deepEqual(
    got,
    files.map((f) => readSessionInfo(f, fs.statSync(f))),
  );
  assert.equal(r.readInWorkers, files.length - 1, "only the crashing file was read here");
});

test("aborting a listing stops it, and a worker stuck on a file is stopped", async () => {
  corpus(tmp.dir);
  fs.copyFileSync(path.join(tmp.dir, "named.jsonl"), path.join(tmp.dir, "hang.jsonl"));
  const r = reader(FAULTY_WORKER, 1);
  const stop = new AbortController();
  const listing = SessionManager.listAll(tmp.dir, { reader: r, signal: stop.signal });
  // The worker holds "hang.jsonl" for good: only the abort ends the listing.
  await new Promise((resolve) => setTimeout(resolve, 300));
  stop.abort();
  await assert.rejects(listing, { name: "AbortError" });
  // The next listing starts a new worker and gets every file but the one that hangs.
  fs.rmSync(path.join(tmp.dir, "hang.jsonl"));
  const sessions = await SessionManager.listAll(tmp.dir, { reader: r });
  assert.equal(sessions.length, 7);
});

test("aborting a listing read in this thread stops it between files", async () => {
  corpus(tmp.dir);
  const stop = new AbortController();
  const listing = SessionManager.listAll(tmp.dir, { signal: stop.signal });
  setImmediate(() => stop.abort());
  await assert.rejects(listing, { name: "AbortError" });
  stop.abort();
  await assert.rejects(SessionManager.listAll(tmp.dir, { signal: stop.signal }), { name: "AbortError" });
});
