/**
 * The writer lock: takeover races (deterministic, with a stalled taker, and a multi-process stress run),
 * one writer per file under every alias, the heartbeat, takeover after asking, a holder that notices it lost
 * its lock, and locks that are damaged, foreign, of a reused pid or of a killed holder.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { afterEach, beforeEach, describe, test } from "node:test";
import {
  SessionLockedError,
  SessionLockLostError,
  SessionManager,
  type LockHolderInfo,
} from "../../../src/core/index.js";
import { readJsonl, user } from "../../util/session-builder.js";
import { tempDir } from "../../util/temp-dir.js";
import {
  ageLock,
  deadPid,
  LockChild,
  lockHolder,
  machineKey,
  plantLock,
  stalledWindow,
  waitFor,
} from "./lock-helpers.js";

let dir: string;
let cleanup: () => void;
const children: LockChild[] = [];
beforeEach(() => ({ dir, cleanup } = tempDir("session-lock-")));
afterEach(async () => {
  for (const c of children.splice(0)) await c.kill();
  cleanup();
});

async function child(args: string[] = []): Promise<LockChild> {
  const c = await LockChild.start(args);
  children.push(c);
  return c;
}

/** A session file with `n` entries; returns its path and ids. */
async function sessionWith(n: number, where = dir): Promise<{ file: string; ids: string[] }> {
  const sm = await SessionManager.create("/p", where);
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push(sm.appendMessage(user(`e${i}`)));
  await sm.close();
  return { file: sm.getSessionFile() as string, ids };
}

const TORN = '{"type":"message","id":"deadbeef","parentId":null,"timestamp":"2025-01-01T00:00:00.000Z","message":{"ro';

/** Ids of the entries of a file that parse (a reopen's view). */
async function idsOnDisk(file: string): Promise<string[]> {
  const sm = await SessionManager.open(file, { readOnly: true });
  const ids = sm.getEnvelopes().map((e) => e.id);
  await sm.close();
  return ids;
}

/** A live process that is not a session holder (its pid is alive; it never touches a lock). */
function sleeper(): { pid: number; stop: () => void } {
  const p = spawn(process.execPath, ["-e", "setTimeout(() => {}, 120000)"], { stdio: "ignore" });
  return { pid: p.pid as number, stop: () => p.kill("SIGKILL") };
}

