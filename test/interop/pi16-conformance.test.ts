/**
 * Issue 22 against the real pi (0.73.1 under the project's Node, 1.6.0 under Node 22): a file that had a failed
 * append (the partial write injected into the store's own write call) reads the same in pi and here, and back
 * again after pi and we append; summary and compaction usage; label times across a fork; a folder shared by two
 * projects; our forkFrom; pi 1.6's summary usage read here. Issue 31: forkFrom() of a session with a header and no
 * entries, and the one session id of an empty file, against pi 1.6.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { emptyUsage, SessionManager, type Usage } from "../../src/core/index.js";
import { faultyDisk } from "../util/faulty-disk.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import {
  assertSameView,
  latestRelease,
  ourView,
  piContinues,
  piOpen,
  releases,
  runPi,
  timedMessages,
  type PiSnapshot,
  openSameAsPi,
} from "./pi.js";

const T0 = Date.parse("2026-11-21T09:00:00.000Z");
const usage: Usage = {
  ...emptyUsage(),
  input: 900,
  output: 80,
  totalTokens: 980,
  cost: { input: 0.0018, output: 0.0008, cacheRead: 0, cacheWrite: 0, total: 0.0026 },
};
const { user, assistant } = timedMessages(T0, { provider: "openai", model: "gpt-6.2-sol", usage });

const tmp = tempDirPerTest("agent-tree-interop-");

/**
 * A session of ours with a failed append in the middle, then a branch summary and a compaction that record their
 * model usage, and a label.
 */
async function sessionWithFailedAppend(dir: string): Promise<{ file: string; ids: Record<string, string> }> {
  const disk = faultyDisk();
  const sm = await SessionManager.create("/work/project", dir, { io: disk.io });
  const u1 = sm.appendMessage(user("Add a cache", 1));
  const a1 = sm.appendMessage(assistant("A map with a TTL.", 2));
  disk.failNextWritePartway(0.5);
  assert.throws(() => sm.appendMessage(user("this one hit a full disk", 3)), /ENOSPC/);
  const u2 = sm.appendMessage(user("Make it an LRU", 4));
  const a2 = sm.appendMessage(assistant("LRU done.", 5));
  sm.appendLabelChange(u2, "lru");
  const s1 = sm.branchWithSummary(a1, "Tried an LRU; it works.", undefined, undefined, usage);
  const u3 = sm.appendMessage(user("Now a disk cache", 6));
  sm.appendMessage(assistant("Disk cache written.", 7));
  const c1 = sm.appendCompaction("Cache: TTL map, LRU tried, disk cache.", u3, 5000, undefined, undefined, usage);
  const a4 = sm.appendMessage(assistant("Compacted and going on.", 8));
  await sm.close();
  return { file: sm.getSessionFile() as string, ids: { u1, a1, u2, a2, s1, u3, c1, a4 } };
}

for (const pi of releases()) {
  describe(`pi ${pi.version} and issue 22`, () => {
    test("a file that had a failed append: same entries and context in pi, and back after both append", async () => {
      const { file, ids } = await sessionWithFailedAppend(path.join(tmp.dir, `failed-${pi.version}`));
      for (const line of fs.readFileSync(file, "utf8").trimEnd().split("\n")) JSON.parse(line);
      const ours = await SessionManager.open(file, { readOnly: true });
      assert.deepEqual(ours.getLoadIssues(), []);
      assert.equal(ours.getEntry(ids.u2)?.parentId, ids.a1, "the entry after the failure hangs where it should");
      assert.equal(ours.getUsage(ids.s1)?.input, usage.input, "the branch summary's usage");
      assert.equal(ours.getUsage(ids.c1)?.output, usage.output, "the compaction's usage");
      assertSameView(piOpen(pi, file), ourView(ours), "pi opening a file that had a failed append");
      await ours.close();

      const afterPi = piContinues(pi, file, [
        user("From pi: add metrics", 20),
        assistant("Metrics added.", 21),
      ]).snapshot;
      const reopened = await SessionManager.open(file);
      assertSameView(afterPi, ourView(reopened), "our view after pi appended");
      reopened.appendMessage(user("Back here: document it", 30));
      await reopened.close();
      const again = await openSameAsPi(file, piOpen(pi, file), "pi after we appended");
      await again.close();
    });

    test("our forkFrom() copy opens in pi as the source does, under the new cwd", async () => {
      const { file } = await sessionWithFailedAppend(path.join(tmp.dir, `from-${pi.version}`));
      const fork = await SessionManager.forkFrom(file, "/work/other", path.join(tmp.dir, `to-${pi.version}`));
      const forkFile = fork.getSessionFile() as string;
      await fork.close();
      const piFork = piOpen(pi, forkFile);
      const piSource = piOpen(pi, file);
      assert.deepEqual(piFork.entries, piSource.entries);
      const ours = await openSameAsPi(forkFile, piFork, "pi opening our forkFrom copy");
      assert.equal(ours.getHeader().parentSession, file);
      await ours.close();
    });
  });
}

