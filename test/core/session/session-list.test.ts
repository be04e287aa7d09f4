/**
 * SessionManager.list(): `modified` as pi reports it — the newest user or assistant message's own time, else the
 * header's timestamp, else the file's — so touching an old session (a branch switch) does not move it up.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import { test } from "node:test";
import { SessionManager } from "../../../src/core/index.js";
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