describe("stale-lock takeover is atomic", () => {
  test("a taker stalled between judging a dead lock and removing it does not remove the lock taken meanwhile", async () => {
    const { file, ids } = await sessionWith(3);
    fs.appendFileSync(file, TORN);
    plantLock(file, { pid: deadPid() });
    const judged = path.join(dir, "judged");
    const go = path.join(dir, "go");
    const p2 = await child(["--stall", judged, go]);
    p2.post({ op: "open", file });
    // P2 judged the dead holder's lock removable and stalls right before removing it.
    await waitFor(() => fs.existsSync(judged), "the second process to judge the lock stale");
    // Meanwhile P1 (this process) takes the lock over, repairs the torn tail and writes 5 entries.
    const p1 = await SessionManager.open(file);
    const mine = [1, 2, 3, 4, 5].map((i) => p1.appendMessage(user(`p1 ${i}`)));
    fs.writeFileSync(go, "");
    const opened = JSON.parse(await p2.next()) as { ok: boolean; name?: string; condition?: string };
    assert.equal(opened.ok, false, "the stalled process became a second writer");
    assert.equal(opened.name, "SessionLockedError");
    assert.equal(opened.condition, "live");
    assert.equal(lockHolder(file)?.pid, process.pid, "the lock is still this process's");
    mine.push(p1.appendMessage(user("p1 6")));
    await p1.close();
    assert.deepEqual(await idsOnDisk(file), [...ids, ...mine]);
    const torn = fs.readdirSync(dir).filter((f) => f.includes(".torn-"));
    assert.deepEqual(
      torn.map((f) => fs.readFileSync(path.join(dir, f), "utf8")),
      [TORN],
      "only the torn bytes went aside",
    );
  });

  test("a torn-tail repair never cuts bytes written after the scan (another program appended meanwhile)", async () => {
    const { file, ids } = await sessionWith(2);
    fs.appendFileSync(file, TORN);
    const sm = await SessionManager.open(file);
    // A writer that takes no lock (an old pi) ends the torn line and appends an entry of its own.
    const foreign = JSON.stringify({
      type: "message",
      id: "f0f0f0f0",
      parentId: ids[1],
      timestamp: "2025-01-01T00:00:00.000Z",
      message: { role: "user", content: "foreign", timestamp: 1 },
    });
    fs.appendFileSync(file, "\n" + foreign + "\n");
    const before = fs.readFileSync(file, "utf8");
    // The session takes their lines in before it writes (refreshFromDisk): the torn line, ended by them, is a
    // damaged line of its own, their entry is in the session, and ours goes after both.
    const mine = sm.appendMessage(user("mine"));
    assert.ok(sm.hasEntry("f0f0f0f0"));
    assert.equal(sm.getLoadIssues().length, 1);
    await sm.close();
    assert.ok(fs.readFileSync(file, "utf8").startsWith(before), "nothing of the file was cut");
    assert.deepEqual((await idsOnDisk(file)).slice(-2), ["f0f0f0f0", mine]);
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.includes(".torn-")),
      [],
    );
  });

  test(
    "four processes opening a session with a dead holder's lock: one writer per round, nothing acknowledged lost",
    {
      timeout: 240_000,
    },
    async (t) => {
      const { file } = await sessionWith(2);
      const racers = await Promise.all([1, 2, 3, 4].map(() => child(["--jitter"])));
      const acked: string[] = [];
      const rounds = 8;
      for (let round = 0; round < rounds; round++) {
        fs.appendFileSync(file, TORN.replace("deadbeef", `deadbe${String(round).padStart(2, "0")}`));
        plantLock(file, { pid: deadPid() });
        for (const r of racers) r.post({ op: "open", file });
        const answers = await Promise.all(
          racers.map(async (r) => JSON.parse(await r.next()) as { ok: boolean; name?: string }),
        );
        const writers = racers.filter((_, i) => answers[i].ok);
        assert.equal(writers.length, 1, `round ${round}: ${writers.length} writers (${JSON.stringify(answers)})`);
        for (const a of answers) if (!a.ok) assert.equal(a.name, "SessionLockedError");
        const wrote = await writers[0].send({ op: "append", count: 5 });
        assert.equal(wrote.ok, true, JSON.stringify(wrote));
        acked.push(...(wrote.ids ?? []));
        await writers[0].send({ op: "close" });
        const onDisk = new Set(await idsOnDisk(file));
        for (const id of acked) assert.ok(onDisk.has(id), `round ${round}: acknowledged entry ${id} lost`);
      }
      t.diagnostic(`${rounds} rounds, ${acked.length} acknowledged entries, one writer each round`);
    },
  );
});

