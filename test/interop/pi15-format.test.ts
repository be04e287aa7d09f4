/**
 * What pi 1.5 added to the format, checked against the newest real pi, 1.6.0 (under Node 22): context_edit and usage
 * entries, recorded system prompts (system messages, compaction.systemMessage), compactions keeping nothing,
 * messages without content, `modified` in list(), caller-chosen session ids, createBranchedSession in memory.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, test } from "node:test";
import { emptyUsage, SessionIdError, SessionManager, type SystemMessage } from "../../src/core/index.js";
import { tempDirPerTest } from "../util/temp-dir.js";
import {
  assertSameContext,
  assertSameView,
  latestRelease,
  ourView,
  piOpen,
  runPi,
  type PiSnapshot,
  timedMessages,
} from "./pi.js";

const T0 = Date.parse("2026-05-01T09:00:00.000Z");
const { user, assistant } = timedMessages(T0, {
  api: "openai-completions",
  provider: "openai",
  model: "gpt-5",
  usage: { input: 50, output: 10, totalTokens: 60 },
});
const system = (n: number, sections: Record<string, string | null>, content = ""): SystemMessage => ({
  role: "system",
  content,
  sections,
  toolsAdded: n === 0 ? [{ name: "read", description: "Read a file", parameters: { type: "object" } }] : undefined,
  timestamp: T0 + n,
});
const usage = { ...emptyUsage(), input: 4000, output: 1, totalTokens: 4001 };

const tmp = tempDirPerTest("agent-tree-interop-");

describe(`pi ${latestRelease().version}'s new entries and fields`, () => {
  const pi = latestRelease();

  test("context edits, usage, system prompts, a compaction keeping nothing, missing content: same context", async () => {
    const dir = path.join(tmp.dir, "pi15");
    const r = runPi(pi, [
      { op: "create", cwd: "/work/project", dir },
      { op: "message", message: user("Summarize the README", 1) }, // 1
      { op: "message", message: system(0, { intro: "<intro>You are pi.</intro>" }, "Base prompt") }, // 2
      { op: "message", message: assistant("The README explains setup.", 3) }, // 3
      { op: "message", message: user("My password is hunter2, keep it", 4) }, // 4
      { op: "message", message: assistant("I will not repeat it.", 5) }, // 5
      { op: "usage", kind: "cache_warm", provider: "openai", model: "gpt-5", usage }, // 6
      { op: "contextEdit", targetId: "$4", replacement: { content: "My password is [removed]" } }, // 7
      { op: "contextEdit", targetId: "$5", replacement: null }, // 8
      { op: "contextEdit", targetId: "$3", replacement: { content: "Setup, then usage." } }, // 9
      { op: "message", message: { role: "assistant", content: null, provider: "openai", model: "gpt-5" } }, // 10
      { op: "message", message: { role: "user", timestamp: T0 + 11 } }, // 11
      { op: "snapshot" }, // 12
      { op: "compaction", summary: "Read the README; a secret was removed.", tokensBefore: 900 }, // 13
      { op: "message", message: system(14, { intro: "<intro>Updated.</intro>", extra: "<x/>" }) }, // 14
      { op: "message", message: user("Go on", 15) }, // 15
      { op: "message", message: assistant("Going on.", 16) }, // 16
      { op: "compaction", summary: "Second compaction.", firstKeptEntryId: "$14", tokensBefore: 500 }, // 17
      { op: "message", message: user("And now?", 18) }, // 18
      { op: "snapshot" }, // 19
    ]);
    const file = r[0] as string;
    const beforeCompaction = r[12] as PiSnapshot;
    const piView = r[19] as PiSnapshot;
    // The shapes pi 1.5 wrote, which the tests below rely on.
    const byId = new Map(piView.entries.map((e) => [e.id, e as unknown as Record<string, unknown>]));
    const c1 = byId.get(r[13] as string) as Record<string, unknown>;
    assert.equal(c1.firstKeptEntryId, c1.id, "pi 1.5 keeps nothing: the compaction names itself");
    assert.equal((c1.systemMessage as SystemMessage).role, "system", "pi 1.5 records the prompt on the compaction");

    const ours = await SessionManager.open(file);
    assertSameView(piView, ourView(ours), "after two compactions");
    // Before the compactions too (the context edits, the usage entry, the repaired messages).
    ours.branch(r[11] as string);
    assertSameContext(beforeCompaction, ourView(ours), "before the compactions");
    const texts = JSON.stringify(ours.buildSessionContext().messages);
    assert.doesNotMatch(texts, /hunter2|I will not repeat it/, "edited-away text does not reach the model");

    // We continue (a compaction keeping nothing, a context edit, a usage record); pi 1.5 sees the same.
    const leafBefore = piView.leafId as string;
    ours.branch(leafBefore);
    const u = ours.appendMessage(user("One more from the extension", 20));
    ours.appendMessage(assistant("Sure.", 21));
    ours.appendContextEdit(u, { content: "One more (edited)" });
    ours.appendUsage("cache_warm", "openai", "gpt-5", usage, "warm-up");
    const own = ours.appendCompaction("Everything so far.", undefined, 700);
    assert.equal((ours.getEntry(own) as { firstKeptEntryId: string }).firstKeptEntryId, own);
    ours.appendMessage(user("After our compaction", 22));
    await ours.close();
    const again = await SessionManager.open(file, { readOnly: true });
    const piAgain = piOpen(pi, file);
    assertSameView(piAgain, ourView(again), "pi 1.5 after we appended");
    const ourCompaction = piAgain.entries.find((e) => e.id === own) as unknown as Record<string, unknown>;
    assert.deepEqual(
      (ourCompaction.systemMessage as SystemMessage).sections,
      { intro: "<intro>Updated.</intro>", extra: "<x/>" },
      "our compaction records the prompt in force, as pi 1.5 does",
    );
    await again.close();
  });

  test("SessionManager.list(): `modified` and the order are pi's (newest message, not the file time)", async () => {
    const dir = path.join(tmp.dir, "list");
    // An old conversation, a newer one, one of pi's in between, and a fork without messages (header only).
    const old = await SessionManager.create("/work/project", dir);
    const oldUser = old.appendMessage(user("old question", -86_400_000));
    old.appendMessage(assistant("old answer", -86_399_000));
    const newer = await SessionManager.create("/work/project", dir);
    newer.appendMessage(user("newer question", 1000));
    newer.appendMessage(assistant("newer answer", 2000));
    await newer.close();
    runPi(pi, [
      { op: "create", cwd: "/work/project", dir },
      { op: "message", message: user("pi's question", 500) },
      { op: "message", message: assistant("pi's answer", 600) },
    ]);
    const headerOnly = (await old.createBranchedSession(null)) as string;
    // Switching branch in the old session writes to its file last: it must not jump to the top.
    old.branch(oldUser);
    await old.close();
    fs.utimesSync(old.getSessionFile() as string, new Date(), new Date(Date.now() + 60_000));
    const piList = runPi(pi, [{ op: "list", cwd: "/work/project", dir }])[0] as { path: string; modified: string }[];
    const ours = await SessionManager.list("/work/project", dir);
    assert.deepEqual(
      ours.map((s) => ({ path: s.path, modified: s.modified.toISOString() })),
      piList.map((s) => ({ path: s.path, modified: s.modified })),
    );
    assert.deepEqual(
      ours.map((s) => s.path),
      [headerOnly, newer.getSessionFile(), ours[2].path, old.getSessionFile()],
      "a session without messages by its header's time; the old conversation last",
    );
    assert.equal(ours.at(-1)?.modified.getTime(), T0 - 86_399_000);
    // continueRecent keeps pi's `-c`: the file written last.
    assert.equal(await SessionManager.findMostRecent("/work/project", dir), old.getSessionFile());
  });

  test("caller-chosen session ids: pi and we accept and reject the same ones, and read each other's", async () => {
    const dir = path.join(tmp.dir, "ids");
    const ours = await SessionManager.create("/work/project", dir, { id: "issue-13.retry_2" });
    ours.appendMessage(user("with my id", 1));
    await ours.close();
    const file = ours.getSessionFile() as string;
    assert.ok(path.basename(file).endsWith("_issue-13.retry_2.jsonl"));
    assert.equal(piOpen(pi, file).sessionId, "issue-13.retry_2");
    const piFile = runPi(pi, [
      { op: "create", cwd: "/work/project", dir, id: "from-pi.7" },
      { op: "message", message: user("pi's", 2) },
    ])[0] as string;
    const opened = await SessionManager.open(piFile, { readOnly: true });
    assert.equal(opened.getSessionId(), "from-pi.7");
    await opened.close();
    assert.equal(SessionManager.inMemory("/w", { id: "mem-1" }).getSessionId(), "mem-1");
    for (const bad of ["-lead", "trail.", "has space", "a/b", ""]) {
      await assert.rejects(SessionManager.create("/work/project", dir, { id: bad }), SessionIdError);
      assert.throws(() => SessionManager.inMemory("/w", { id: bad }), SessionIdError);
      assert.throws(() => runPi(pi, [{ op: "inMemory", cwd: "/w", id: bad }]), /Session id must/);
    }
  });

  test("createBranchedSession on an in-memory session replaces it with the branch, as pi's does", async () => {
    const steps = (leafRef: string) => [
      { op: "inMemory", cwd: "/w" },
      { op: "message", message: user("a", 1) },
      { op: "message", message: assistant("b", 2) },
      { op: "label", targetId: "$1", label: "start" },
      { op: "message", message: user("c", 3) },
      { op: "branch", id: "$2" },
      { op: "message", message: user("d", 5) },
      { op: "fork", leafId: leafRef },
      { op: "snapshot" },
    ];
    const r = runPi(pi, steps("$6"));
    assert.equal(r[7], null, "pi returns no file");
    const piView = r[8] as PiSnapshot;
    assert.notEqual(piView.sessionId, r[0]);

    const sm = SessionManager.inMemory("/w");
    const before = sm.getSessionId();
    const a = sm.appendMessage(user("a", 1));
    const b = sm.appendMessage(assistant("b", 2));
    sm.appendLabelChange(a, "start");
    sm.appendMessage(user("c", 3));
    sm.branch(b);
    const d = sm.appendMessage(user("d", 5));
    assert.equal(await sm.createBranchedSession(d), undefined);
    assert.notEqual(sm.getSessionId(), before);
    // The same shape as pi's: the path, then the labels re-created; the same context.
    const shape = (v: { entries: { id: string; type: string; parentId: string | null }[] }) =>
      v.entries.map((e, i) => [
        e.type,
        e.parentId === null ? null : v.entries.findIndex((p) => p.id === e.parentId) - i,
      ]);
    assert.deepEqual(shape(ourView(sm)), shape(piView));
    assert.equal(sm.getLabel(a), "start");
    assert.deepEqual(
      JSON.parse(JSON.stringify(sm.buildSessionContext().messages)),
      JSON.parse(JSON.stringify(piView.context.messages)),
    );
    assert.equal(sm.getLeafId(), d);
  });
});