describe(`pi ${latestRelease().version} and issue 31: a session with a header and no entries`, () => {
  const pi = latestRelease();

  /** The header line of `file`, as written. */
  function headerOf(file: string): Record<string, unknown> {
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    assert.equal(lines.length, 1, `${file}: a header and no entries`);
    return JSON.parse(lines[0]) as Record<string, unknown>;
  }

  test("forkFrom() of pi's header-only file and of our createBranchedSession(null): both write the fork", async () => {
    // pi writes a header into an empty file it opens: its header-only session.
    const piFile = path.join(tmp.dir, "header-only", "from-pi.jsonl");
    fs.mkdirSync(path.dirname(piFile), { recursive: true });
    fs.writeFileSync(piFile, "");
    runPi(pi, [{ op: "open", file: piFile }]);
    const src = await SessionManager.create("/work/from", path.join(tmp.dir, "header-only"));
    src.appendMessage(user("q", 1));
    const ourFile = (await src.createBranchedSession(null)) as string;
    await src.close();
    for (const source of [piFile, ourFile]) {
      headerOf(source);
      const [piFork] = runPi(pi, [{ op: "forkFrom", file: source, cwd: "/work/to", dir: path.join(tmp.dir, "pi-to") }]);
      const ours = await SessionManager.forkFrom(source, "/work/to", path.join(tmp.dir, "our-to"));
      const ourFork = ours.getSessionFile() as string;
      await ours.close();
      for (const fork of [piFork as string, ourFork]) {
        const header = headerOf(fork);
        assert.equal(header.cwd, "/work/to");
        assert.equal(header.parentSession, source);
        // Each opens the other's fork as the same empty session.
        const inPi = piOpen(pi, fork);
        const here = await openSameAsPi(fork, inPi, `${path.basename(source)} forked`);
        assert.equal(here.getSessionId(), inPi.sessionId);
        await here.close();
      }
    }
  });

  test("an empty file keeps one session id: opened here twice, then in pi (and the other way round)", async () => {
    const ours = path.join(tmp.dir, "empty", "ours.jsonl");
    fs.mkdirSync(path.dirname(ours), { recursive: true });
    fs.writeFileSync(ours, "");
    const first = await SessionManager.open(ours, undefined, "/work/empty");
    const id = first.getSessionId();
    await first.close();
    const second = await SessionManager.open(ours);
    assert.equal(second.getSessionId(), id);
    await second.close();
    assert.equal(piOpen(pi, ours).sessionId, id, "pi reads the id we wrote");
    assert.equal(headerOf(ours).id, id);

    const theirs = path.join(tmp.dir, "empty", "theirs.jsonl");
    fs.writeFileSync(theirs, "");
    const piId = piOpen(pi, theirs).sessionId;
    assert.equal(piOpen(pi, theirs).sessionId, piId, "pi's own reopening");
    const here = await SessionManager.open(theirs);
    assert.equal(here.getSessionId(), piId, "we read the id pi wrote");
    await here.close();
  });
});

describe(`pi ${latestRelease().version}'s own view of issue 22`, () => {
  const pi = latestRelease();

  test("label times survive our fork, as pi's tree shows them (labelTimestamp)", async () => {
    const { file, ids } = await sessionWithFailedAppend(path.join(tmp.dir, "labels"));
    const sm = await SessionManager.open(file, { readOnly: true });
    const fork = (await sm.createBranchedSession(ids.a2)) as string;
    const ourTimes = Object.fromEntries(
      sm
        .getTree()
        .flatMap(function all(n): (typeof n)[] {
          return [n, ...n.children.flatMap(all)];
        })
        .filter((n) => n.label !== undefined)
        .map((n) => [n.entry.id, n.labelTimestamp ?? null]),
    );
    await sm.close();
    const [, inSource] = runPi(pi, [{ op: "open", file }, { op: "labelTimes" }]) as [null, Record<string, string>];
    const [, inFork] = runPi(pi, [{ op: "open", file: fork }, { op: "labelTimes" }]) as [null, Record<string, string>];
    assert.deepEqual(ourTimes, inSource);
    assert.ok(inSource[ids.u2], "the label has a time");
    assert.deepEqual(inFork, inSource, "the fork keeps the label's time");
  });

  test("a folder shared by two projects: pi and we list the same sessions for each cwd", async () => {
    const shared = path.join(tmp.dir, "shared");
    for (const cwd of ["/work/a", "/work/b", "/work/a"]) {
      const sm = await SessionManager.create(cwd, shared);
      sm.appendMessage(user(`in ${cwd}`, 1));
      await sm.close();
    }
    for (const cwd of ["/work/a", "/work/b"]) {
      const [, listed] = runPi(pi, [
        { op: "inMemory", cwd },
        { op: "list", cwd, dir: shared },
      ]) as [string, { path: string }[]];
      const ours = await SessionManager.list(cwd, shared);
      assert.deepEqual(ours.map((s) => s.path).sort(), listed.map((s) => s.path).sort(), cwd);
      assert.equal(ours.length, cwd === "/work/a" ? 2 : 1);
    }
  });

  test("pi's branch summary with usage opens here with that usage counted", async () => {
    const dir = path.join(tmp.dir, "pi-usage");
    const [, u1, a1, , , s1, , snap] = runPi(pi, [
      { op: "create", cwd: "/work/p", dir },
      { op: "message", message: user("q", 1) },
      { op: "message", message: assistant("a", 2) },
      { op: "message", message: user("a branch", 3) },
      { op: "message", message: assistant("b", 4) },
      { op: "branchWithSummary", id: "$2", summary: "Left a branch.", usage },
      { op: "compaction", summary: "All so far.", firstKeptEntryId: "$1", tokensBefore: 100, usage },
      { op: "snapshot" },
    ]) as [string, string, string, string, string, string, string, PiSnapshot];
    assert.ok(u1 && a1);
    const ours = await openSameAsPi(snap.file as string, snap, "our view of pi's session");
    assert.match(ours.getSessionId(), /^[0-9a-f]{8}-[0-9a-f]{4}-7/, "pi 1.6 writes UUIDv7 session ids too");
    assert.equal(ours.getUsage(s1)?.input, usage.input);
    await ours.close();
  });
});