describe("one file under two paths has one writer", () => {
  /**
   * Opens a one-entry session for writing here and checks that another process cannot open it for writing under
   * `name`, a second path `link` makes for it; then appends five entries here and closes. The file, the alias,
   * the other process and the ids the file now holds.
   */
  async function refusedUnderAlias(
    name: string,
    link: (target: string, alias: string) => void,
  ): Promise<{ file: string; alias: string; other: LockChild; ids: string[] }> {
    const { file, ids } = await sessionWith(1);
    const alias = path.join(dir, name);
    link(file, alias);
    const a = await SessionManager.open(file);
    const other = await child();
    const b = await other.send({ op: "open", file: alias });
    assert.equal(b.ok, false, `${name} opened for writing`);
    assert.equal(b.name, "SessionLockedError");
    const five = [1, 2, 3, 4, 5].map((i) => a.appendMessage(user(`a ${i}`)));
    await a.close();
    return { file, alias, other, ids: [...ids, ...five] };
  }

  test("a symlink to the file, from another process", async () => {
    const { alias, ids } = await refusedUnderAlias("alias.jsonl", fs.symlinkSync);
    assert.deepEqual(await idsOnDisk(alias), ids);
  });

  test("a hard link to the file, from another process", async () => {
    const { file, alias, other, ids } = await refusedUnderAlias("hard-link.jsonl", fs.linkSync);
    // Released: the link opens for writing now.
    const ok = await other.send({ op: "open", file: alias });
    assert.equal(ok.ok, true, JSON.stringify(ok));
    const one = await other.send({ op: "append", count: 1 });
    await other.send({ op: "close" });
    assert.deepEqual(await idsOnDisk(file), [...ids, ...(one.ids ?? [])]);
  });

  test("a symlinked folder, in one process (the lock names this process, and is still not stale)", async () => {
    const real = path.join(dir, "real");
    fs.mkdirSync(real);
    const linked = path.join(dir, "linked");
    fs.symlinkSync(real, linked);
    const { file, ids } = await sessionWith(1, real);
    const a = await SessionManager.open(file);
    await assert.rejects(
      SessionManager.open(path.join(linked, path.basename(file))),
      (e: unknown) => e instanceof SessionLockedError && e.condition === "this-process",
    );
    const five = [1, 2, 3, 4, 5].map((i) => a.appendMessage(user(`a ${i}`)));
    await a.close();
    assert.deepEqual(await idsOnDisk(file), [...ids, ...five]);
  });

  test("a hard link and a symlink, in one process", async () => {
    const { file } = await sessionWith(1);
    const hard = path.join(dir, "hard.jsonl");
    const soft = path.join(dir, "soft.jsonl");
    fs.linkSync(file, hard);
    fs.symlinkSync(hard, soft);
    const a = await SessionManager.open(soft);
    for (const alias of [file, hard])
      await assert.rejects(
        SessionManager.open(alias),
        (e: unknown) => e instanceof SessionLockedError && e.condition === "this-process",
        alias,
      );
    await a.close();
    const b = await SessionManager.open(hard);
    await b.close();
  });
});

