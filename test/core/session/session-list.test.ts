/**
 * SessionManager.list(): `modified` as pi reports it — the newest user or assistant message's own time, else the
 * header's timestamp, else the file's — so touching an old session (a branch switch) does not move it up.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { test } from "node:test";
import { SessionManager, type SkippedSessionFile } from "../../../src/core/index.js";
import {
  assistant,
  entryLine,
  headerLine,
  toolResult,
  user,
  writeLines,
  type Line,
} from "../../util/session-builder.js";
import { tempDirPerTest } from "../../util/temp-dir.js";

const tmp = tempDirPerTest();

const DAY = 86_400_000;
const T = Date.parse("2026-02-01T12:00:00.000Z");

/** A v3 file written by hand: header, then entries. */
function write(name: string, headerTime: string, entries: Line[]): string {
  return writeLines(tmp.dir, name, [headerLine(name, { timestamp: headerTime, cwd: "/p" }), ...entries]);
}
const entry = (id: string, parentId: string | null, at: number, message: unknown): Line =>
  entryLine("message", id, parentId, new Date(at).toISOString(), { message });

test("modified is the newest user/assistant message's own time, read from small and large lines", async () => {
  // The assistant's own timestamp is when its request started, minutes before its entry was written; a tool
  // result after it does not count; the big line is read from its end only.
  const big = { ...assistant("x".repeat(5000)), timestamp: T - 5 * 60_000 };
  const a = write("a.jsonl", new Date(T - 3 * DAY).toISOString(), [
    entry("a1", null, T - DAY, { ...user("q"), timestamp: T - DAY }),
    entry("a2", "a1", T, big),
    entry("a3", "a2", T + 60_000, { ...toolResult("out"), timestamp: T + 60_000 }),
  ]);
  const b = write("b.jsonl", new Date(T - 3 * DAY).toISOString(), [
    // No numeric timestamp of its own: the entry's time counts.
    entry("b1", null, T - 60_000, { role: "user", content: "q" }),
  ]);
  const c = write("c.jsonl", new Date(T + DAY).toISOString(), []);
  const d = write("d.jsonl", "not a time", [entry("d1", null, T, { role: "user", timestamp: T })]);
  const list = await SessionManager.list("/p", tmp.dir);
  const byPath = new Map(list.map((s) => [s.path, s.modified.getTime()]));
  assert.equal(byPath.get(a), T - 5 * 60_000);
  assert.equal(byPath.get(b), T - 60_000);
  assert.equal(byPath.get(c), T + DAY, "no messages: the header's time");
  assert.equal(byPath.get(d), fs.statSync(d).mtime.getTime(), "no content key, bad header time: the file's time");
  assert.deepEqual(
    list.map((s) => s.path),
    [d, c, a, b].sort((x, y) => (byPath.get(y) as number) - (byPath.get(x) as number)),
  );
});

test("switching branch in an old session keeps it below newer ones; continueRecent takes the file written last", async () => {
  const old = await SessionManager.create("/p", tmp.dir);
  const first = old.appendMessage({ ...user("old"), timestamp: T - DAY });
  old.appendMessage({ ...assistant("old answer"), timestamp: T - DAY + 1000 });
  const recent = await SessionManager.create("/p", tmp.dir);
  recent.appendMessage({ ...user("new"), timestamp: T });
  await recent.close();
  old.branch(first);
  await old.close();
  fs.utimesSync(old.getSessionFile() as string, new Date(), new Date(Date.now() + 60_000));
  const list = await SessionManager.list("/p", tmp.dir);
  assert.deepEqual(
    list.map((s) => s.path),
    [recent.getSessionFile(), old.getSessionFile()],
  );
  assert.equal(await SessionManager.findMostRecent("/p", tmp.dir), old.getSessionFile());
  const resumed = await SessionManager.continueRecent("/p", tmp.dir);
  assert.equal(resumed.getSessionFile(), old.getSessionFile());
  await resumed.close();
});