describe("heartbeat, takeover after asking, and the holder that lost its lock", () => {
  test("the holder refreshes its lock every heartbeat, only when its alive() round trip settles", async () => {
    const { file } = await sessionWith(1);
    let release: () => void = () => undefined;
    let calls = 0;
    const sm = await SessionManager.open(file, {
      lock: {
        heartbeatMs: 50,
        alive: () => {
          calls++;
          return new Promise<void>((r) => (release = r));
        },
      },
    });
    // Whole seconds: a file time in milliseconds does not always read back exactly.
    const old = new Date(Math.floor(Date.now() / 1000 - 3600) * 1000);
    const token = ageLock(file, old);
    await waitFor(() => calls >= 1, "the first heartbeat");
    // The round trip has not settled: no refresh, and no second call piles up behind it.
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(calls, 1);
    assert.equal(fs.statSync(token).mtimeMs, old.getTime(), "refreshed without the round trip");
    release();
    await waitFor(() => fs.statSync(token).mtimeMs > old.getTime(), "the refresh after the round trip");
    await sm.close();
  });

  test("an unresponsive holder is taken over only with the claim the user agreed to; the holder turns read-only", async () => {
    const { file, ids } = await sessionWith(1);
    // The holder's window is gone: its alive() round trip never settles, so its lock is never refreshed.
    const holder = await SessionManager.open(file, { lock: { heartbeatMs: 50, alive: () => new Promise(() => {}) } });
    const mine = holder.appendMessage(user("before the takeover"));
    const lost: (LockHolderInfo | undefined)[] = [];
    holder.onLockLost((h) => lost.push(h));
    ageLock(file);

    const other = await child();
    const asked = await other.send({ op: "open", file });
    assert.equal(asked.ok, false);
    assert.equal(asked.condition, "unresponsive");
    assert.equal(asked.canTakeOver, true);
    assert.ok(asked.claim);
    // A claim about another lock does not take this one.
    const wrong = await other.send({ op: "open", file, options: { lock: { takeOver: "token:0000" } } });
    assert.equal(wrong.condition, "unresponsive");
    const took = await other.send({ op: "open", file, options: { lock: { takeOver: asked.claim } } });
    assert.equal(took.ok, true, JSON.stringify(took));
    const theirs = await other.send({ op: "append", count: 2 });

    // The old holder finds out before its next write, writes nothing, and says who took over.
    assert.throws(() => holder.appendMessage(user("after the takeover")), SessionLockLostError);
    assert.equal(holder.isReadOnly(), true);
    assert.equal(holder.hasLostLock(), true);
    assert.equal(lost.length, 1);
    assert.equal(lost[0]?.pid, other.pid);
    assert.throws(() => holder.branch(ids[0]), SessionLockLostError);
    await holder.close();
    assert.equal(lockHolder(file)?.pid, other.pid, "closing the old holder removed the new lock");
    await other.send({ op: "close" });
    const lines = readJsonl(file).slice(1);
    assert.deepEqual(
      lines.map((l) => l.id),
      [...ids, mine, ...(theirs.ids ?? [])],
    );
  });

  test("the heartbeat notices a lost lock without any write", async () => {
    const { file } = await sessionWith(1);
    // The window does not answer (round trips pending) until the other process has taken over.
    const window = stalledWindow();
    const holder = await SessionManager.open(file, { lock: window.lock });
    const lost: (LockHolderInfo | undefined)[] = [];
    holder.onLockLost((h) => lost.push(h));
    ageLock(file);
    const other = await child();
    const asked = await other.send({ op: "open", file });
    assert.equal((await other.send({ op: "open", file, options: { lock: { takeOver: asked.claim } } })).ok, true);
    window.answer();
    await waitFor(() => lost.length === 1, "the old holder's heartbeat to notice the takeover");
    assert.equal(holder.isReadOnly(), true);
    assert.equal(lost[0]?.pid, other.pid);
    await holder.close();
    await other.send({ op: "close" });
  });

  test("a live, refreshed lock offers no takeover", async () => {
    const { file } = await sessionWith(1);
    const holder = await child();
    assert.equal((await holder.send({ op: "open", file })).ok, true);
    await assert.rejects(
      SessionManager.open(file),
      (e: unknown) => e instanceof SessionLockedError && e.condition === "live" && !e.canTakeOver,
    );
    await holder.send({ op: "close" });
  });

  test("a process's first writable open clears the registry locks that dead processes left", async (t) => {
    const uid = process.getuid?.();
    if (uid === undefined) return t.skip("no uid: the registry lives in the temp folder");
    const registry = path.join("/tmp", `agent-tree-locks-${uid}`);
    fs.mkdirSync(registry, { recursive: true, mode: 0o700 });
    const token = "0123456789abcdef";
    const stale = path.join(registry, `1-${Date.now()}.lock`);
    // Built under a temp name of this (live) process and renamed into place, as the store builds its locks:
    // a sweep by another process running meanwhile must not find it empty and remove it half-written.
    const building = `${stale}.tmp-${process.pid}-test`;
    fs.mkdirSync(building);
    const record = { pid: deadPid(), hostname: os.hostname(), machine: machineKey(), token, file: "/gone" };
    fs.writeFileSync(path.join(building, `${token}.json`), JSON.stringify(record));
    fs.renameSync(building, stale);
    const { file } = await sessionWith(1);
    const fresh = await child();
    assert.equal((await fresh.send({ op: "open", file })).ok, true);
    // The sweep runs right after the open returned (it does not hold the open up): give it a moment.
    for (let i = 0; i < 50 && fs.existsSync(stale); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(fs.existsSync(stale), false, "the dead process's registry lock is still there");
    await fresh.send({ op: "close" });
  });

  test("a killed holder's lock is taken over at once, and nothing it acknowledged is lost", async () => {
    const { file, ids } = await sessionWith(1);
    const holder = await child();
    assert.equal((await holder.send({ op: "open", file })).ok, true);
    const acked = (await holder.send({ op: "append", count: 3 })).ids ?? [];
    await holder.kill();
    const sm = await SessionManager.open(file);
    assert.deepEqual(
      sm.getEnvelopes().map((e) => e.id),
      [...ids, ...acked],
    );
    assert.equal(lockHolder(file)?.pid, process.pid);
    await sm.close();
  });
});

describe("odd locks give a clear choice, never a crash or two writers", () => {
  const takeOverWorks = async (file: string, condition: string): Promise<void> => {
    let claim: string | undefined;
    await assert.rejects(SessionManager.open(file), (e: unknown) => {
      assert.ok(e instanceof SessionLockedError, String(e));
      assert.equal(e.condition, condition);
      assert.equal(e.canTakeOver, true);
      claim = e.claim;
      return true;
    });
    const sm = await SessionManager.open(file, { lock: { takeOver: claim } });
    assert.equal(lockHolder(file)?.pid, process.pid);
    sm.appendMessage(user("after takeover"));
    await sm.close();
  };

  test("a corrupt, an empty, and a cluttered lock are damaged; each is taken over when the user agrees", async () => {
    const { file } = await sessionWith(1);
    const lockDir = `${file}.lock`;
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, "0123456789abcdef.json"), "{not json");
    await takeOverWorks(file, "damaged");
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, "0123456789abcdef.json"), "");
    await takeOverWorks(file, "damaged");
    fs.mkdirSync(lockDir);
    fs.writeFileSync(path.join(lockDir, "a.json"), "{}");
    fs.writeFileSync(path.join(lockDir, "b.txt"), "x");
    await takeOverWorks(file, "damaged");
    fs.writeFileSync(lockDir, ""); // an empty lock file (the format of earlier versions)
    await takeOverWorks(file, "damaged");
  });

  test("an empty lock folder holds nothing and is removed", async () => {
    const { file } = await sessionWith(1);
    fs.mkdirSync(`${file}.lock`);
    const sm = await SessionManager.open(file);
    assert.equal(lockHolder(file)?.pid, process.pid);
    await sm.close();
  });

  test("another machine's lock: respected while refreshed, offered for takeover once not", async () => {
    const { file } = await sessionWith(1);
    plantLock(file, { pid: 1, hostname: "elsewhere" });
    await assert.rejects(
      SessionManager.open(file),
      (e: unknown) => e instanceof SessionLockedError && e.condition === "live" && e.holder?.hostname === "elsewhere",
    );
    fs.rmSync(`${file}.lock`, { recursive: true });
    plantLock(file, { pid: 1, hostname: "elsewhere" }, 120_000);
    await takeOverWorks(file, "unresponsive");
  });

  test("a reused pid: a lock naming this very process, or a live process started after the lock", async () => {
    const { file } = await sessionWith(1);
    // This process's pid, but no lock of this process: an earlier process had the pid.
    plantLock(file, { pid: process.pid });
    const a = await SessionManager.open(file);
    await a.close();
    const other = sleeper();
    try {
      // A live process that never refreshes the lock: unresponsive once old, a choice for the user.
      plantLock(file, { pid: other.pid }, 120_000);
      await takeOverWorks(file, "unresponsive");
      if (fs.existsSync(`/proc/${other.pid}/stat`)) {
        // The lock says when its process started; this pid's process started at another time: gone.
        const token = plantLock(file, { pid: other.pid });
        const tokenFile = path.join(`${file}.lock`, `${token}.json`);
        fs.writeFileSync(tokenFile, JSON.stringify({ ...JSON.parse(fs.readFileSync(tokenFile, "utf8")), start: 1 }));
        const b = await SessionManager.open(file);
        assert.equal(lockHolder(file)?.pid, process.pid);
        await b.close();
      }
    } finally {
      other.stop();
    }
  });
});