test("damaged files in the folder: a torn last line is listed, the rest skipped each with its reason", async () => {
  const good = write("good.jsonl", new Date(T).toISOString(), [
    entry("g1", null, T, { ...user("fine"), timestamp: T }),
  ]);
  const torn = path.join(tmp.dir, "torn.jsonl");
  fs.writeFileSync(
    torn,
    JSON.stringify(headerLine("torn", { timestamp: new Date(T).toISOString(), cwd: "/p" })) +
      "\n" +
      JSON.stringify(entry("t1", null, T - 1000, { ...user("kept"), timestamp: T - 1000 })) +
      '\n{"type":"message","id":"t2","parentId":"t1","mess',
  );
  fs.writeFileSync(path.join(tmp.dir, "garbage.jsonl"), "\u0000\u0001 not json at all\n");
  fs.writeFileSync(path.join(tmp.dir, "empty.jsonl"), "");
  fs.writeFileSync(path.join(tmp.dir, "other.jsonl"), JSON.stringify({ type: "message", id: "x" }) + "\n");
  fs.mkdirSync(path.join(tmp.dir, "x.jsonl"));
  fs.writeFileSync(path.join(tmp.dir, "notes.txt"), "not a session and not said to be one");

  const skipped: SkippedSessionFile[] = [];
  const list = await SessionManager.list("/p", tmp.dir, { skipped });
  assert.deepEqual(
    list.map((s) => [path.basename(s.path), s.messageCount, s.firstMessage]),
    [
      [path.basename(good), 1, "fine"],
      ["torn.jsonl", 1, "kept"],
    ],
  );
  const reasons = new Map(skipped.map((s) => [path.basename(s.path), s.reason]));
  assert.deepEqual([...reasons.keys()].sort(), ["empty.jsonl", "garbage.jsonl", "other.jsonl", "x.jsonl"]);
  assert.equal(reasons.get("empty.jsonl"), "the file is empty");
  assert.match(reasons.get("garbage.jsonl") ?? "", /^line 1 is not JSON/);
  assert.match(reasons.get("other.jsonl") ?? "", /line 1 is not a session header \(type "message"\)/);
  assert.equal(reasons.get("x.jsonl"), "it is a folder, not a file");

  // listAll() says the same; without a collector nothing changes.
  const all: SkippedSessionFile[] = [];
  assert.equal((await SessionManager.listAll(tmp.dir, { skipped: all })).length, 2);
  assert.equal(all.length, 4);
  assert.equal((await SessionManager.list("/p", tmp.dir)).length, 2);
});

test("a listing again reads the files that changed: an append, a same-size rewrite set back in time, a replacement", async () => {
  const a = write("a.jsonl", new Date(T).toISOString(), [entry("a1", null, T, { ...user("first"), timestamp: T })]);
  const b = write("b.jsonl", new Date(T).toISOString(), [entry("b1", null, T, { ...user("bbbbb"), timestamp: T })]);
  const c = write("c.jsonl", new Date(T).toISOString(), [entry("c1", null, T, { ...user("ccccc"), timestamp: T })]);
  // Whole seconds, so that setting a time back restores it exactly.
  for (const f of [a, b, c]) fs.utimesSync(f, new Date(T), new Date(T));
  const before = new Map((await SessionManager.list("/p", tmp.dir)).map((s) => [s.path, s]));
  assert.equal(before.get(a)?.messageCount, 1);
  assert.equal(before.get(b)?.firstMessage, "bbbbb");

  fs.appendFileSync(
    a,
    JSON.stringify(entry("a2", "a1", T + 1000, { ...assistant("answer"), timestamp: T + 1000 })) + "\n",
  );
  // Same size, same modification time: only the change time (and, for c, the inode) tells.
  fs.writeFileSync(b, fs.readFileSync(b, "utf8").replace("bbbbb", "BBBBB"));
  fs.utimesSync(b, new Date(T), new Date(T));
  const replacement = path.join(tmp.dir, "c.tmp");
  fs.writeFileSync(replacement, fs.readFileSync(c, "utf8").replace("ccccc", "CCCCC"));
  fs.utimesSync(replacement, new Date(T), new Date(T));
  fs.renameSync(replacement, c);
  assert.equal(fs.statSync(b).mtimeMs, T, "b's time is set back exactly");

  const after = new Map((await SessionManager.list("/p", tmp.dir)).map((s) => [s.path, s]));
  assert.equal(after.get(a)?.messageCount, 2);
  assert.equal(after.get(b)?.firstMessage, "BBBBB");
  assert.equal(after.get(c)?.firstMessage, "CCCCC");
});

test("a listed session is the caller's own: changing it does not change the next listing", async () => {
  const a = write("a.jsonl", new Date(T).toISOString(), [entry("a1", null, T, { ...user("mine"), timestamp: T })]);
  await SessionManager.list("/p", tmp.dir);
  // The second listing is the one the cache answers.
  const [first] = await SessionManager.list("/p", tmp.dir);
  first.firstMessage = "changed by a caller";
  first.messageCount = 99;
  const [again] = await SessionManager.list("/p", tmp.dir);
  assert.equal(again.path, a);
  assert.equal(again.firstMessage, "mine");
  assert.equal(again.messageCount, 1);
});
